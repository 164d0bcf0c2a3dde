// Only `ServiceInjects`: its single import also gives the providers.
import ServiceInjects

final class Greeter: Sendable {
    func hello() -> String { "hello" }
}

struct Services {
    let greeter: ServiceProvider<Greeter>
}

final class GreetingCommand {
    @ServiceInject(\Services.greeter) var greeter
}

ServiceInjectResolver.register(Services(greeter: ServiceProvider(Greeter())))
print("InjectsOnly: got \(GreetingCommand().greeter.hello())")
