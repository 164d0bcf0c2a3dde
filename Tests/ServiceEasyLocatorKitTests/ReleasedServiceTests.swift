import LocatorTestSupport
import Testing

import ServiceEasyLocatorKit
import TestSupport

/// A service that a `weak` provider made.
final class WeaklyHeldService: Sendable {}

// A get after the last user released a service of a `weak` provider held in an easy locator: the
// case an optimized build once crashed on. Run in debug and release.
@Suite("An easy locator's weak provider after its service was released")
struct EasyLocatorReleasedServiceTests {
    @Test("Each get after a release makes a new service", arguments: 1...3)
    func weakProviderInALocator(rounds: Int) throws {
        let counter = Counter()
        let locator = ServiceEasyLocator()
        locator.addService(provider: ServiceProvider(mode: .weak) {
            counter.increment()
            return WeaklyHeldService()
        })
        for round in 1...rounds {
            weak var released: WeaklyHeldService?
            do { released = try locator.tryService() as WeaklyHeldService }
            #expect(released == nil)
            #expect(counter.value == round)
        }
        #expect(locator.getService(serviceType: WeaklyHeldService.self) != nil)
        #expect((try? locator.getServiceAsResult(serviceType: WeaklyHeldService.self).get()) != nil)
        #expect(locator.getServiceProvider(serviceType: WeaklyHeldService.self)?.getServiceAsOptional() != nil)
        #expect(counter.value == rounds + 3)
    }
}
