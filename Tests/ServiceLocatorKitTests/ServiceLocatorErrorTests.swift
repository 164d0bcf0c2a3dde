import LocatorTestSupport
import Testing
import ServiceLocatorKit

@Suite("ServiceLocatorError and keys")
struct ServiceLocatorErrorTests {
    static let slot = ServiceLocatorKeyID(serviceType: FirstService.self)

    static let cases: [(ServiceLocatorError, [String])] = [
        (.serviceNotFound(key: slot, service: FirstService.self), ["not found", "FirstService"]),
        (.wrongParams(key: slot, service: FirstService.self, expected: Int.self, received: String.self),
         ["Wrong params", "FirstService", "Int", "String", "get it with params of type Swift.Int"]),
        (.wrongParams(key: slot, service: FirstService.self, expected: nil, received: nil), ["no params", "get it without params"]),
        (.serviceNotFound(key: ServiceLocatorKeyID(storeKey: "k"), service: LazyService.self,
                          stored: FirstService.self), ["'k'", "LazyService", "not found", "slot holds", "FirstService"]),
        (.readOnly(locator: ServiceLocator.self, change: "add it"), ["ServiceLocator", "read-only", "add it"]),
        (.cloneDenied(locator: ServiceLocator.self), ["ServiceLocator", "denies clone", "setReadOnly(denyClone: false) where it is made read-only, which allows clones"]),
        (.parentCycle(locator: ServiceLocator.self), ["ServiceLocator", "loop"]),
        (.sharedRequireSetup(locator: ServiceLocator.self), ["Shared", "not set up", "SharedServiceLocator.setup(_:), or the function of the app's that calls it"]),
        (.sharedReadOnly(locator: ServiceLocator.self), ["Shared", "read-only", "readOnlySharedAfter: false"]),
    ]

    @Test(arguments: 0..<cases.count)
    func messageNamesTheCause(index: Int) {
        let (error, words) = Self.cases[index]
        for word in words {
            #expect(error.description.contains(word), "\(error.description) should mention \(word)")
        }
        #expect(error.errorDescription == error.description)
        #expect(error.localizedDescription == error.description)
    }

    @Test func keyIDsCompareByTypeOrName() {
        let byType = ServiceLocatorKeyID(serviceType: FirstService.self)
        #expect(byType == Keys.first.keyID)
        #expect(byType.hashValue == Keys.first.keyID.hashValue)
        #expect(same(byType.serviceType, FirstService.self))
        #expect(byType != ServiceLocatorKeyID(serviceType: LazyService.self))
        #expect(byType.description.hasSuffix("FirstService"))

        let byName = ServiceLocatorKeyID(storeKey: byType.description)
        #expect(byName != byType)
        #expect(byName.serviceType == nil)
        #expect(byName == NamedKey<FirstService>(storeKey: byType.description).keyID)
        #expect(byName.description == byType.description)
        #expect(Set([byType, byName, Keys.first.keyID]).count == 2)
    }

    @Test func easyKeysNameTheServiceType() {
        #expect(Keys.first.storeKey == String(reflecting: FirstService.self))
        #expect(Keys.params.storeKey == String(reflecting: ParamsService.self))
        #expect(Keys.params.keyID == ServiceLocatorKeyID(serviceType: ParamsService.self))
        #expect(Keys.singleton.keyID == ServiceLocatorEasyKey<SingletonService>().keyID)
        #expect(NamedKey<FirstService>(storeKey: "x").keyID == ServiceLocatorKeyID(storeKey: "x"))
    }

    @Test func loggerDefaultDoesNothing() {
        let logger = SilentLogger()
        logger.serviceLocatorRefused(ServiceLocator(), error: .cloneDenied(locator: ServiceLocator.self))
        #expect(logger.queue == nil)
    }
}

final class SilentLogger: ServiceLocatorLogger {}
