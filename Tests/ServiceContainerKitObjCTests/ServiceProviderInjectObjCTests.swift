import Foundation
import ServiceContainerKitObjC
import Testing
import TestSupport

/// The Swift container the Objective-C style container is injected from.
struct ObjCInjectServices {
    let first = ServiceProvider(FirstService(name: "injected"))
    let greeting = ServiceProvider<any GreetingService>(Greeter(greeting: "by protocol"))
    let value = ServiceProvider(ValueService())
    let greeter = GreeterFactory().serviceProvider()
    let greetingMaker = ServiceParamsProvider<any GreetingService, String> { Greeter(greeting: $0) }
    let optionalFirst: ServiceProvider<FirstService>? = ServiceProvider(FirstService(name: "optional"))
    let optionalGreeting: ServiceProvider<any GreetingService>? = ServiceProvider(Greeter(greeting: "optional"))
    let missingFirst: ServiceProvider<FirstService>? = nil
    let optionalGreeter: ServiceParamsProvider<Greeter, String>? = GreeterFactory().serviceProvider()
    let optionalGreetingMaker: ServiceParamsProvider<any GreetingService, String>? = ServiceParamsProvider {
        Greeter(greeting: "optional \($0)")
    }
    let missingGreeter: ServiceParamsProvider<Greeter, String>? = nil
}

/// An Objective-C style container, as the `ServicesObjC` of the guide.
final class InjectedServicesObjC: NSObject {
    @ServiceProviderInject(objc: \ObjCInjectServices.first)
    var first

    @ServiceProviderInject(objc: \ObjCInjectServices.greeting)
    var greeting

    @ServiceProviderInject(objc: \ObjCInjectServices.value)
    var value

    @ServiceProviderInject(objc: \ObjCInjectServices.greeter)
    var greeter

    @ServiceProviderInject(objc: \ObjCInjectServices.greetingMaker)
    var greetingMaker

    @ServiceProviderInject(objc: \ObjCInjectServices.optionalFirst)
    var optionalFirst

    @ServiceProviderInject(objc: \ObjCInjectServices.optionalGreeting)
    var optionalGreeting

    @ServiceProviderInject(objc: \ObjCInjectServices.missingFirst)
    var missingFirst

    @ServiceProviderInject(objc: \ObjCInjectServices.optionalGreeter)
    var optionalGreeter

    @ServiceProviderInject(objc: \ObjCInjectServices.optionalGreetingMaker)
    var optionalGreetingMaker

    @ServiceProviderInject(objc: \ObjCInjectServices.missingGreeter)
    var missingGreeter

    /// Whether every property is injected.
    var isReady: Bool {
        $first.isReady && $greeting.isReady && $value.isReady && $greeter.isReady && $greetingMaker.isReady
            && $optionalFirst.isReady && $optionalGreeting.isReady && $missingFirst.isReady
            && $optionalGreeter.isReady && $optionalGreetingMaker.isReady && $missingGreeter.isReady
    }
}

/// A container of safe providers, declared with their own types.
struct SafeObjCInjectServices {
    let first = ServiceSafeProvider(FirstService(name: "safe"))
    let greeter = ServiceParamsSafeProvider<Greeter, String> { Greeter(greeting: "Hi, \($0)") }
    let optionalFirst: ServiceSafeProvider<FirstService>? = ServiceSafeProvider(FirstService(name: "optional safe"))
    let optionalGreeter: ServiceParamsSafeProvider<Greeter, String>? = ServiceParamsSafeProvider {
        Greeter(greeting: "Hey, \($0)")
    }
}

/// An Objective-C style container injected from safe providers: a safe provider is a
/// `ServiceProvider`.
final class SafeServicesObjC: NSObject {
    @ServiceProviderInject(objc: \SafeObjCInjectServices.first)
    var first

    @ServiceProviderInject(objc: \SafeObjCInjectServices.greeter)
    var greeter

    @ServiceProviderInject(objc: \SafeObjCInjectServices.optionalFirst)
    var optionalFirst

    @ServiceProviderInject(objc: \SafeObjCInjectServices.optionalGreeter)
    var optionalGreeter

    var isReady: Bool { $first.isReady && $greeter.isReady && $optionalFirst.isReady && $optionalGreeter.isReady }
}

/// A container of its own for the test that registers first.
struct EarlyObjCInjectServices {
    let first = ServiceProvider(FirstService(name: "early"))
}

/// A container that no test registers.
struct NeverRegisteredServices {
    let first = ServiceProvider(FirstService(name: "never"))
}

final class NeverInjectedServicesObjC: NSObject {
    static let injectLine: UInt = #line + 1
    @ServiceProviderInject(objc: \NeverRegisteredServices.first)
    var first
}

final class EarlyServicesObjC: NSObject {
    @ServiceProviderInject(objc: \EarlyObjCInjectServices.first)
    var first
}

/// A container of its own for the test that compares providers by identity.
struct IdentityObjCInjectServices {
    let first = ServiceProvider(FirstService(name: "identity"))
    let greeter = GreeterFactory().serviceProvider()
}

final class IdentityServicesObjC: NSObject {
    @ServiceProviderInject(objc: \IdentityObjCInjectServices.first)
    var first

    @ServiceProviderInject(objc: \IdentityObjCInjectServices.greeter)
    var greeter

    var isReady: Bool { $first.isReady && $greeter.isReady }
}

@Suite struct ServiceProviderInjectObjCTests {
    /// Makes the Objective-C style container, then registers `container` so it is injected.
    ///
    /// The registry is shared with other test suites, which may reset it at any moment: an
    /// attempt whose injection a reset interrupted is made again.
    func injected<Container, Services: NSObject>(
        _ container: Container,
        make: () -> Services,
        isReady: (Services) -> Bool
    ) throws -> Services {
        for _ in 0..<5 {
            let services = make()
            ServiceInjectResolver.register(container, failureIfContains: false)
            if isReady(services) {
                return services
            }
        }
        throw InjectionInterrupted()
    }

    struct InjectionInterrupted: Error {}

    @Test func providersAreInjectedAsObjCWrappers() throws {
        let services = try injected(ObjCInjectServices(), make: InjectedServicesObjC.init, isReady: \.isReady)
        defer { ServiceInjectResolver.remove(ObjCInjectServices.self) }

        let first: ServiceProviderObjC = services.first
        #expect((first.getService() as? FirstService)?.name == "injected")
        #expect((services.greeting.getService() as? Greeter)?.greeting == "by protocol")
        #expect(services.value.getService() == nil)
        let greeter: ServiceParamsProviderObjC = services.greeter
        #expect((greeter.getServiceWithParams("Ann") as? Greeter)?.greeting == "Hello, Ann")
        #expect((services.greetingMaker.getServiceWithParams("made") as? Greeter)?.greeting == "made")
    }

    @Test func optionalProvidersAreInjectedAsOptionalWrappers() throws {
        let services = try injected(ObjCInjectServices(), make: InjectedServicesObjC.init, isReady: \.isReady)
        defer { ServiceInjectResolver.remove(ObjCInjectServices.self) }

        let optionalFirst: ServiceProviderObjC? = services.optionalFirst
        #expect((optionalFirst?.getService() as? FirstService)?.name == "optional")
        #expect((services.optionalGreeting?.getService() as? Greeter)?.greeting == "optional")
        #expect(services.missingFirst == nil)
        let optionalGreeter: ServiceParamsProviderObjC? = services.optionalGreeter
        #expect((optionalGreeter?.getServiceWithParams("Bo") as? Greeter)?.greeting == "Hello, Bo")
        #expect((services.optionalGreetingMaker?.getServiceWithParams("made") as? Greeter)?.greeting == "optional made")
        #expect(services.missingGreeter == nil)
    }

    @Test func safeProvidersAreInjectedAsObjCWrappers() throws {
        let services = try injected(SafeObjCInjectServices(), make: SafeServicesObjC.init, isReady: \.isReady)
        defer { ServiceInjectResolver.remove(SafeObjCInjectServices.self) }

        #expect((services.first.getService() as? FirstService)?.name == "safe")
        #expect((services.greeter.getServiceWithParams("Ann") as? Greeter)?.greeting == "Hi, Ann")
        #expect((services.optionalFirst?.getService() as? FirstService)?.name == "optional safe")
        #expect((services.optionalGreeter?.getServiceWithParams("Bo") as? Greeter)?.greeting == "Hey, Bo")
    }

    @Test func injectedWrappersGiveBackTheContainersProviders() throws {
        let container = IdentityObjCInjectServices()
        let services = try injected(container, make: IdentityServicesObjC.init, isReady: \.isReady)
        defer { ServiceInjectResolver.remove(IdentityObjCInjectServices.self) }

        #expect(services.first.provider(of: FirstService.self) === container.first)
        #expect(services.greeter.provider(of: Greeter.self, params: String.self) === container.greeter)
    }

    @Test func wrapperMadeAfterRegistrationIsInjectedAtOnce() throws {
        for _ in 0..<5 {
            ServiceInjectResolver.register(EarlyObjCInjectServices(), failureIfContains: false)
            let services = EarlyServicesObjC()
            guard services.$first.isReady else { continue }
            defer { ServiceInjectResolver.remove(EarlyObjCInjectServices.self) }
            #expect((services.first.getService() as? FirstService)?.name == "early")
            return
        }
        Issue.record("the container was removed by another suite five times in a row")
    }

    @Test func firstReadWithNoContainerNamesTheProviderItReads() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = NeverInjectedServicesObjC().first
        }
        #expect(standardError(of: result).contains(
            "@ServiceProviderInject at ServiceContainerKitObjCTests/ServiceProviderInjectObjCTests.swift:"
                + "\(NeverInjectedServicesObjC.injectLine): no container of type "
                + "\(String(reflecting: NeverRegisteredServices.self)) is registered in ServiceInjectResolver to inject "
                + "ServiceContainerKit.ServiceProvider<\(String(reflecting: FirstService.self))>; register it before the "
                + "first read of the injected property"))
    }
}
