// The names that the examples in the doc comments of ServiceInjectsTesting (the ```swift blocks
// of the `///` comments in Sources/InjectsTesting) use: DocCommentExamplesTests type-checks
// those examples after this file, in one file. Read by that test, compiled into no target.
import Testing
import ServiceInjectsTesting

final class UserService: Sendable {
    let isMock: Bool
    init(isMock: Bool) { self.isMock = isMock }
}

final class Greeter: Sendable {
    let user: String
    init(user: String) { self.user = user }
}

struct Services: Sendable {
    let userService: ServiceProvider<UserService>
    let greeter: ServiceProvider<Greeter>

    static func mock(user: String = "ann") -> Services {
        Services(userService: ServiceProvider(UserService(isMock: true)), greeter: ServiceProvider(Greeter(user: user)))
    }
}

final class UserPresenter {
    @ServiceInject(\Services.userService) var userService
}

final class GreetingPresenter {
    @ServiceInject(\Services.greeter) var greeter
    var text: String { "Hello, \(greeter.user)" }
}

// What a trait's `provideScope(for:testCase:performing:)` is given.
let test = Test.current!
let testCase = Test.Case.current
let function: @Sendable () async throws -> Void = {}
