import Foundation
import Testing

@testable import ServiceContainerKitObjC

@Suite struct ServiceObjCFailureTests {
    /// An optional `NSObject` service through each wrapper that knows its type where it is
    /// written (so that the cast is compiled for `FirstService?`): one that is there is handed
    /// out, a `nil` one is refused. A `nil` one crashed optimized builds (see `nsObject(_:)`).
    @Test(arguments: [false, true])
    func optionalNSObjectService(isNil: Bool) throws {
        let make: @Sendable () -> FirstService? = { isNil ? nil : FirstService(name: "optional") }
        let provider = ServiceProvider<FirstService?>(mode: .many, factory: make)
        let params = ServiceParamsProvider<FirstService?, Int> { _ in make() }
        let locator = ServiceLocator()
        locator.addService(key: ServiceLocatorEasyKey<FirstService?>(), provider: provider)
        var errors: [NSError?] = [nil, nil, nil]
        let services = [
            ServiceProviderObjC(provider).getServiceAndReturnError(&errors[0]),
            ServiceParamsProviderObjC(params).getServiceWithParams(1, andReturnError: &errors[1]),
            ServiceLocatorObjC(locator).getServiceWithKey(
                ServiceLocatorObjCKey(ServiceLocatorEasyKey<FirstService?>()), error: &errors[2]
            ),
        ]
        for (service, error) in zip(services, errors) {
            if isNil {
                #expect(service == nil)
                #expect(error.map { ServiceObjCError.code(of: $0) } == .notNSObject)
            } else {
                #expect((service as? FirstService)?.name == "optional")
                #expect(error == nil)
            }
        }
    }

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
