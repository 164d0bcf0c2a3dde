import LocatorTestSupport
import Testing

import ServiceLocatorKit
import TestSupport

/// A service that a `weak` provider made, numbered in the order of its makings.
final class WeaklyHeldService: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}

// A get after the last user released a service of a `weak` provider held in a locator: the case
// an optimized build once crashed on. Run in debug and release.
@Suite("A locator's weak provider after its service was released")
struct LocatorReleasedServiceTests {
    @Test("Each get after a release makes a new service", arguments: 1...3)
    func weakProviderInALocator(rounds: Int) throws {
        let counter = Counter()
        let locator = ServiceLocator()
        let key = ServiceLocatorEasyKey<WeaklyHeldService>()
        locator.addService(key: key, provider: ServiceProvider(mode: .weak) {
            counter.increment()
            return WeaklyHeldService(number: counter.value)
        })
        var numbers: [Int] = []
        for _ in 0..<rounds {
            weak var released: WeaklyHeldService?
            do {
                let service = try locator.tryService(key: key)
                numbers.append(service.number)
                released = service
            }
            #expect(released == nil)
            // Through every way of getting it: the locator, its result, and the provider itself.
            #expect(locator.getService(key: key) != nil)
            #expect((try? locator.getServiceAsResult(key: key).get()) != nil)
            #expect(locator.getServiceProvider(key: key)?.getServiceAsOptional() != nil)
        }
        #expect(numbers == Array(stride(from: 1, through: 1 + 4 * (rounds - 1), by: 4)))
    }
}
