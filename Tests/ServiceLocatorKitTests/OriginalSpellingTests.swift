// Code written as users of the 2.0.1 keyed locator wrote it.
import LocatorTestSupport
import Testing
import ServiceLocatorKit

/// A 2.0.1-style custom key sharing the store key of another service type.
private struct SecondServiceLocatorKey: ServiceLocatorKey {
    typealias ServiceType = LazyService
    var storeKey: String { "FirstService" }
}

private struct FirstServiceLocatorKey: ServiceLocatorKey {
    typealias ServiceType = FirstService
    var storeKey: String { "FirstService" }
}

@Suite("2.0.1 spellings of ServiceLocator")
struct OriginalSpellingTests {
    @Test("setReadOnly(denyClone: true) after setReadOnly(denyClone: false) denies clones")
    func setReadOnlyTightensDenyClone() {
        let serviceLocator = ServiceLocator()
        serviceLocator.addService(key: ServiceLocatorEasyKey<FirstService>(), service: FirstService())
        serviceLocator.setReadOnly(denyClone: false, assertionFailure: false)
        #expect(serviceLocator.clone().getService(key: ServiceLocatorEasyKey<FirstService>()) != nil)

        serviceLocator.setReadOnly(denyClone: true)
        #expect(serviceLocator.denyClone)
        let clone = serviceLocator.clone()
        #expect(clone.getService(key: ServiceLocatorEasyKey<FirstService>()) == nil)
        #expect(clone.count == 0)
    }

    @Test("A key whose slot holds another type throws ServiceLocatorError.serviceNotFound")
    func otherTypeIsServiceNotFound() {
        let serviceLocator = ServiceLocator()
        serviceLocator.addService(key: FirstServiceLocatorKey(), service: FirstService())
        #expect(serviceLocator.getService(key: SecondServiceLocatorKey()) == nil)

        var notFound = false
        do {
            _ = try serviceLocator.tryService(key: SecondServiceLocatorKey())
        } catch ServiceLocatorError.serviceNotFound {
            notFound = true
        } catch {
            Issue.record("expected serviceNotFound, got \(error)")
        }
        #expect(notFound)
    }
}
