import Testing
import ServiceLocatorKit

// The 2.0 docs' "Usage ServiceLocator with keys". Each variant keeps its own
// `ServiceLocatorKeys`, so each lives in a namespace. Adapted as docs/migration.md says; the
// arguments that the snippets left out (`SecondServiceFactory(...)`) are given.

// MARK: Keys as types

struct ServiceExampleV1LocatorKey: ServiceLocatorKey {
    typealias ServiceType = ServiceExampleV1
    var storeKey: String { return "ServiceExampleV1" }
}

struct FirstServiceLocatorKey: ServiceLocatorKey {
    typealias ServiceType = FirstService
    let isShared: Bool
    var storeKey: String { return isShared ? "FirstService.shared" : "FirstService" }
}

struct FirstServiceSharedLocatorKey: ServiceLocatorKey {
    typealias ServiceType = FirstService
    var storeKey: String { return "FirstService.shared" }
}

struct SingletonServiceLocatorKey: ServiceLocatorKey {
    typealias ServiceType = SingletonService
    var storeKey: String { return "SingletonService" }
}

func makeSecondServiceFactory() -> SecondServiceFactory {
    let singletonServiceProvider = SingletonServiceFactory().serviceProvider()
    return SecondServiceFactory(
        lazyServiceProvider: LazyServiceFactory().serviceProvider(),
        firstServiceProvider: FirstServiceFactory(singletonServiceProvider: singletonServiceProvider).serviceSafeProvider()
    )
}

// MARK: Variant #1.1 (recommended) - global constants

enum Variant11 {
    enum ServiceLocatorKeys {
        // Use standart (easy) key created from factory
        static let singletonService = SingletonServiceFactory.defaultKey
        static let lazyService = LazyServiceFactory.defaultKey
        static let firstService = FirstServiceFactory.defaultKey
        static let firstServiceShared = FirstServiceFactory.sharedKey
        static let secondService = SecondServiceFactory.defaultKey
    }
}

extension FirstServiceFactory {
    // Custom keys for FirstService
    static var defaultKey: FirstServiceLocatorKey { return .init(isShared: false) }
    static var sharedKey: FirstServiceLocatorKey { return .init(isShared: true) }
}

// MARK: Variant #1.2 - many style

enum Variant12 {
    /// The factory the variant extends with a `sharedKey` of another key type.
    final class FirstServiceFactory: ServiceFactory, Sendable {
        let mode: ServiceFactoryMode = .many
        func makeService() throws -> FirstService { FirstService(singletonService: SingletonService()) }
    }

    enum ServiceLocatorKeys {
        static let singletonService = SingletonServiceLocatorKey()    //Custom struct as key
        static let lazyService = ServiceLocatorEasyKey<LazyService>() //Use standart key
        static let firstService = FirstServiceFactory.defaultKey      //Use standart (easy) key created from factory
        static let firstServiceShared = FirstServiceFactory.sharedKey //Custom struct as key, but returned use extension
        static let secondService = ServiceLocatorParamsEasyKey<SecondService, SecondService.Params>()
    }
}

extension Variant12.FirstServiceFactory {
    static var sharedKey: FirstServiceSharedLocatorKey { return .init() }
}

// MARK: Variant #2 - typealias for standart generic keys

typealias SingletonServiceLocatorEasyKey = ServiceLocatorEasyKey<SingletonService>
typealias LazyServiceLocatorKey = ServiceLocatorEasyKey<LazyService>
typealias SecondServiceLocatorKey = ServiceLocatorParamsEasyKey<SecondService, SecondService.Params>

// MARK: Variant #3 - global keys in service as extension

extension SingletonService {
    static var locatorKey: ServiceLocatorEasyKey<SingletonService> { return .init() }
}

extension LazyService {
    static var locatorKey: ServiceLocatorEasyKey<LazyService> { return .init() }
}

extension SecondService {
    static var locatorKey: ServiceLocatorParamsEasyKey<SecondService, SecondService.Params> { return .init() }
}

// MARK: Add and get services

enum AddServicesExample {
    enum ServiceLocatorKeys {
        static let singletonService = SingletonServiceFactory.defaultKey
        static let lazyService = LazyServiceFactory.defaultKey
        static let firstService = FirstServiceFactory.defaultKey
        static let firstServiceShared = FirstServiceFactory.sharedKey
        static let secondService = ServiceLocatorEasyKey<LazySecondService>()
        static let thirdService = ServiceLocatorEasyKey<ThirdService>()
        static let paramsService = ParamsServiceFactory.defaultKey
    }

    static func makeLocator() throws -> ServiceLocator {
        let singletonServiceProvider = SingletonServiceFactory().serviceProvider()
        let lazyServiceProvider = LazyServiceFactory().serviceProvider()
        let firstServiceProvider = FirstServiceFactory(singletonServiceProvider: singletonServiceProvider).serviceSafeProvider()

        let serviceLocator = ServiceLocator()

        serviceLocator.addService(key: ServiceLocatorKeys.singletonService, provider: singletonServiceProvider)
        serviceLocator.addService(key: ServiceLocatorKeys.lazyService, provider: lazyServiceProvider)

        serviceLocator.addService(key: ServiceLocatorKeys.firstService, provider: firstServiceProvider)
        serviceLocator.addService(key: ServiceLocatorKeys.firstServiceShared, service: try firstServiceProvider.getService())

        serviceLocator.addLazyService(key: ServiceLocatorKeys.secondService) {
            LazySecondService()
        }

        serviceLocator.addService(key: ServiceLocatorKeys.thirdService) {
            ThirdService()
        }

        serviceLocator.addService(key: ServiceLocatorKeys.paramsService, factory: ParamsServiceFactory())

        serviceLocator.setReadOnly()
        return serviceLocator
    }
}

@Suite("2.x ServiceLocator snippets")
struct V2KeyedLocatorSnippetTests {
    @Test func useKey() {
        let serviceLocator = ServiceLocator()

        let key1 = ServiceExampleV1LocatorKey()
        let key2 = ServiceLocatorEasyKey<ServiceExampleV2>()

        serviceLocator.addService(key: key1, service: ServiceExampleV1())
        serviceLocator.addService(key: key2, service: ServiceExampleV2())

        guard let service1 = serviceLocator.getService(key: key1) else {
            Issue.record("service1 missing")
            return
        }

        guard let service2 = serviceLocator.getService(key: key2) else {
            Issue.record("service2 missing")
            return
        }
        #expect(service1 === serviceLocator.getService(key: key1))
        #expect(service2 === serviceLocator.getService(key: key2))
    }

    @Test func variant1() {
        typealias ServiceLocatorKeys = Variant11.ServiceLocatorKeys
        let serviceLocator = ServiceLocator()

        serviceLocator.addService(key: ServiceLocatorKeys.singletonService, factory: SingletonServiceFactory())
        serviceLocator.addService(key: ServiceLocatorKeys.lazyService, factory: LazyServiceFactory())
        serviceLocator.addService(key: ServiceLocatorKeys.secondService, factory: makeSecondServiceFactory())

        let service1 = serviceLocator.getService(key: ServiceLocatorKeys.singletonService)!
        let service2 = serviceLocator.getService(key: ServiceLocatorKeys.lazyService)!
        let service3 = serviceLocator.getService(key: ServiceLocatorKeys.secondService, params: .init("Value"))!

        #expect(service1 === serviceLocator.getService(key: ServiceLocatorKeys.singletonService))
        #expect(service2 === serviceLocator.getService(key: ServiceLocatorKeys.lazyService))
        #expect(service3.text == "Value")
        #expect(ServiceLocatorKeys.firstService.storeKey == "FirstService")
        #expect(ServiceLocatorKeys.firstServiceShared.storeKey == "FirstService.shared")
    }

    @Test func variant12Keys() throws {
        typealias ServiceLocatorKeys = Variant12.ServiceLocatorKeys
        let serviceLocator = ServiceLocator()
        serviceLocator.addService(key: ServiceLocatorKeys.singletonService, factory: SingletonServiceFactory())
        serviceLocator.addService(key: ServiceLocatorKeys.lazyService, factory: LazyServiceFactory())
        serviceLocator.addService(key: ServiceLocatorKeys.firstService, factory: Variant12.FirstServiceFactory())
        serviceLocator.addService(key: ServiceLocatorKeys.firstServiceShared,
                                  service: FirstService(singletonService: SingletonService()))
        serviceLocator.addService(key: ServiceLocatorKeys.secondService, factory: makeSecondServiceFactory())

        #expect(try serviceLocator.tryService(key: ServiceLocatorKeys.firstService)
                !== serviceLocator.tryService(key: ServiceLocatorKeys.firstServiceShared))
        #expect(try serviceLocator.tryService(key: ServiceLocatorKeys.secondService, params: .init(number: 4)).number == 4)
        #expect(serviceLocator.getService(key: ServiceLocatorKeys.singletonService) != nil)
        #expect(serviceLocator.getService(key: ServiceLocatorKeys.lazyService) != nil)
    }

    @Test func variant2() {
        let serviceLocator = ServiceLocator()

        serviceLocator.addService(key: SingletonServiceLocatorEasyKey(), factory: SingletonServiceFactory())
        serviceLocator.addService(key: LazyServiceLocatorKey(), factory: LazyServiceFactory())
        serviceLocator.addService(key: SecondServiceLocatorKey(), factory: makeSecondServiceFactory())

        let service1 = serviceLocator.getService(key: SingletonServiceLocatorEasyKey())!
        let service2 = serviceLocator.getService(key: LazyServiceLocatorKey())!
        let service3 = serviceLocator.getService(key: SecondServiceLocatorKey(), params: .init("Value"))!

        #expect(service1 === serviceLocator.getService(key: SingletonServiceLocatorEasyKey()))
        #expect(service2 === serviceLocator.getService(key: LazyServiceLocatorKey()))
        #expect(service3.text == "Value")
        // The factory takes optional params, so the service is also got without.
        #expect(serviceLocator.getService(key: SecondServiceLocatorKey())?.number == -1)
    }

    @Test func variant3() {
        let serviceLocator = ServiceLocator()

        serviceLocator.addService(key: SingletonService.locatorKey, factory: SingletonServiceFactory())
        serviceLocator.addService(key: LazyService.locatorKey, factory: LazyServiceFactory())
        serviceLocator.addService(key: SecondService.locatorKey, factory: makeSecondServiceFactory())

        let service1 = serviceLocator.getService(key: SingletonService.locatorKey)!
        let service2 = serviceLocator.getService(key: LazyService.locatorKey)!
        let service3 = serviceLocator.getService(key: SecondService.locatorKey, params: .init("Value"))!

        #expect(service1 === serviceLocator.getService(key: SingletonService.locatorKey))
        #expect(service2 === serviceLocator.getService(key: LazyService.locatorKey))
        #expect(service3.text == "Value")
    }

    @Test func addAndGetServices() throws {
        typealias ServiceLocatorKeys = AddServicesExample.ServiceLocatorKeys
        let serviceLocator = try AddServicesExample.makeLocator()

        let firstService = serviceLocator.getService(key: ServiceLocatorKeys.firstService)!

        let secondService: SecondServicing
        do {
            secondService = try serviceLocator.tryService(key: ServiceLocatorKeys.secondService)
        } catch {
            fatalError("Error get secondService: \(error)")
        }

        let paramsService = serviceLocator.getService(key: ServiceLocatorKeys.paramsService,
                                                      params: .init("test"))!

        let serviceDefault: ParamsService = try serviceLocator.tryService(key: ServiceLocatorKeys.paramsService)
        let serviceManual: ParamsService = try serviceLocator.tryService(key: ServiceLocatorKeys.paramsService,
                                                                         params: "Manual value")

        #expect(firstService !== serviceLocator.getService(key: ServiceLocatorKeys.firstServiceShared))
        #expect(secondService is LazySecondService)
        #expect(paramsService.text == "test")
        #expect(serviceDefault.text == "")
        #expect(serviceManual.text == "Manual value")
        #expect(serviceLocator.getService(key: ServiceLocatorKeys.thirdService)
                !== serviceLocator.getService(key: ServiceLocatorKeys.thirdService))
        #expect(serviceLocator.readOnly)
        #expect(serviceLocator.denyClone)
    }
}
