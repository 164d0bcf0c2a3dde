import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ServiceContainerKit
import TestSupport

/// The closes of a test, in the order they ran.
private final class ShutdownJournal: Sendable {
    private let entries = Mutex<[String]>([])
    func add(_ name: String) { entries.withLock { $0.append(name) } }
    var closed: [String] { entries.withLock { $0 } }
}

/// A service that writes its name to a journal when it closes, and may fail or hang there.
private final class Part: ClosableService {
    enum Behaviour: Sendable { case closes, fails, hangs }

    let name: String
    let journal: ShutdownJournal
    let behaviour: Behaviour

    init(_ name: String, _ journal: ShutdownJournal, _ behaviour: Behaviour = .closes) {
        self.name = name
        self.journal = journal
        self.behaviour = behaviour
    }

    struct Failure: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) refused to close" }
    }

    func close() async throws {
        journal.add(name)
        switch behaviour {
        case .closes: return
        case .fails: throw Failure(name: name)
        case .hangs: try await Task.sleep(for: .seconds(3_600))
        }
    }
}

private struct PartSession: ServiceSession {
    let user: Int
    var key: AnyHashable { user }
}

private struct PartSessionFactory: ServiceSessionFactory {
    let journal: ShutdownJournal
    let mode: ServiceSessionFactoryMode = .lazy
    func makeService(session: PartSession) throws -> Part { Part("session \(session.user)", journal) }
    func deactivateService(_ service: Part, session: PartSession) -> Bool { true }  // kept for the session
}

private func typeName(_ type: Any.Type) -> String { String(reflecting: type) }

@Suite("Shutdown: closing a container")
struct ShutdownTests {
    @Test("Closes what was made, in reverse order of the end of the makings, across the container's layout")
    func order() async {
        struct Storage {
            let pool: ServiceProvider<Part>
        }
        struct Services {
            let repository: ServiceProvider<Part>  // listed first, made last
            let storage: Storage
            let cache: ServiceProvider<Part>
        }
        let journal = ShutdownJournal()
        let pool = ServiceProvider<Part>(mode: .lazy) { Part("pool", journal) }
        let repository = ServiceProvider<Part>(mode: .lazy) {
            _ = try pool.getService()
            return Part("repository", journal)
        }
        let cache = ServiceProvider<Part>(mode: .atOne) { Part("cache", journal) }  // made first
        let services = Services(repository: repository, storage: Storage(pool: pool), cache: cache)
        _ = repository.getServiceAsOptional()
        let report = await ServiceShutdown.close(services)
        #expect(journal.closed == ["repository", "pool", "cache"])
        #expect(report.isClean && report.closedCount == 3)
        #expect(await ServiceShutdown.close(services).closedCount == 0)
        #expect(journal.closed == ["repository", "pool", "cache"])
    }

    @Test("Every kind that keeps a service closes it; many, instances, main-actor and scoped services do not")
    func whatCloses() async throws {
        let journal = ShutdownJournal()
        let mediator = ServiceSessionMediator(session: PartSession(user: 1))
        struct Services {
            let atOne: ServiceProvider<Part>
            let lazy: ServiceProvider<Part>
            let weak: ServiceProvider<Part>
            let deadWeak: ServiceProvider<Part>
            let safe: ServiceProvider<Part>
            let asyncAtOne: ServiceAsyncProvider<Part>
            let asyncLazy: ServiceAsyncProvider<Part>
            let asyncWeak: ServiceAsyncProvider<Part>
            let session: ServiceProvider<Part>
            let many: ServiceProvider<Part>
            let instance: ServiceProvider<Part>
            let scoped: ServiceProvider<Part>
            let neverMade: ServiceProvider<Part>
            let mainActor: ServiceMainActorProvider<Part>
        }
        let neverMadeCalls = Counter()
        let services = Services(
            atOne: ServiceProvider(mode: .atOne) { Part("atOne", journal) },
            lazy: ServiceProvider(mode: .lazy) { Part("lazy", journal) },
            weak: ServiceProvider(mode: .weak) { Part("weak", journal) },
            deadWeak: ServiceProvider(mode: .weak) { Part("dead weak", journal) },
            safe: ServiceSafeProvider(mode: .lazy, safeThread: .lock) { Part("safe", journal) },
            asyncAtOne: ServiceAsyncProvider(mode: .atOne) { Part("async atOne", journal) },
            asyncLazy: ServiceAsyncProvider(mode: .lazy) { Part("async lazy", journal) },
            asyncWeak: ServiceAsyncProvider(mode: .weak) { Part("async weak", journal) },
            session: PartSessionFactory(journal: journal).serviceProvider(mediator: mediator),
            many: ServiceProvider(mode: .many) { Part("many", journal) },
            instance: ServiceProvider(Part("instance", journal)),
            scoped: ServiceProvider(mode: .scoped) { Part("scoped", journal) },
            neverMade: ServiceProvider(mode: .lazy) {
                neverMadeCalls.increment()
                return Part("never made", journal)
            },
            mainActor: ServiceMainActorProvider(mode: .lazy) { Part("main actor", journal) }
        )
        let scope = ServiceScope()
        let held = try await scope.run {
            _ = try services.lazy.getService()
            _ = try services.deadWeak.getService()
            let weak = try services.weak.getService()
            _ = try services.safe.getService()
            _ = try await services.asyncAtOne.getService()
            _ = try await services.asyncLazy.getService()
            let asyncWeak = try await services.asyncWeak.getService()
            _ = try services.session.getService()
            mediator.updateSession(PartSession(user: 2))
            _ = try services.session.getService()
            _ = try services.many.getService()
            _ = try services.scoped.getService()
            _ = try await services.mainActor.getService()
            return (weak, asyncWeak)
        }
        let report = await ServiceShutdown.close(services)
        withExtendedLifetime(held) {}
        #expect(
            Set(journal.closed)
                == ["atOne", "lazy", "weak", "safe", "async atOne", "async lazy", "async weak", "session 1", "session 2"]
        )
        #expect(report.closedCount == 9 && report.isClean)
        #expect(neverMadeCalls.count == 0)
        _ = await scope.close()
        #expect(journal.closed.last == "scoped")
    }

    @Test("A service held by two providers closes once")
    func sharedInstanceClosesOnce() async {
        let journal = ShutdownJournal()
        let shared = ServiceProvider<Part>(mode: .atOne) { Part("shared", journal) }
        let alias = ServiceProvider<Part>(mode: .atOne) { try shared.getService() }
        let report = await ServiceShutdown.close((shared, alias))
        #expect(journal.closed == ["shared"])
        #expect(report.closedCount == 1)
    }

    @Test("Errors and time-outs are reported with the provider's path; the next service still closes")
    func failures() async throws {
        struct Storage {
            let failing: ServiceProvider<Part>
            let hanging: ServiceProvider<Part>
        }
        struct Services {
            let first: ServiceProvider<Part>
            let storage: Storage
            let last: ServiceProvider<Part>
        }
        let journal = ShutdownJournal()
        let services = Services(
            first: ServiceProvider(mode: .atOne) { Part("first", journal) },
            storage: Storage(
                failing: ServiceProvider(mode: .atOne) { Part("failing", journal, .fails) },
                hanging: ServiceProvider(mode: .atOne) { Part("hanging", journal, .hangs) }
            ),
            last: ServiceProvider(mode: .atOne) { Part("last", journal) }
        )
        let report = try await withAsyncTimeLimit(seconds: 60) {
            await ServiceShutdown.close(services, timeout: .milliseconds(200))
        }
        #expect(journal.closed == ["last", "hanging", "failing", "first"])
        #expect(report.closedCount == 4)
        #expect(report.failures.map(\.path) == ["storage.hanging", "storage.failing"])
        #expect(
            report.description == """
                closed 4 services, 2 failed
                - storage.hanging (\(typeName(Part.self))): did not finish within 0.2 seconds
                - storage.failing (\(typeName(Part.self))): failing refused to close
                """
        )
    }

    @Test("After a shutdown every provider refuses gets, made or not, and makes nothing")
    func refusesGets() async throws {
        let journal = ShutdownJournal()
        let calls = Counter()
        struct Services {
            let lazy: ServiceProvider<Part>
            let unmade: ServiceProvider<Part>
            let atOne: ServiceProvider<Part>
            let instance: ServiceProvider<Part>
            let many: ServiceProvider<Part>
            let weak: ServiceProvider<Part>
            let safe: ServiceProvider<Part>
            let params: ServiceParamsProvider<Part, String>
            let converted: ServiceProvider<Part>
            let async: ServiceAsyncProvider<Part>
            let asyncParams: ServiceAsyncParamsProvider<Part, String>
            let mainActor: ServiceMainActorProvider<Part>
        }
        let params = ServiceParamsProvider<Part, String> { name in
            calls.increment()
            return Part(name, journal)
        }
        let services = Services(
            lazy: ServiceProvider(mode: .lazy) { Part("lazy", journal) },
            unmade: ServiceProvider(mode: .lazy) {
                calls.increment()
                return Part("unmade", journal)
            },
            atOne: ServiceProvider(mode: .atOne) { Part("atOne", journal) },
            instance: ServiceProvider(Part("instance", journal)),
            many: ServiceProvider(mode: .many) {
                calls.increment()
                return Part("many", journal)
            },
            weak: ServiceProvider(mode: .weak) { Part("weak", journal) },
            safe: ServiceSafeProvider(mode: .lazy, safeThread: .lock) { Part("safe", journal) },
            params: params,
            converted: params.convert(params: "converted"),
            async: ServiceAsyncProvider(mode: .lazy) { Part("async", journal) },
            asyncParams: ServiceAsyncParamsProvider { name in
                calls.increment()
                return Part(name, journal)
            },
            mainActor: ServiceMainActorProvider(mode: .lazy) { Part("main actor", journal) }
        )
        let weak = try services.weak.getService()
        _ = try services.lazy.getService()
        _ = try services.safe.getService()
        _ = try await services.async.getService()
        _ = await ServiceShutdown.close(services)
        let callsAtShutdown = calls.count
        let message = { (type: Any.Type) in
            "Failed to obtain service \(typeName(type)) with error: the container of \(typeName(type)) was shut down: "
                + "its provider makes and hands out nothing any more"
        }
        let expected = message(Part.self)
        for provider in [
            services.lazy, services.unmade, services.atOne, services.instance, services.many, services.weak, services.safe,
            services.converted,
        ] {
            #expect(provider.getServiceAsResult().failure?.description == expected)
        }
        #expect(services.params.getServiceAsResult(params: "again").failure?.description == expected)
        #expect(await services.async.getServiceAsResult().failure?.description == expected)
        #expect(await services.asyncParams.getServiceAsResult(params: "again").failure?.description == expected)
        #expect(await services.mainActor.getServiceAsResult().failure?.description == expected)
        #expect(calls.count == callsAtShutdown)
        withExtendedLifetime(weak) {}
        let error = try #require(services.lazy.getServiceAsResult().failure)
        guard case .shutDown(let service)? = error.error as? ServiceFactoryError else {
            Issue.record("not shutDown: \(error)")
            return
        }
        #expect(typeName(service) == typeName(Part.self))
    }

    @Test("Providers outside the container and other containers keep working")
    func othersKeepWorking() async throws {
        let journal = ShutdownJournal()
        let inside = ServiceProvider<Part>(mode: .lazy) { Part("inside", journal) }
        let outside = ServiceProvider<Part>(mode: .lazy) { Part("outside", journal) }
        _ = try inside.getService()
        _ = try outside.getService()
        _ = await ServiceShutdown.close([inside])
        #expect(try outside.getService().name == "outside")
        #expect(journal.closed == ["inside"])
    }

    @Test("A close that hangs costs the shutdown about its time limit")
    func timeLimit() async {
        // In a process of its own: the other tests, which block threads of the concurrency pool
        // while they run, would delay the timer's task by seconds.
        await #expect(processExitsWith: .success) {
            let journal = ShutdownJournal()
            let services = (
                hanging: ServiceProvider<Part>(mode: .atOne) { Part("hanging", journal, .hangs) },
                fine: ServiceProvider<Part>(mode: .atOne) { Part("fine", journal) }
            )
            let start = ContinuousClock.now
            let report = await ServiceShutdown.close(services, timeout: .milliseconds(300))
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(3), "the shutdown took \(elapsed)")
            #expect(report.failures.map { "\($0.path ?? "") \($0.error)" } == ["hanging did not finish within 0.3 seconds"])
            #expect(journal.closed == ["fine", "hanging"])
        }
    }
}
