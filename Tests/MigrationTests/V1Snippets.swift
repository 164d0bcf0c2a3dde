import Foundation
import Testing
import ServiceEasyLocatorKit
import TestSupport

// The 1.x README, adapted as docs/migration.md says: factories declare `mode` and
// `makeService`, and `ServiceLocator` is the app's own subclass of `ServiceEasyLocator` with the
// shared-instance functions of 1.x.

enum V1 {
    // MARK: Factories (1.x: `factoryType` / `createService`)

    struct SingletonServiceFactory: ServiceFactory {
        let mode: ServiceFactoryMode = .atOne

        func makeService() throws -> SingletonService {
            return SingletonService()
        }
    }

    struct LazyServiceFactory: ServiceFactory {
        let mode: ServiceFactoryMode = .lazy

        func makeService() throws -> LazyService {
            return LazyService()
        }
    }

    class FirstServiceFactory: ServiceFactory {
        let singletonServiceProvider: ServiceProvider<SingletonService>
        var count: Int

        init(singletonServiceProvider: ServiceProvider<SingletonService>) {
            self.singletonServiceProvider = singletonServiceProvider
            self.count = 0
        }

        let mode: ServiceFactoryMode = .many
        func makeService() throws -> FirstService {
            count += 1
            return FirstService(singletonService: try singletonServiceProvider.getService())
        }
    }

    struct SecondServiceFactory: ServiceParamsFactory {
        let lazyServiceProvider: ServiceProvider<LazyService>
        let firstServiceProvider: ServiceProvider<FirstService>

        func makeService(params: SecondServiceParams?) throws -> SecondService {
            let instance = SecondService(lazyService: try lazyServiceProvider.getService(),
                                         firstService: try firstServiceProvider.getService())

            instance.number = params?.number ?? -1

            return instance
        }
    }

    struct UserServiceFactory {
        func createService() -> UserService { UserService() }
    }

    struct ParamsServiceFactory: ServiceParamsFactory {
        /// Optional params for support get service without params in ServiceLocator.
        func makeService(params: String?) throws -> ParamsService {
            return ParamsService(text: params ?? "")
        }
    }

    // MARK: The 1.x locator: a type-keyed locator with a shared instance

    final class ServiceLocator: ServiceEasyLocator, @unchecked Sendable {
        private static let sharedHolder = SharedServiceLocator<ServiceLocator>()

        static var shared: ServiceLocator? { sharedHolder.locator }

        static func setupShared(
            serviceLocator: ServiceLocator,
            readOnlySharedAfter: Bool = true,
            file: StaticString = #fileID,
            line: UInt = #line
        ) {
            sharedHolder.setup(serviceLocator, readOnlySharedAfter: readOnlySharedAfter, file: file, line: line)
        }

        static func getServiceFromShared<Service>() -> Service? {
            shared?.getService()
        }

        static func tryServiceFromShared<Service>() throws -> Service {
            try sharedHolder.tryLocator().tryService()
        }
    }

    // MARK: IoC Container

    struct ServiceContainer {
        let userService: UserService

        let singletonServiceProvider: ServiceProvider<SingletonService>
        let lazyServiceProvider: ServiceProvider<LazyService>

        let firstServiceProvider: ServiceProvider<FirstService>
        let secondServiceProvider: ServiceParamsProvider<SecondService, SecondServiceParams?>

        let sharedFirstService: FirstService
        let secondServiceNumber0Provider: ServiceProvider<SecondService>
    }
}

extension V1.ServiceContainer {
    static func createDefault() -> V1.ServiceContainer {
        let userService = V1.UserServiceFactory().createService()

        let singletonServiceProvider = V1.SingletonServiceFactory().serviceProvider()
        let lazyServiceProvider = ServiceProvider(factory: V1.LazyServiceFactory())

        let firstServiceProvider = V1.FirstServiceFactory(singletonServiceProvider: singletonServiceProvider)
            .serviceSafeProvider()
        let secondServiceProvider = V1.SecondServiceFactory(lazyServiceProvider: lazyServiceProvider,
                                                            firstServiceProvider: firstServiceProvider)
            .serviceProvider()

        // 1.x: `firstServiceProvider.getService()!` (an optional get).
        let sharedFirstService: FirstService = firstServiceProvider.getServiceAsOptional()!
        let secondServiceNumber0Provider = secondServiceProvider.convert(params: .init(number: 0))

        return V1.ServiceContainer(userService: userService,
                                   singletonServiceProvider: singletonServiceProvider,
                                   lazyServiceProvider: lazyServiceProvider,
                                   firstServiceProvider: firstServiceProvider,
                                   secondServiceProvider: secondServiceProvider,
                                   sharedFirstService: sharedFirstService,
                                   secondServiceNumber0Provider: secondServiceNumber0Provider)
    }
}

@Suite("1.x snippets")
struct V1SnippetTests {
    @Test func iocContainer() throws {
        let serviceContainer = V1.ServiceContainer.createDefault()
        let firstService = serviceContainer.firstServiceProvider.getServiceAsOptional()!
        #expect(firstService.singletonService === serviceContainer.sharedFirstService.singletonService)
        #expect(firstService !== serviceContainer.sharedFirstService)
        #expect(try serviceContainer.secondServiceNumber0Provider.getService().number == 0)
        #expect(try serviceContainer.secondServiceProvider.getService(params: .init(number: 5)).number == 5)
        #expect(try serviceContainer.secondServiceProvider.getService(params: nil).number == -1)
    }

    @Test func sharedLocator() throws {
        let sharedTestService = SharedTestService()
        let singletonServiceProvider = V1.SingletonServiceFactory().serviceProvider()
        let lazyServiceProvider = V1.LazyServiceFactory().serviceProvider()

        let serviceLocator = V1.ServiceLocator()

        serviceLocator.addService(provider: singletonServiceProvider)
        serviceLocator.addService(provider: lazyServiceProvider)

        serviceLocator.addService(provider: V1.FirstServiceFactory(singletonServiceProvider: singletonServiceProvider).serviceSafeProvider())
        serviceLocator.addService(sharedTestService as TestServiceShared) //TestServiceShared is protocol
        serviceLocator.addService(factory: V1.ParamsServiceFactory())
        serviceLocator.addService(provider: V1.SecondServiceFactory(
            lazyServiceProvider: lazyServiceProvider,
            firstServiceProvider: V1.FirstServiceFactory(singletonServiceProvider: singletonServiceProvider)
                .serviceSafeProvider()
        ).serviceProvider())

        serviceLocator.addLazyService {
            LazySecondService()
        }

        serviceLocator.addService {
            ThirdService() as ThirdServicing
        }

        serviceLocator.setReadOnly()

        serviceLocator.setReadOnly()
        V1.ServiceLocator.setupShared(serviceLocator: serviceLocator, readOnlySharedAfter: true)

        let firstService: FirstService = serviceLocator.getService()!
        let secondService = (V1.ServiceLocator.getServiceFromShared() as SecondService?)!

        let thirdService: ThirdServicing
        do {
            thirdService = try V1.ServiceLocator.tryServiceFromShared() as ThirdServicing
        } catch {
            fatalError("Error get thirdService: \(error)")
        }

        let paramsService: ParamsService = serviceLocator.getService(params: "test")!

        #expect(firstService.singletonService === (try singletonServiceProvider.getService()))
        #expect(secondService.number == -1)
        #expect(thirdService is ThirdService)
        #expect(paramsService.text == "test")
        #expect(V1.ServiceLocator.shared === serviceLocator)
        #expect(serviceLocator.getService(serviceType: TestServiceShared.self) === sharedTestService)
        let lazySecond: LazySecondService? = serviceLocator.getService()
        #expect(lazySecond != nil)
    }
}

/// docs/migration.md: the shared subclass passes its caller's line on to `SharedServiceLocator`.
@Suite("1.x shared locator: set-up")
struct V1SharedSetupTests {
    static let secondSetupLine: UInt = #line + 4
    static func setUpTwice() {
        let locator = V1.ServiceLocator()
        V1.ServiceLocator.setupShared(serviceLocator: locator)
        V1.ServiceLocator.setupShared(serviceLocator: locator)
    }

    @Test("A second setupShared of the shared subclass asserts at the line that calls it")
    func secondSetupNamesItsCaller() async {
        let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
            V1SharedSetupTests.setUpTwice()
        }
        guard assertionStops else { return }
        let stderr = standardError(of: result)
        #expect(stderr.contains("MigrationTests/V1Snippets.swift:\(Self.secondSetupLine): Fatal error"), "\(stderr)")
    }
}

// MARK: Spellings kept alive as deprecated

@available(*, deprecated, message: "exercises the 1.x spellings on purpose")
extension ParamsService: ServiceSupportFactoryParams {
    typealias ParamsType = String
}

@available(*, deprecated, message: "exercises the 1.x spellings on purpose")
@Test func v1ProviderSpellings() throws {
    let lazyProvider = ServiceProvider(lazy: { LazyService() })
    #expect(try lazyProvider.tryService() === lazyProvider.tryService())

    // 1.x `ServiceProvider(factory: { })` made a new service each time (2.x `manyFactory:`).
    let manyProvider = ServiceProvider(factory: { LazyService() })
    #expect(try manyProvider.tryService() !== manyProvider.tryService())

    let mode: ServiceFactoryType = .lazy
    #expect(mode == ServiceFactoryMode.lazy)
}

@available(*, deprecated, message: "exercises the 1.x spellings on purpose")
@Test func v1CreateServiceCallSites() throws {
    let made: SingletonService = try V1.SingletonServiceFactory().createService()
    #expect(made !== SingletonService())
    struct Echo: ServiceParamsFactory {
        func makeService(params: String) throws -> String { params }
    }
    #expect(try Echo().createService(params: "echo") == "echo")
}
