// Only `ServiceLocatorKit`: its single import also gives the providers.
import ServiceLocatorKit

final class Clock: Sendable {
    let name = "clock"
}

let locator = ServiceLocator()
locator.addService(key: ServiceLocatorEasyKey<Clock>(), provider: ServiceProvider(Clock()))
print("LocatorOnly: got \(try locator.tryService(key: ServiceLocatorEasyKey<Clock>()).name)")
