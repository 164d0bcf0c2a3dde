import Testing
import ServiceLocatorKit

// The 2.0 docs' factories and IoC container, adapted as docs/migration.md says: factories
// declare `mode` and `makeService`, and an optional get is `getServiceAsOptional()`.

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
        instance.text = params?.text ?? ""
        return instance
    }
}

struct UserServiceFactory {
    func createService() -> UserService { UserService() }
}

struct ServiceContainer {
    let userService: UserService

    let singletonServiceProvider: ServiceProvider<SingletonService>
    let lazyServiceProvider: ServiceProvider<LazyService>

    let firstServiceProvider: ServiceProvider<FirstService>
    let secondServiceProvider: ServiceParamsProvider<SecondService, SecondServiceParams?>

    let sharedFirstService: FirstService
    let secondServiceNumber0Provider: ServiceProvider<SecondService>
}

//MARK: Setup
extension ServiceContainer {
    static func createDefault() -> ServiceContainer {
        let userService = UserServiceFactory().createService()

        let singletonServiceProvider = SingletonServiceFactory().serviceProvider()
        let lazyServiceProvider = ServiceProvider(factory: LazyServiceFactory())

        let firstServiceProvider = FirstServiceFactory(singletonServiceProvider: singletonServiceProvider).serviceSafeProvider()
        let secondServiceProvider = SecondServiceFactory(lazyServiceProvider: lazyServiceProvider,
                                                         firstServiceProvider: firstServiceProvider).serviceProvider()

        let sharedFirstService: FirstService = firstServiceProvider.getServiceAsOptional()!
        let secondServiceNumber0Provider = secondServiceProvider.convert(params: .init(number: 0))

        return ServiceContainer(userService: userService,
                                singletonServiceProvider: singletonServiceProvider,
                                lazyServiceProvider: lazyServiceProvider,
                                firstServiceProvider: firstServiceProvider,
                                secondServiceProvider: secondServiceProvider,
                                sharedFirstService: sharedFirstService,
                                secondServiceNumber0Provider: secondServiceNumber0Provider)
    }
}

/// The private-providers container of the 2.0 docs, with today's throwing gets.
struct PrivateServiceContainer {
    private let firstServiceProvider: ServiceProvider<FirstService>
    private let secondServiceProvider: ServiceParamsProvider<SecondService, SecondServiceParams?>

    let userService: UserService

    init(_ container: ServiceContainer) {
        firstServiceProvider = container.firstServiceProvider
        secondServiceProvider = container.secondServiceProvider
        userService = container.userService
    }

    func makeFirstService() throws -> FirstService {
        return try firstServiceProvider.getService()
    }

    func makeSecondService(params: SecondServiceParams?) throws -> SecondService {
        return try secondServiceProvider.getService(params: params)
    }
}

@Suite("2.x provider snippets")
struct V2ProviderSnippetTests {
    @Test func iocContainer() throws {
        let serviceContainer = ServiceContainer.createDefault()

        let firstService = serviceContainer.firstServiceProvider.getServiceAsOptional()!

        let secondService: SecondService
        do {
            secondService = try serviceContainer.secondServiceNumber0Provider.getService()
        } catch {
            fatalError("Error get secondService: \(error)")
        }

        #expect(firstService.singletonService === serviceContainer.sharedFirstService.singletonService)
        #expect(secondService.number == 0)

        let container = PrivateServiceContainer(serviceContainer)
        #expect(try container.makeFirstService() !== firstService)
        #expect(try container.makeSecondService(params: .init(number: 3)).number == 3)
    }
}

@available(*, deprecated, message: "exercises the 2.x spellings on purpose")
@Test func v2ProviderSpellings() throws {
    let serviceContainer = ServiceContainer.createDefault()
    let firstService = try serviceContainer.firstServiceProvider.tryService()
    #expect(firstService !== serviceContainer.sharedFirstService)
    #expect(try serviceContainer.secondServiceProvider.tryService(params: .init(number: 2)).number == 2)

    let lazy = ServiceProvider(lazy: { LazyService() })
    #expect(try lazy.tryService() === lazy.tryService())
    let many = ServiceProvider(manyFactory: { LazyService() })
    #expect(try many.tryService() !== many.tryService())

    struct OldModeFactory: ServiceFactory {
        let mode: ServiceFactoryType = .atOne
        func makeService() throws -> SingletonService { SingletonService() }
    }
    let atOne = OldModeFactory().serviceProvider()
    #expect(try atOne.getService() === atOne.getService())
}

@available(*, deprecated, message: "exercises the 2.x spellings on purpose")
@Test func v2TryServiceWithParamsThrowsTheFactoryError() {
    struct Refused: Error, Equatable {}
    let provider = ServiceParamsProvider<Int, Int> { _ in throw Refused() }
    let error = #expect(throws: ServiceObtainError.self) { try provider.tryService(params: 1) }
    #expect(error?.error as? Refused == Refused())
}
