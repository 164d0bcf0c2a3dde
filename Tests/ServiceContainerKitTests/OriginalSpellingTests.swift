// Code written as users of the 3.0 providers wrote it: each test spells the calls the way the
// 3.0 README and its tests do.
import Foundation
import Testing

@testable import ServiceContainerKit

private final class SpySingleton {
    var value = ""
}

/// An `atOne` factory that counts its calls and fails while `error` is set (3.0's spy factory).
private final class SpySingletonFactory: ServiceFactory {
    var error: (any Error)?
    var callCount = 0
    let mode: ServiceFactoryMode = .atOne

    init(error: (any Error)? = nil) {
        self.error = error
    }

    func makeService() throws -> SpySingleton {
        callCount += 1
        if let error { throw error }
        return SpySingleton()
    }
}

/// An `atOne` factory that a plain provider takes: `Sendable`, it counts its calls behind a lock.
private final class SendableSingletonFactory: ServiceFactory, Sendable {
    let callCount = Locked(0)
    let mode: ServiceFactoryMode = .atOne

    func makeService() throws -> SpySingleton {
        callCount.withLock { $0 += 1 }
        return SpySingleton()
    }
}

private struct SpyParamsFactory: ServiceParamsFactory {
    func makeService(params: String) throws -> SpySingleton {
        let service = SpySingleton()
        service.value = params
        return service
    }
}

private struct SpySession: ServiceSession {
    var key: AnyHashable { "spy" }
}

private struct SpySessionFactory: ServiceSessionFactory {
    let mode: ServiceSessionFactoryMode = .lazy
    func makeService(session: SpySession) throws -> SpySingleton { SpySingleton() }
}

private final class MyLogger: ProvidersLogger {}
private final class OtherLogger: ProvidersLogger {}

@Suite("3.0 spellings of the providers")
struct OriginalSpellingTests {
    // The spy factory keeps mutable state, so it is not `Sendable`: a safe provider takes it.
    @Test("try ServiceSafeProvider(tryFactory:) takes the service type from the factory")
    func tryFactoryInfersTheServiceType() throws {
        let factory = SpySingletonFactory()
        let provider = try ServiceSafeProvider(tryFactory: factory)
        #expect(factory.callCount == 1)
        let service = try provider.getService()
        service.value = "Test1"
        #expect(provider.getServiceAsOptional()?.value == "Test1")
        #expect(factory.callCount == 1)
    }

    @Test("try ServiceProvider(tryFactory:) takes the service type from the factory")
    func plainTryFactoryInfersTheServiceType() throws {
        let factory = SendableSingletonFactory()
        let provider = try ServiceProvider(tryFactory: factory)
        #expect(factory.callCount.withLock { $0 } == 1)
        let service = try provider.getService()
        service.value = "Test1"
        #expect(provider.getServiceAsOptional() === service)
        #expect(provider.getServiceAsOptional()?.value == "Test1")
        #expect(factory.callCount.withLock { $0 } == 1)
    }

    @Test("try ServiceSafeProvider(tryFactory:) throws the error of an atOne factory at once")
    func tryFactoryFailure() {
        let factory = SpySingletonFactory(error: TestError(code: 4))
        let error = #expect(throws: ServiceObtainError.self) {
            _ = try ServiceSafeProvider(tryFactory: factory)
        }
        #expect(error?.error as? TestError == TestError(code: 4))
        #expect(factory.callCount == 1)
    }

    @Test("ServiceSafeProvider(service) gives the instance")
    func safeInstance() throws {
        let service = SpySingleton()
        let provider = ServiceSafeProvider(service)
        #expect(provider.getServiceAsOptional() === service)
        #expect(try provider.getService() === service)
        let semaphore = ServiceSafeProvider(service, safeThread: .semaphore)
        #expect((try? semaphore.getServiceAsResultNotSafe().get()) === service)
    }

    @Test("try ServiceSafeProvider(tryFactory:safeThread:) throws the error of an atOne factory at once")
    func safeTryFactoryFailure() {
        let factory = SpySingletonFactory(error: TestError(code: 6))
        let error = #expect(throws: ServiceObtainError.self) {
            _ = try ServiceSafeProvider(tryFactory: factory, safeThread: .semaphore)
        }
        #expect(error?.error as? TestError == TestError(code: 6))
        #expect(factory.callCount == 1)
    }

    @Test("try ServiceSafeProvider(tryFactory:) gives the factory's service")
    func safeTryFactory() throws {
        let factory = SpySingletonFactory()
        let provider: ServiceProvider<SpySingleton> = try ServiceSafeProvider(tryFactory: factory)
        #expect(try provider.getService() === (try provider.getService()))
        #expect(factory.callCount == 1)
    }

    @Test("try ServiceSafeProvider(castingFactory:) casts like the plain provider")
    func safeCastingFactory() throws {
        let provider = try ServiceSafeProvider<AnyObject>(castingFactory: SpySingletonFactory())
        #expect(try provider.getService() is SpySingleton)
        let error = #expect(throws: ServiceObtainError.self) {
            _ = try ServiceSafeProvider<Int>(castingFactory: SpySingletonFactory())
        }
        #expect(error?.isFactoryError == true)
    }

    @Test("Every initializer of the plain providers has a safe counterpart")
    func safeCounterparts() throws {
        let mediator = ServiceSessionMediator(session: SpySession())
        let safe: [ServiceProvider<SpySingleton>] = [
            ServiceSafeProvider(SpySingleton()),
            ServiceSafeProvider(factory: SpySingletonFactory()),
            try ServiceSafeProvider(tryFactory: SpySingletonFactory()),
            try ServiceSafeProvider(castingFactory: SpySingletonFactory()),
            ServiceSafeProvider(factory: SpyParamsFactory(), params: "fixed"),
            ServiceSafeProvider(factory: SpySessionFactory(), mediator: mediator),
            ServiceSafeProvider(mode: .lazy) { SpySingleton() },
        ]
        for provider in safe {
            #expect(provider is ServiceSafeProvider<SpySingleton>)
            #expect(provider.getServiceAsOptional() != nil)
        }
        let params: [ServiceParamsProvider<SpySingleton, String>] = [
            ServiceParamsSafeProvider(factory: SpyParamsFactory()),
            ServiceParamsSafeProvider { name in
                let service = SpySingleton()
                service.value = name
                return service
            },
        ]
        for provider in params {
            #expect(provider is ServiceParamsSafeProvider<SpySingleton, String>)
            #expect(provider.getServiceAsOptional(params: "given")?.value == "given")
        }
    }

    @Test("logger.register() makes LogRecorder.shared that logger")
    func loggerRegisterMakesItShared() async {
        // In a process of its own: other tests register loggers at the same time.
        await #expect(processExitsWith: .success) {
            precondition(LogRecorder.shared == nil)
            let logger = MyLogger()
            logger.register()
            precondition(LogRecorder.shared is MyLogger)
            let other = OtherLogger()
            other.register()
            precondition(LogRecorder.shared is OtherLogger)
            other.unregister()
            precondition(LogRecorder.shared === logger)
            logger.unregister()
            precondition(LogRecorder.shared == nil)
        }
    }
}
