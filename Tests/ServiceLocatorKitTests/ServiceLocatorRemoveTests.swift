import LocatorTestSupport
import Testing

import ServiceLocatorKit

private final class Alpha: Sendable {}
private final class Beta: Sendable {}

private struct SharedSlotKey<Service>: ServiceLocatorKey, Sendable {
    typealias ServiceType = Service
    let storeKey: String
}

@Suite("Removing a service")
struct ServiceLocatorRemoveTests {
    @Test("A key of another service type does not remove what its slot holds")
    func otherTypeKeepsService() throws {
        let locator = ServiceLocator()
        let alphaKey = SharedSlotKey<Alpha>(storeKey: "shared")
        let betaKey = SharedSlotKey<Beta>(storeKey: "shared")
        let alpha = Alpha()
        locator.addService(key: alphaKey, service: alpha)

        guard case .failure(.serviceNotFound(_, let requested, let stored?)) = locator.removeService(key: betaKey) else {
            Issue.record("expected serviceNotFound naming the stored type")
            return
        }
        #expect(ObjectIdentifier(requested) == ObjectIdentifier(Beta.self))
        #expect(ObjectIdentifier(stored) == ObjectIdentifier(Alpha.self))
        #expect(locator.getService(key: alphaKey) === alpha)

        #expect(throws: Never.self) { try locator.removeService(key: alphaKey).get() }
        #expect(locator.getService(key: alphaKey) == nil)
        guard case .failure(.serviceNotFound(_, _, nil)) = locator.removeService(key: alphaKey) else {
            Issue.record("expected serviceNotFound")
            return
        }
    }
}
