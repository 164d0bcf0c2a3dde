import Foundation
import Testing

@testable import ServiceContainerKitObjC

@Suite struct ServiceObjCFailureTests {
    @Test func locatorErrorsThatAreNoGetFailuresAreObtainFailures() throws {
        let refusal = ServiceLocatorError.readOnly(locator: ServiceLocator.self, change: "add service")
        let nsError = ServiceObjCFailure.locator(refusal, service: FirstService.self).nsError

        #expect(ServiceObjCError.code(of: nsError) == .obtainFailure)
        #expect(nsError.localizedDescription == refusal.description)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceLocatorError)
        guard case .readOnly = underlying else {
            Issue.record("expected readOnly, got \(underlying)")
            return
        }
    }

    @Test func otherErrorsAreObtainFailuresDescribedByTheirMessage() throws {
        struct Plain: Error {}
        let localized = ServiceObjCFailure.locator(TestFactoryError(reason: "odd"), service: nil).nsError
        #expect(ServiceObjCError.code(of: localized) == .obtainFailure)
        #expect(localized.localizedDescription == "test factory failed: odd")
        #expect(localized.userInfo[ServiceObjCError.serviceTypeKey] == nil)

        let plain = ServiceObjCFailure.locator(Plain(), service: FirstService.self).nsError
        #expect(plain.localizedDescription == String(describing: Plain()))
        #expect(plain.userInfo[NSUnderlyingErrorKey] is Plain)
        #expect(plain.userInfo[ServiceObjCError.serviceTypeKey] as? String == String(reflecting: FirstService.self))
    }
}
