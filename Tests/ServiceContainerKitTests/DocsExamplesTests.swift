// The examples of README.md and docs/core.md, compiled and run as they are written there.
import Foundation
import Testing

import ServiceContainerKit

// MARK: - README quick start

protocol SingletonService: AnyObject {}
final class SingletonServiceImpl: SingletonService {}

protocol LazyService: AnyObject {}
final class LazyServiceImpl: LazyService {}

protocol FirstService: AnyObject {
    var singleton: SingletonService { get }
}
final class FirstServiceImpl: FirstService {
    let singleton: SingletonService
    init(singletonService: SingletonService) { singleton = singletonService }
}

struct SecondServiceParams {
    var number: Int
}
final class SecondService {
    let lazyService: LazyService
    var number = 0
    init(lazyService: LazyService) { self.lazyService = lazyService }
}

struct SingletonServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .atOne
    func makeService() throws -> SingletonService {
        SingletonServiceImpl()
    }
}

struct LazyServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> LazyService {
        LazyServiceImpl()
    }
}

struct FirstServiceFactory: ServiceFactory {
    let singletonService: ServiceProvider<SingletonService>
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> FirstService {
        FirstServiceImpl(singletonService: try singletonService.getService())
    }
}

struct SecondServiceFactory: ServiceParamsFactory {
    let lazyService: ServiceProvider<LazyService>
    func makeService(params: SecondServiceParams?) throws -> SecondService {
        let instance = SecondService(lazyService: try lazyService.getService())
        instance.number = params?.number ?? -1
        return instance
    }
}

struct Services {
    let singletonService: ServiceProvider<SingletonService>
    let lazyService: ServiceProvider<LazyService>
    let firstService: ServiceProvider<FirstService>
    let secondService: ServiceParamsProvider<SecondService, SecondServiceParams?>
    let secondServiceNumber0: ServiceProvider<SecondService>
}

extension Services {
    static func makeDefault() -> Services {
        let singletonService = SingletonServiceFactory().serviceProvider()
        let lazyService = LazyServiceFactory().serviceProvider()
        let firstService = FirstServiceFactory(singletonService: singletonService).serviceProvider()
        let secondService = SecondServiceFactory(lazyService: lazyService).serviceProvider()
        return Services(
            singletonService: singletonService,
            lazyService: lazyService,
            firstService: firstService,
            secondService: secondService,
            secondServiceNumber0: secondService.convert(params: .init(number: 0))
        )
    }
}

// MARK: - docs/core.md: sessions

struct UserAccountSession: ServiceSession {
    let userId: String
    var key: AnyHashable { userId }
}

final class UserProfileStore {
    let userId: String
    private(set) var isActive = true
    init(userId: String) { self.userId = userId }
    func pause() { isActive = false }
    func resume() { isActive = true }
}

struct UserProfileStoreFactory: ServiceSessionFactory {
    let mode: ServiceSessionFactoryMode = .lazy

    func makeService(session: UserAccountSession) throws -> UserProfileStore {
        UserProfileStore(userId: session.userId)
    }

    // Keep the store of a signed-out user, to resume it if they sign in again.
    func deactivateService(_ service: UserProfileStore, session: UserAccountSession) -> Bool {
        service.pause()
        return true
    }

    func activateService(_ service: UserProfileStore, session: UserAccountSession) {
        service.resume()
    }
}

// MARK: - docs/core.md: logging

final class PrintLogger: ProvidersLogger {
    func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
        print("[services] \(error.fatalMessage)")
    }
}

@Suite("Documentation examples")
struct DocsExamplesTests {
    @Test("README quick start")
    func quickStart() throws {
        let services = Services.makeDefault()

        let first = try services.firstService.getService()
        let second = services.secondService.getServiceOrFatal(params: .init(number: 5))
        let secondZero = services.secondServiceNumber0.getServiceAsOptional()

        #expect(first.singleton === (try services.singletonService.getService()))
        #expect(second.number == 5)
        #expect(secondZero?.number == 0)
        #expect(second.lazyService === secondZero?.lazyService)
    }

    @Test("docs/core.md: modes and closures")
    func closures() throws {
        let settings = ServiceProvider<[String: String]>(mode: .lazy) { ["theme": "dark"] }
        let greeter = ServiceParamsProvider<String, String> { name in "Hello, \(name)!" }
        let fixed = greeter.convert(params: "Linux")

        #expect(try settings.getService()["theme"] == "dark")
        #expect(try fixed.getService() == "Hello, Linux!")
    }

    @Test("docs/core.md: errors")
    func errors() {
        struct BrokenFactory: ServiceFactory {
            struct Offline: Error {}
            let mode: ServiceFactoryMode = .lazy
            func makeService() throws -> LazyService { throw Offline() }
        }
        let broken = BrokenFactory().serviceProvider()
        let second = SecondServiceFactory(lazyService: broken).serviceProvider()

        switch second.getServiceAsResult(params: nil) {
        case .success:
            Issue.record("the lazy dependency cannot be made")
        case .failure(let error):
            // error.service is LazyService, error.pathServices is [SecondService, LazyService]
            #expect(error.isNested)
            #expect(error.error is BrokenFactory.Offline)
            #expect(error.pathServices.count == 2)
        }
    }

    @Test("docs/core.md: safe providers")
    func safe() throws {
        final class Counter { var value = 0 }
        let counter = Counter()
        let ids: ServiceProvider<Int> = ServiceSafeProvider(mode: .many, safeThread: .lock) {
            counter.value += 1  // serialized by the provider
            return counter.value
        }
        DispatchQueue.concurrentPerform(iterations: 100) { _ in _ = ids.getServiceAsOptional() }
        #expect(try ids.getService() == 101)
    }

    @Test("docs/core.md: sessions")
    func sessions() throws {
        let mediator = ServiceSessionMediator(session: UserAccountSession(userId: "ann"))
        let profiles = UserProfileStoreFactory().serviceProvider(mediator: mediator)

        let ann = try profiles.getService()
        mediator.updateSession(UserAccountSession(userId: "bob"))
        let bob = try profiles.getService()
        mediator.updateSession(UserAccountSession(userId: "ann"))

        #expect(try profiles.getService() === ann)
        #expect(ann.isActive)
        #expect(!bob.isActive)
    }

    @Test("docs/core.md: logging")
    func logging() {
        let logger = PrintLogger()
        logger.register()
        defer { logger.unregister() }
        #expect(LogRecorder.shared != nil)
    }
}
