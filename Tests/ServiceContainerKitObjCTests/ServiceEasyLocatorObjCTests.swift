import Foundation
import ServiceContainerKitObjC
import Testing
import TestSupport

/// A class service that takes params.
final class ParamsService: NSObject, Sendable {
    let text: String

    init(text: String) {
        self.text = text
    }
}

/// A protocol service that takes params.
protocol ParamsServicing: AnyObject, Sendable {
    var text: String { get }
}

extension ParamsService: ParamsServicing {}

@Suite struct ServiceEasyLocatorObjCTests {
    let first = FirstService(name: "easy")
    let locator = ServiceEasyLocator()
    let objc: ServiceEasyLocatorObjC

    init() {
        locator.addService(first)
        locator.addService(Greeter(greeting: "by protocol") as any GreetingService)
        locator.addService(provider: ServiceParamsProvider<ParamsService, String> { ParamsService(text: $0) })
        locator.addService(provider: ServiceParamsProvider<any ParamsServicing, String?> {
            ParamsService(text: $0 ?? "none")
        })
        locator.addLazyService { () throws -> Greeter in throw TestFactoryError(reason: "easy") }
        locator.addService(ValueService())
        locator.setReadOnly()
        objc = ServiceEasyLocatorObjC(locator)
    }

    @Test func getServiceWithClass() throws {
        #expect(objc.getServiceWithClass(FirstService.self) as? FirstService === first)
        var error: NSError? = NSError(domain: "stale", code: 1)
        #expect(objc.getServiceWithClass(FirstService.self, error: &error) as? FirstService === first)
        #expect(error == nil)
        #expect(objc.locator === locator)
    }

    @Test func classFoundByItsNameWithTheModulePrefix() throws {
        let qualified = String(reflecting: FirstService.self)
        #expect(qualified.hasPrefix("ServiceContainerKitObjCTests."))
        let serviceClass: AnyClass = try #require(NSClassFromString(qualified))
        #expect(objc.getServiceWithClass(serviceClass) as? FirstService === first)
    }

    @Test func classFoundFromAnInstancesClass() throws {
        let instance: NSObject = FirstService()
        #expect(objc.getServiceWithClass(type(of: instance)) as? FirstService === first)
    }

    @Test func getServiceWithClassAndParams() throws {
        #expect((objc.getServiceWithClass(ParamsService.self, params: "p") as? ParamsService)?.text == "p")
        var error: NSError? = NSError(domain: "stale", code: 1)
        let service = objc.getServiceWithClass(ParamsService.self, params: "q", error: &error) as? ParamsService
        #expect(service?.text == "q")
        #expect(error == nil)
    }

    @Test func getServiceWithProtocol() throws {
        #expect((objc.getServiceWithProtocol((any GreetingService).self) as? Greeter)?.greeting == "by protocol")
        var error: NSError?
        let greeter = objc.getServiceWithProtocol((any GreetingService).self, error: &error) as? Greeter
        #expect(greeter?.greeting == "by protocol")
        #expect(error == nil)
    }

    @Test func getServiceWithProtocolAndParams() throws {
        let protocolType = (any ParamsServicing).self
        #expect((objc.getServiceWithProtocol(protocolType, params: "r") as? ParamsService)?.text == "r")
        #expect((objc.getServiceWithProtocol(protocolType, params: nil) as? ParamsService)?.text == "none")
        #expect((objc.getServiceWithProtocol(protocolType) as? ParamsService)?.text == "none")
        var error: NSError?
        let service = objc.getServiceWithProtocol(protocolType, params: "s", error: &error) as? ParamsService
        #expect(service?.text == "s")
        #expect(error == nil)
    }

    @Test func missingClassIsServiceNotFound() throws {
        #expect(objc.getServiceWithClass(Counter.self) == nil)
        var error: NSError?
        #expect(objc.getServiceWithClass(Counter.self, error: &error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .serviceNotFound)
        #expect(nsError.localizedDescription.contains("Counter"))
        #expect(nsError.userInfo[ServiceObjCError.serviceTypeKey] as? String == String(reflecting: Counter.self))
        guard case .serviceNotFound? = nsError.userInfo[NSUnderlyingErrorKey] as? ServiceLocatorError else {
            Issue.record("expected serviceNotFound")
            return
        }
    }

    @Test("A miss names the implementation stored under its own type when an error pointer takes the error")
    func missWithErrorPointerNamesTheImplementation() throws {
        let local = ServiceEasyLocator()
        local.addService(Greeter(greeting: "as itself"))
        let objc = ServiceEasyLocatorObjC(local)
        #expect(objc.getServiceWithProtocol((any GreetingService).self) == nil)
        var error: NSError?
        #expect(objc.getServiceWithProtocol((any GreetingService).self, error: &error) == nil)
        let underlying = try bridgeError(error).userInfo[NSUnderlyingErrorKey] as? ServiceLocatorError
        guard case .serviceNotFound(_, _, let stored?)? = underlying else {
            Issue.record("expected serviceNotFound naming Greeter, got \(String(describing: underlying))")
            return
        }
        #expect(ObjectIdentifier(stored) == ObjectIdentifier(Greeter.self))
    }

    @Test func serviceIsFoundOnlyUnderTheTypeItWasAddedAs() throws {
        let local = ServiceEasyLocator()
        local.addService(Greeter(greeting: "only by protocol") as any GreetingService)
        let objc = ServiceEasyLocatorObjC(local)

        var error: NSError?
        #expect(objc.getServiceWithClass(Greeter.self, error: &error) == nil)
        #expect(ServiceObjCError.code(of: try bridgeError(error)) == .serviceNotFound)
        #expect(objc.getServiceWithProtocol((any GreetingService).self, error: &error) != nil)
        #expect(error == nil)
    }

    @Test func wrongParamsAreWrongParams() throws {
        #expect(objc.getServiceWithClass(ParamsService.self, params: 1) == nil)
        var error: NSError?
        #expect(objc.getServiceWithClass(ParamsService.self, params: 1, error: &error) == nil)
        #expect(ServiceObjCError.code(of: try bridgeError(error)) == .wrongParams)

        #expect(objc.getServiceWithClass(ParamsService.self, error: &error) == nil)
        #expect(ServiceObjCError.code(of: try bridgeError(error)) == .wrongParams)

        #expect(objc.getServiceWithProtocol((any ParamsServicing).self, params: 2) == nil)
        #expect(objc.getServiceWithProtocol((any ParamsServicing).self, params: 2, error: &error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .wrongParams)
        #expect(nsError.localizedDescription.contains("ParamsServicing"))
    }

    @Test func factoryFailureIsAnObtainFailure() throws {
        #expect(objc.getServiceWithClass(Greeter.self) == nil)
        var error: NSError?
        #expect(objc.getServiceWithClass(Greeter.self, params: nil, error: &error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .obtainFailure)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        #expect(underlying.error as? TestFactoryError == TestFactoryError(reason: "easy"))
    }

    @Test func nonNSObjectIsRefusedAndReported() throws {
        try RefusalRecorder.recording { recorder in
            #expect(objc.getServiceWithProtocol(ValueService.self) == nil)
            var error: NSError?
            #expect(objc.getServiceWithProtocol(ValueService.self, params: nil, error: &error) == nil)
            let nsError = try bridgeError(error)
            #expect(ServiceObjCError.code(of: nsError) == .notNSObject)
            #expect(nsError.localizedDescription.contains("ValueService"))
            #expect(recorder.count(of: ValueService.self) >= 2)
        }
    }

    @Test func parentLocatorAnswersMisses() {
        let child = ServiceEasyLocator(parent: locator)
        let objc = ServiceEasyLocatorObjC(child)
        #expect(objc.getServiceWithClass(FirstService.self) as? FirstService === first)
    }
}
