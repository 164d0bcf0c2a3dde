import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ServiceContainerKit
import TestSupport

private struct PartSession: ServiceSession {
    let user: Int
    var key: AnyHashable { user }
}

private struct PartSessionFactory: ServiceSessionFactory {
    let journal: CloseJournal
    let mode: ServiceSessionFactoryMode = .lazy
    func makeService(session: PartSession) throws -> Closing { Closing("session \(session.user)", journal) }
    func deactivateService(_ service: Closing, session: PartSession) -> Bool { true }  // kept for the session
}

/// Keeps each session's service and logs its hooks; once `blocks` is set, its
/// `deactivateService` signals `entered` and waits for `proceed`.
private final class HookLoggingFactory: ServiceSessionFactory, Sendable {
    let journal: CloseJournal
    let blocks = Atomic(false)
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let mode: ServiceSessionFactoryMode = .lazy

    init(journal: CloseJournal) { self.journal = journal }

    func makeService(session: PartSession) throws -> Closing { Closing("session \(session.user)", journal) }
    func deactivateService(_ service: Closing, session: PartSession) -> Bool {
        journal.add("deactivate \(session.user)")
        if blocks.load(ordering: .relaxed) {
            entered.signal()
            proceed.wait()
        }
        return true
    }
    func activateService(_ service: Closing, session: PartSession) {
        journal.add("activate \(session.user)")
    }
}

/// Makes its service for every new session at once, and counts the makings.
private struct AtOnePartSessionFactory: ServiceSessionFactory {
    let journal: CloseJournal
    let made: Counter
    let mode: ServiceSessionFactoryMode = .atOne
    func makeService(session: PartSession) throws -> Closing {
        made.increment()
        return Closing("session \(session.user)", journal)
    }
}

private func typeName(_ type: Any.Type) -> String { String(reflecting: type) }

/// What a get of `type` from a provider that was shut down says.
private func shutDownMessage(_ type: Any.Type) -> String {
    "Failed to obtain service \(typeName(type)) with error: the container of \(typeName(type)) was shut down: its "
        + "provider makes and hands out nothing any more; stop the work that uses a container before shutting it "
        + "down, and let a service's close() use what it got when it was made"
}

@Suite("Shutdown: a value without providers")
struct ShutdownOfNothingTests {
    private struct Services {
        let settings = ServiceProvider<Closing>(mode: .lazy) { Closing("settings", CloseJournal()) }
        static func make() -> Services { Services() }
    }

    // Shuts nothing down, so it runs beside the other tests: the slow path of the gets stays off.
    @available(*, deprecated, message: "it calls the deprecated form on purpose")
    @Test("The builder passed instead of its container fails the report, and shuts nothing down")
    func builderInsteadOfContainer() async throws {
        let report = await ServiceShutdown.close(Services.make)
        #expect(!report.isClean && report.closedCount == 0)
        let failure = try #require(report.failures.first)
        #expect(report.failures.count == 1 && failure.path == nil)
        #expect(sameType(failure.service, (() -> Services).self))
        #expect(sameType((failure.error as? ServiceNoProviderFoundError)?.valueType, (() -> Services).self))
        #expect(
            report.description == """
                closed 0 services, 0 failed; 1 other failure
                - \(TypeName.of((() -> Services).self)): no provider found in a value of this type; nothing was shut down: \
                pass the container (a struct or class of providers, or a locator), not the function that builds it
                """
        )
        #expect(!GetRecording.shutdownHappened)
    }

    @available(*, deprecated, message: "it calls the deprecated form on purpose")
    @Test("A builder isolated to the main actor, async or throwing lands in the same warning, named by what it gives")
    func otherBuilders() async {
        let reports = [
            await ServiceShutdown.close(Self.makeOnTheMainActor),
            await ServiceShutdown.close(Self.makeAsync),
            await ServiceShutdown.close { () throws -> Services in Services() },
        ]
        for report in reports {
            #expect(report.closedCount == 0)
            #expect(report.failures.map { TypeName.of($0.service) } == [TypeName.of((() -> Services).self)])
        }
        #expect(!GetRecording.shutdownHappened)
    }

    @MainActor private static func makeOnTheMainActor() -> Services { Services() }
    private static func makeAsync() async -> Services { Services() }

    @Test("A function handed in as any value is no container either")
    func functionAsAnyValue() async throws {
        let build: @Sendable () -> Services = Services.make
        let report = await ServiceShutdown.close(build as Any)
        #expect(report.closedCount == 0)
        #expect(report.failures.map { TypeName.of($0.service) } == [TypeName.of((@Sendable () -> Services).self)])
        #expect(report.failures.first?.error is ServiceNoProviderFoundError)
        #expect(!GetRecording.shutdownHappened)
    }

    @Test("A value that is no function is not called one", arguments: [
        (Int.self as Any.Type, false),
        ((Int, () -> Services).self, false),
        ([() -> Services].self, false),
        (Optional<(Int) -> Int>.self, false),
        (`Raw->Name`.self, false),
        (((`Raw->Name`) -> Int).self, true),
        ((() -> Services).self, true),
        ((@Sendable (Int) throws -> [Int: Services]).self, true),
        ((() async -> (Int) -> Services).self, true),
    ])
    func adviceFitsTheValue(type: Any.Type, isFunction: Bool) {
        let advice = "no provider found in a value of this type; nothing was shut down: pass the container (a struct "
            + "or class of providers, or a locator)"
        #expect(
            ServiceNoProviderFoundError(valueType: type).description
                == (isFunction ? advice + ", not the function that builds it" : advice)
        )
    }

    /// A type whose raw identifier has an arrow in it.
    private struct `Raw->Name` {}

    @Test("A plain value fails the report with advice that fits it")
    func plainValue() async {
        let report = await ServiceShutdown.close(42)
        #expect(
            report.description == """
                closed 0 services, 0 failed; 1 other failure
                - Swift.Int: no provider found in a value of this type; nothing was shut down: \
                pass the container (a struct or class of providers, or a locator)
                """
        )
        #expect(!GetRecording.shutdownHappened)
    }
}

/// Each test shuts down in a process of its own (an exit test): a shutdown turns on the slow path
/// of every get of its process for good, which the tests running beside it would then take
/// instead of the paths they check.
@Suite("Shutdown: closing a container")
struct ShutdownTests {
    @Test("Closes what was made, in reverse order of the end of the makings, across the container's layout")
    func order() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.orderInItsOwnProcess() }
    }

    static func orderInItsOwnProcess() async throws {
        struct Storage {
            let pool: ServiceProvider<Closing>
        }
        struct Services {
            let repository: ServiceProvider<Closing>  // listed first, made last
            let storage: Storage
            let cache: ServiceProvider<Closing>
        }
        let journal = CloseJournal()
        let pool = ServiceProvider<Closing>(mode: .lazy) { Closing("pool", journal) }
        let repository = ServiceProvider<Closing>(mode: .lazy) {
            _ = try pool.getService()
            return Closing("repository", journal)
        }
        let cache = ServiceProvider<Closing>(mode: .atOne) { Closing("cache", journal) }  // made first
        let services = Services(repository: repository, storage: Storage(pool: pool), cache: cache)
        _ = repository.getServiceAsOptional()
        let report = await ServiceShutdown.close(services)
        #expect(journal.closed == ["repository", "pool", "cache"])
        #expect(report.isClean && report.closedCount == 3)
        #expect(await ServiceShutdown.close(services).closedCount == 0)
        #expect(journal.closed == ["repository", "pool", "cache"])
    }

    @Test("Every kind that keeps a service closes it, wrapped or not; many, instances, main-actor and scoped services do not")
    func whatCloses() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.whatClosesInItsOwnProcess() }
    }

    static func whatClosesInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let mediator = ServiceSessionMediator(session: PartSession(user: 1))
        struct Services {
            let atOne: ServiceProvider<Closing>
            let lazy: ServiceProvider<Closing>
            let weak: ServiceProvider<Closing>
            let deadWeak: ServiceProvider<Closing>
            let safe: ServiceProvider<Closing>
            let asyncAtOne: ServiceAsyncProvider<Closing>
            let asyncLazy: ServiceAsyncProvider<Closing>
            let asyncWeak: ServiceAsyncProvider<Closing>
            let wrappedAtOne: ServiceAsyncProvider<Closing>
            let wrappedLazy: ServiceAsyncProvider<Closing>
            let wrappedInstance: ServiceAsyncProvider<Closing>
            let session: ServiceProvider<Closing>
            let many: ServiceProvider<Closing>
            let instance: ServiceProvider<Closing>
            let scoped: ServiceProvider<Closing>
            let neverMade: ServiceProvider<Closing>
            let mainActor: ServiceMainActorProvider<Closing>
        }
        let neverMadeCalls = Counter()
        let services = Services(
            atOne: ServiceProvider(mode: .atOne) { Closing("atOne", journal) },
            lazy: ServiceProvider(mode: .lazy) { Closing("lazy", journal) },
            weak: ServiceProvider(mode: .weak) { Closing("weak", journal) },
            deadWeak: ServiceProvider(mode: .weak) { Closing("dead weak", journal) },
            safe: ServiceSafeProvider(mode: .lazy, safeThread: .lock) { Closing("safe", journal) },
            asyncAtOne: ServiceAsyncProvider(mode: .atOne) { Closing("async atOne", journal) },
            asyncLazy: ServiceAsyncProvider(mode: .lazy) { Closing("async lazy", journal) },
            asyncWeak: ServiceAsyncProvider(mode: .weak) { Closing("async weak", journal) },
            wrappedAtOne: ServiceAsyncProvider(ServiceProvider(mode: .atOne) { Closing("wrapped atOne", journal) }),
            wrappedLazy: ServiceAsyncProvider(ServiceProvider(mode: .lazy) { Closing("wrapped lazy", journal) }),
            wrappedInstance: ServiceAsyncProvider(ServiceProvider(Closing("wrapped instance", journal))),
            session: PartSessionFactory(journal: journal).serviceProvider(mediator: mediator),
            many: ServiceProvider(mode: .many) { Closing("many", journal) },
            instance: ServiceProvider(Closing("instance", journal)),
            scoped: ServiceProvider(mode: .scoped) { Closing("scoped", journal) },
            neverMade: ServiceProvider(mode: .lazy) {
                neverMadeCalls.increment()
                return Closing("never made", journal)
            },
            mainActor: ServiceMainActorProvider(mode: .lazy) { Closing("main actor", journal) }
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
            _ = try await services.wrappedAtOne.getService()
            _ = try await services.wrappedLazy.getService()
            _ = try await services.wrappedInstance.getService()
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
                == [
                    "atOne", "lazy", "weak", "safe", "async atOne", "async lazy", "async weak", "wrapped atOne",
                    "wrapped lazy", "session 1", "session 2",
                ]
        )
        #expect(report.closedCount == 11 && report.isClean)
        #expect(neverMadeCalls.value == 0)
        _ = await scope.close()
        #expect(journal.closed.last == "scoped")
    }

    @Test("A service held by two providers closes once")
    func sharedInstanceClosesOnce() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.sharedInstanceClosesOnceInItsOwnProcess() }
    }

    static func sharedInstanceClosesOnceInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let shared = ServiceProvider<Closing>(mode: .atOne) { Closing("shared", journal) }
        let alias = ServiceProvider<Closing>(mode: .atOne) { try shared.getService() }
        // Through a protocol type and held weakly: the same object all the same.
        let weakAlias = ServiceProvider<any ClosableService>(mode: .weak) { try shared.getService() }
        let held = try weakAlias.getService()
        let report = await ServiceShutdown.close((shared, alias, weakAlias))
        #expect(journal.closed == ["shared"])
        #expect(report.closedCount == 1)
        withExtendedLifetime(held) {}
    }

    @Test("An instance handed to a provider is not closed, also when another provider's factory returns it")
    func handedInInstanceIsNotClosed() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.handedInInstanceIsNotClosedInItsOwnProcess() }
    }

    static func handedInInstanceIsNotClosedInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let handedIn = ServiceProvider(Closing("handed in", journal))
        let alias = ServiceProvider<Closing>(mode: .lazy) { try handedIn.getService() }
        let asyncHandedIn = ServiceAsyncProvider(Closing("async handed in", journal))
        let asyncAlias = ServiceAsyncProvider<Closing>(mode: .lazy) { try await asyncHandedIn.getService() }
        _ = try alias.getService()
        _ = try await asyncAlias.getService()
        let report = await ServiceShutdown.close(
            (handedIn: handedIn, alias: alias, asyncHandedIn: asyncHandedIn, asyncAlias: asyncAlias)
        )
        #expect(journal.closed.isEmpty)
        #expect(report.closedCount == 0)
    }

    @Test("An instance handed to a provider made while a recorder ran is not closed either")
    func handedInWhileRecordingIsNotClosed() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.handedInWhileRecordingIsNotClosedInItsOwnProcess() }
    }

    static func handedInWhileRecordingIsNotClosedInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let recorder = ServiceGraphRecorder()
        let handedIn = ServiceProvider(Closing("handed in", journal))  // recorded: it records every get
        recorder.stop()
        let alias = ServiceProvider<Closing>(mode: .lazy) { try handedIn.getService() }
        _ = try alias.getService()
        let report = await ServiceShutdown.close((handedIn: handedIn, alias: alias))
        #expect(journal.closed.isEmpty)
        #expect(report.closedCount == 0)
    }

    @Test("A shutdown waits for every making that runs when it begins, not only for the first to end")
    func waitsForEveryMaking() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.waitsForEveryMakingInItsOwnProcess() }
    }

    static func waitsForEveryMakingInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let (firstStarted, secondStarted, firstProceeds, secondProceeds) = (AsyncGate(), AsyncGate(), AsyncGate(), AsyncGate())
        let first = ServiceAsyncProvider<Closing>(mode: .lazy) {
            firstStarted.open()
            await firstProceeds.wait()
            return Closing("first", journal)
        }
        let second = ServiceAsyncProvider<Closing>(mode: .lazy) {
            secondStarted.open()
            await secondProceeds.wait()
            return Closing("second", journal)
        }
        let gets = [Task { _ = try? await first.getService() }, Task { _ = try? await second.getService() }]
        await firstStarted.wait()
        await secondStarted.wait()
        let shutdown = Task { await ServiceShutdown.close((first: first, second: second), timeout: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(100))
        firstProceeds.open()
        try await Task.sleep(for: .milliseconds(300))
        secondProceeds.open()
        let report = try await withAsyncTimeLimit(seconds: 60) { await shutdown.value }
        for get in gets { await get.value }
        #expect(report.failures.isEmpty, "\(report)")
        #expect(Set(journal.closed) == ["first", "second"])
    }

    @Test("A service a provider made, then handed to another provider, closes at the place of its making")
    func madeThenHandedInCloses() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.madeThenHandedInClosesInItsOwnProcess() }
    }

    static func madeThenHandedInClosesInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let pool = ServiceProvider<Closing>(mode: .lazy) { Closing("pool", journal) }
        let handedOn = ServiceProvider(try pool.getService())
        let alias = ServiceProvider<Closing>(mode: .lazy) { try handedOn.getService() }
        _ = try alias.getService()
        let report = await ServiceShutdown.close((handedOn: handedOn, alias: alias, pool: pool))
        #expect(journal.closed == ["pool"])
        #expect(report.closedCount == 1)
        #expect(report.description == "closed 1 service, 0 failed")
    }

    @Test("A shared object closes at the place of the making that made it, after what was made from it since")
    func sharedInstanceClosesAfterItsDependents() async {
        await #expect(processExitsWith: .success) {
            try await ShutdownTests.sharedInstanceClosesAfterItsDependentsInItsOwnProcess()
        }
    }

    static func sharedInstanceClosesAfterItsDependentsInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let pool = ServiceProvider<Closing>(mode: .lazy) { Closing("pool", journal) }
        let repository = ServiceProvider<Closing>(mode: .lazy) {
            _ = try pool.getService()
            return Closing("repository", journal)
        }
        // Got after the repository: its making ends last, but it only hands the pool on.
        let poolAlias = ServiceProvider<Closing>(mode: .lazy) { try pool.getService() }
        _ = try repository.getService()
        _ = try poolAlias.getService()
        let report = await ServiceShutdown.close((pool: pool, repository: repository, poolAlias: poolAlias))
        #expect(journal.closed == ["repository", "pool"])
        #expect(report.closedCount == 2 && report.isClean)
    }

    @Test("A service that is a value closes once for each provider that holds it")
    func valueServicesCloseForEachProvider() async {
        await #expect(processExitsWith: .success) {
            try await ShutdownTests.valueServicesCloseForEachProviderInItsOwnProcess()
        }
    }

    static func valueServicesCloseForEachProviderInItsOwnProcess() async throws {
        struct Settings: ClosableService {
            let journal: CloseJournal
            func close() async throws { journal.add("settings") }
        }
        let journal = CloseJournal()
        let settings = ServiceProvider<Settings>(mode: .atOne) { Settings(journal: journal) }
        let copy = ServiceProvider<Settings>(mode: .atOne) { try settings.getService() }
        let report = await ServiceShutdown.close((settings, copy))
        #expect(journal.closed == ["settings", "settings"])
        #expect(report.closedCount == 2)
    }

    @Test("Errors and time-outs are reported with the provider's path; the next service still closes")
    func failures() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.failuresInItsOwnProcess() }
    }

    static func failuresInItsOwnProcess() async throws {
        struct Storage {
            let failing: ServiceProvider<Closing>
            let hanging: ServiceProvider<Closing>
        }
        struct Services {
            let first: ServiceProvider<Closing>
            let storage: Storage
            let last: ServiceProvider<Closing>
        }
        let journal = CloseJournal()
        let services = Services(
            first: ServiceProvider(mode: .atOne) { Closing("first", journal) },
            storage: Storage(
                failing: ServiceProvider(mode: .atOne) { Closing("failing", journal, .fails) },
                hanging: ServiceProvider(mode: .atOne) { Closing("hanging", journal, .hangs) }
            ),
            last: ServiceProvider(mode: .atOne) { Closing("last", journal) }
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
                - storage.hanging (\(typeName(Closing.self))): did not finish within 0.2 seconds
                - storage.failing (\(typeName(Closing.self))): its close() threw: failing could not close
                """
        )
    }

    @Test("A making running when the shutdown begins is waited for, and its service closes first; one past the time limit is reported")
    func runningMaking() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.runningMakingInItsOwnProcess() }
    }

    static func runningMakingInItsOwnProcess() async throws {
        for mode in [ServiceFactoryMode.lazy, .weak] {
            try await withAsyncTimeLimit(seconds: 60) { try await runningSyncMaking(mode, waitedFor: true) }
            try await withAsyncTimeLimit(seconds: 60) { try await runningSyncMaking(mode, waitedFor: false) }
        }
        for mode in [ServiceFactoryMode.atOne, .lazy, .weak] {
            try await withAsyncTimeLimit(seconds: 60) { try await runningAsyncMaking(mode, waitedFor: true) }
            try await withAsyncTimeLimit(seconds: 60) { try await runningAsyncMaking(mode, waitedFor: false) }
        }
    }

    @Test("A session making running when the shutdown begins, a get's or an update's, is waited for; one past the time limit is reported, and the provider's other services still close")
    func runningSessionMaking() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.runningSessionMakingInItsOwnProcess() }
    }

    static func runningSessionMakingInItsOwnProcess() async throws {
        for mode in [ServiceSessionFactoryMode.lazy, .weak, .atOne] {
            try await withAsyncTimeLimit(seconds: 60) { try await runningSessionMaking(mode, waitedFor: true) }
            try await withAsyncTimeLimit(seconds: 60) { try await runningSessionMaking(mode, waitedFor: false) }
        }
        try await withAsyncTimeLimit(seconds: 60) { try await runningSessionMaking(.lazy, waitedFor: true, overtaken: true) }
    }

    @Test("A get that waited across a shutdown for another's making, and found no service, makes none")
    func waitAcrossShutdown() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.waitAcrossShutdownInItsOwnProcess() }
    }

    static func waitAcrossShutdownInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let made = Counter()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let pool = ServiceProvider<Closing>(mode: .lazy) { Closing("pool", journal) }
        // The first making blocks until the test lets it go, then stops as a factory does whose
        // task was cancelled: its error is not handed on, so the get that waited for it finds no
        // service and would make one.
        let repository = ServiceProvider<Closing>(mode: .lazy) {
            if made.increment() == 1 {
                started.signal()
                proceed.wait()
                throw CancellationError()
            }
            return Closing("repository \(made.value)", journal)
        }
        _ = pool.getServiceAsOptional()
        let first = Task(executorPreference: ThreadPerJobExecutor.shared) {
            withUnsafeCurrentTask { $0?.cancel() }
            return repository.getServiceAsResult().map(\.name)
        }
        try await onThread { try waitWithTimeLimit(started, seconds: 10) }
        let waiting = Task { try await onThread { repository.getServiceAsResult().map(\.name) } }
        try await withAsyncTimeLimit { await eventually { Making.waitingThreadCount(for: Closing.self) == 1 } }
        let shutdown = Task {
            await ServiceShutdown.close(Repositories(pool: pool, repository: repository), timeout: .seconds(10))
        }
        try await withAsyncTimeLimit { await eventually { pool.getServiceAsOptional() == nil } }
        proceed.signal()
        let report = try await withAsyncTimeLimit { await shutdown.value }
        #expect(await first.value.failure?.error is CancellationError)
        let refused = try await waiting.value
        #expect(refused.failure?.description == shutDownMessage(Closing.self))
        #expect(made.value == 1)
        #expect(report.description == "closed 1 service, 0 failed")
    }

    @Test("An async get let in just before a shutdown starts no making after it")
    func asyncGetLetInBeforeShutdown() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.asyncGetLetInBeforeShutdownInItsOwnProcess() }
    }

    static func asyncGetLetInBeforeShutdownInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let made = Counter()
        let lazy = ServiceAsyncProvider<Closing>(mode: .lazy) {
            made.increment()
            return Closing("lazy", journal)
        }
        let weak = ServiceAsyncProvider<Closing>(mode: .weak) {
            made.increment()
            return Closing("weak", journal)
        }
        _ = await ServiceShutdown.close((lazy: lazy, weak: weak))
        // What a get that passed its provider's check before the shutdown does next: its
        // source's get.
        guard case .lazy(let lazySource) = lazy.source, case .weak(let weakSource) = weak.source else {
            Issue.record("not a lazy and a weak source")
            return
        }
        let expected = shutDownMessage(Closing.self)
        #expect(await refusal { () async throws(ServiceObtainError) in try await lazySource.get() } == expected)
        #expect(await refusal { () async throws(ServiceObtainError) in try await weakSource.get() } == expected)
        #expect(made.value == 0)
    }

    /// The description of the error `get` fails with; `nil` when it gets a service.
    private static func refusal(_ get: () async throws(ServiceObtainError) -> Closing) async -> String? {
        do {
            _ = try await get()
            return nil
        } catch {
            return error.description
        }
    }

    @Test("A shutdown from a cancelled task waits for a making all the same")
    func runningMakingCancelledShutdown() async {
        await #expect(processExitsWith: .success) {
            try await withAsyncTimeLimit(seconds: 60) {
                try await ShutdownTests.runningSyncMaking(.lazy, waitedFor: true, fromACancelledTask: true)
            }
        }
    }

    @Test("A making past the time limit is listed before the failures of the closes that follow it")
    func makingFailureBeforeCloseFailures() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.makingFailureBeforeCloseFailuresInItsOwnProcess() }
    }

    static func makingFailureBeforeCloseFailuresInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let pool = ServiceProvider<Closing>(mode: .lazy) { Closing("pool", journal, .fails) }
        let repository = ServiceProvider<Closing>(mode: .lazy) {
            started.signal()
            proceed.wait()
            return Closing("repository", journal)
        }
        _ = try pool.getService()
        let got = Task { try await onThread { repository.getServiceAsResult() } }
        try await onThread { try waitWithTimeLimit(started, seconds: 10) }
        let report = try await withAsyncTimeLimit(seconds: 60) {
            await ServiceShutdown.close(Repositories(pool: pool, repository: repository), timeout: .milliseconds(200))
        }
        proceed.signal()
        #expect(try await got.value.get().name == "repository")
        #expect(journal.closed == ["pool"])
        #expect(report.failures.map(\.path) == ["repository", "pool"])
        #expect(
            report.description == """
                closed 1 service, 1 failed; 1 other failure
                - repository (\(typeName(Closing.self))): the making of \(typeName(Closing.self)) did not finish within 0.2 seconds
                - pool (\(typeName(Closing.self))): its close() threw: pool could not close
                """
        )
    }

    @Test("A shutdown from a cancelled task waits for a making that runs past its time limit by pausing, not by spinning")
    func cancelledShutdownPausesWhileItWaits() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.cancelledShutdownPausesInItsOwnProcess() }
    }

    static func cancelledShutdownPausesInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let pool = ServiceProvider<Closing>(mode: .lazy) { Closing("pool", journal) }
        let repository = ServiceProvider<Closing>(mode: .lazy) {
            started.signal()
            proceed.wait()
            return Closing("repository", journal)
        }
        let got = Task { try await onThread { repository.getServiceAsResult() } }
        try await onThread { try waitWithTimeLimit(started, seconds: 10) }
        let before = processorTime()
        let shutdown = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await ServiceShutdown.close(Repositories(pool: pool, repository: repository), timeout: .seconds(2))
        }
        let report = try await withAsyncTimeLimit(seconds: 60) { await shutdown.value }
        let spent = processorTime() - before
        proceed.signal()
        _ = try await got.value
        #expect(report.failures.map(\.path) == ["repository"])
        // Two seconds of waiting cost the process a small part of a second of processor time.
        #expect(spent < .milliseconds(500), "the wait took \(spent) of processor time")
    }

    /// The processor time the process has used so far, on all its threads.
    private static func processorTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    /// A container whose `repository` is being made, after its factory got `pool`, when the
    /// shutdown begins.
    private struct Repositories<Provider: Sendable>: Sendable {
        let pool: ServiceProvider<Closing>
        let repository: Provider
    }

    /// Shuts down, from a cancelled task when `fromACancelledTask`, while a synchronous `mode`
    /// making runs on a thread, and lets the making end during the shutdown's wait (`waitedFor`)
    /// or only after the shutdown gave up on it.
    private static func runningSyncMaking(
        _ mode: ServiceFactoryMode,
        waitedFor: Bool,
        fromACancelledTask: Bool = false
    ) async throws {
        let (journal, started, proceed, pool) = BlockedMaking().parts
        let repository = ServiceProvider<Closing>(mode: mode) {
            _ = try pool.getService()
            started.signal()
            proceed.wait()
            return Closing("repository", journal)
        }
        let got = Task { try await onThread { repository.getServiceAsResult() } }
        try await onThread { try waitWithTimeLimit(started, seconds: 10) }
        try await expectShutdown(
            of: Repositories(pool: pool, repository: repository), mode: mode, waitedFor: waitedFor,
            fromACancelledTask: fromACancelledTask, journal: journal, proceed: { proceed.signal() },
            got: { try await got.value.get() }
        )
    }

    /// What a making that blocks on a thread until `proceed` works with: it gets `pool` (whose
    /// service closes into `journal` too), then signals `started`.
    private struct BlockedMaking: Sendable {
        let journal = CloseJournal()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let pool: ServiceProvider<Closing>

        init() {
            pool = ServiceProvider<Closing>(mode: .lazy) { [journal] in Closing("pool", journal) }
        }

        var parts: (CloseJournal, DispatchSemaphore, DispatchSemaphore, ServiceProvider<Closing>) {
            (journal, started, proceed, pool)
        }
    }

    /// Gets the pool in each making, keeps each session's service, and blocks in the making of
    /// session 2's until `proceed`.
    private struct BlockingSessionFactory: ServiceSessionFactory {
        let mode: ServiceSessionFactoryMode
        let blocked: BlockedMaking

        func makeService(session: PartSession) throws -> Closing {
            _ = try blocked.pool.getService()
            if session.user == 2 {
                blocked.started.signal()
                blocked.proceed.wait()
            }
            return Closing("session \(session.user)", blocked.journal)
        }

        func deactivateService(_ service: Closing, session: PartSession) -> Bool { true }
    }

    /// Shuts down a session provider, whose service of session 1 is kept, while the making of
    /// session 2's runs on a thread (a get's; for `atOne`, the update's), and lets the making
    /// end during the shutdown's wait (`waitedFor`) or after it. With `overtaken`, an update to
    /// session 3 from inside another factory, which may not wait, first overtakes the making:
    /// its service is then kept for session 2, and closes all the same.
    private static func runningSessionMaking(
        _ mode: ServiceSessionFactoryMode,
        waitedFor: Bool,
        overtaken: Bool = false
    ) async throws {
        let blocked = BlockedMaking()
        let (journal, started, proceed, pool) = blocked.parts
        let mediator = ServiceSessionMediator(session: PartSession(user: 1))
        let factory = BlockingSessionFactory(mode: mode, blocked: blocked)
        let services = Repositories(pool: pool, repository: factory.serviceProvider(mediator: mediator))
        let first = try services.repository.getService()  // held, as a `weak` service is kept only while it lives
        // The service made for session 2, held by the task (`nil` for the update's making).
        let second: Task<Closing?, any Error>
        if mode == .atOne {
            second = Task {
                try await onThread {
                    mediator.updateSession(PartSession(user: 2))
                    return nil
                }
            }
        } else {
            mediator.updateSession(PartSession(user: 2))
            second = Task { try await onThread { try services.repository.getService() } }
        }
        try await onThread { try waitWithTimeLimit(started, seconds: 10) }
        if overtaken {
            let updater = ServiceProvider<Closing>(mode: .many) {
                mediator.updateSession(PartSession(user: 3))
                return Closing("updater", journal)
            }
            _ = try await onThread { try updater.getService() }
            #expect(mediator.session.user == 3)
        }
        let shutdown = Task {
            await ServiceShutdown.close(services, timeout: .milliseconds(waitedFor ? 10_000 : 500))
        }
        if waitedFor {
            // Once the shutdown has looked at the provider, it waits for the making.
            let cell = services.repository.sessionCellForTests
            await eventually { cell.state.withLock { $0.lookedAtByShutdown } }
            proceed.signal()
        }
        let report = await shutdown.value
        if !waitedFor {
            proceed.signal()
        }
        let made = try await second.value
        #expect(made?.name == (mode == .atOne ? nil : "session 2"), "\(mode)")
        #expect(first.name == "session 1")
        if waitedFor {
            #expect(journal.closed == ["session 2", "session 1", "pool"], "\(mode): the last made closes first")
            #expect(report.description == "closed 3 services, 0 failed", "\(mode)")
        } else {
            #expect(journal.closed == ["session 1", "pool"], "\(mode): what the making made afterwards is not closed")
            #expect(
                report.description == """
                    closed 2 services, 0 failed; 1 other failure
                    - repository (\(typeName(Closing.self))): the making of \(typeName(Closing.self)) did not finish within 0.5 seconds
                    """,
                "\(mode)"
            )
        }
    }

    /// `runningSyncMaking` for an async provider, whose making runs in a task of its own.
    private static func runningAsyncMaking(_ mode: ServiceFactoryMode, waitedFor: Bool) async throws {
        let journal = CloseJournal()
        let started = AsyncGate()
        let proceed = AsyncGate()
        let pool = ServiceProvider<Closing>(mode: .lazy) { Closing("pool", journal) }
        let repository = ServiceAsyncProvider<Closing>(mode: mode) {
            _ = try pool.getService()
            started.open()
            await proceed.wait()
            return Closing("repository", journal)
        }
        let got = Task { () async throws(ServiceObtainError) -> Closing in try await repository.getService() }
        await started.wait()
        try await expectShutdown(
            of: Repositories(pool: pool, repository: repository), mode: mode, waitedFor: waitedFor,
            journal: journal, proceed: { proceed.open() }, got: { try await got.value }
        )
    }

    /// Shuts `services` down while its repository's making runs, ends the making with `proceed`
    /// during the shutdown (`waitedFor`) or after it, and checks what closed and what the get
    /// that started the making got.
    private static func expectShutdown<Provider>(
        of services: Repositories<Provider>,
        mode: ServiceFactoryMode,
        waitedFor: Bool,
        fromACancelledTask: Bool = false,
        journal: CloseJournal,
        proceed: @Sendable () -> Void,
        got: @Sendable () async throws -> Closing
    ) async throws {
        let shutdown = Task {
            if fromACancelledTask {
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return await ServiceShutdown.close(services, timeout: .milliseconds(waitedFor ? 10_000 : 200))
        }
        if waitedFor {
            // Once the pool is refused, the shutdown has begun, and waits for the making.
            await eventually { services.pool.getServiceAsOptional() == nil }
            proceed()
        }
        let report = await shutdown.value
        if !waitedFor {
            proceed()
        }
        let service = try await got()  // handed to the get that asked for it, in either case
        #expect(service.name == "repository", "\(mode)")
        if waitedFor {
            #expect(journal.closed == ["repository", "pool"], "\(mode): the last made closes first")
            #expect(report.description == "closed 2 services, 0 failed", "\(mode)")
        } else {
            #expect(journal.closed == ["pool"], "\(mode): what the making made afterwards is not closed")
            #expect(
                report.description == """
                    closed 1 service, 0 failed; 1 other failure
                    - repository (\(typeName(Closing.self))): the making of \(typeName(Closing.self)) did not finish within 0.2 seconds
                    """,
                "\(mode)"
            )
        }
    }

    @Test("After a shutdown every provider refuses gets, made or not, and makes nothing")
    func refusesGets() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.refusesGetsInItsOwnProcess() }
    }

    static func refusesGetsInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let calls = Counter()
        struct Services {
            let lazy: ServiceProvider<Closing>
            let unmade: ServiceProvider<Closing>
            let atOne: ServiceProvider<Closing>
            let instance: ServiceProvider<Closing>
            let many: ServiceProvider<Closing>
            let weak: ServiceProvider<Closing>
            let safe: ServiceProvider<Closing>
            let params: ServiceParamsProvider<Closing, String>
            let converted: ServiceProvider<Closing>
            let async: ServiceAsyncProvider<Closing>
            let asyncParams: ServiceAsyncParamsProvider<Closing, String>
            let mainActor: ServiceMainActorProvider<Closing>
        }
        let params = ServiceParamsProvider<Closing, String> { name in
            calls.increment()
            return Closing(name, journal)
        }
        let services = Services(
            lazy: ServiceProvider(mode: .lazy) { Closing("lazy", journal) },
            unmade: ServiceProvider(mode: .lazy) {
                calls.increment()
                return Closing("unmade", journal)
            },
            atOne: ServiceProvider(mode: .atOne) { Closing("atOne", journal) },
            instance: ServiceProvider(Closing("instance", journal)),
            many: ServiceProvider(mode: .many) {
                calls.increment()
                return Closing("many", journal)
            },
            weak: ServiceProvider(mode: .weak) { Closing("weak", journal) },
            safe: ServiceSafeProvider(mode: .lazy, safeThread: .lock) { Closing("safe", journal) },
            params: params,
            converted: params.convert(params: "converted"),
            async: ServiceAsyncProvider(mode: .lazy) { Closing("async", journal) },
            asyncParams: ServiceAsyncParamsProvider { name in
                calls.increment()
                return Closing(name, journal)
            },
            mainActor: ServiceMainActorProvider(mode: .lazy) { Closing("main actor", journal) }
        )
        let weak = try services.weak.getService()
        _ = try services.lazy.getService()
        _ = try services.safe.getService()
        _ = try await services.async.getService()
        _ = await ServiceShutdown.close(services)
        let callsAtShutdown = calls.value
        let message = shutDownMessage
        let expected = message(Closing.self)
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
        #expect(calls.value == callsAtShutdown)
        withExtendedLifetime(weak) {}
        let error = try #require(services.lazy.getServiceAsResult().failure)
        guard case .shutDown(let service)? = error.error as? ServiceFactoryError else {
            Issue.record("not shutDown: \(error)")
            return
        }
        #expect(typeName(service) == typeName(Closing.self))
    }

    @Test("A validation including async providers of a shut-down container fails each at its path, and draws it")
    func validationAfterShutdown() async {
        await #expect(processExitsWith: .success) {
            struct Awaited {
                let pool: ServiceAsyncProvider<Service>
                let model: ServiceMainActorProvider<Service>
            }
            let services = Awaited(
                pool: ServiceAsyncProvider(mode: .lazy) { Service() },
                model: ServiceMainActorProvider(mode: .lazy) { Service() }
            )
            _ = await ServiceShutdown.close(services)
            let report = await ServiceValidator.validateIncludingAsync(services)
            #expect(report.failures.map(\.path) == ["pool", "model"])
            #expect(report.failures.allSatisfy { failure in
                if case .shutDown? = failure.error.error as? ServiceFactoryError { true } else { false }
            })
            #expect(report.graph.nodes.map(\.name) == ["pool", "model"])
        }
    }

    @Test("After a shutdown a session change makes nothing, also behind a safe, async or recorded provider")
    func sessionChangeAfterShutdown() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.sessionChangeAfterShutdownInItsOwnProcess() }
    }

    static func sessionChangeAfterShutdownInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let made = Counter()
        let mediator = ServiceSessionMediator(session: PartSession(user: 1))
        let factory = AtOnePartSessionFactory(journal: journal, made: made)
        var recorded: ServiceProvider<Closing>?
        _ = ServiceValidator.validate(building: {
            let provider = factory.serviceProvider(mediator: mediator)
            recorded = provider
            return provider
        })
        let services = (
            plain: factory.serviceProvider(mediator: mediator),
            safe: factory.serviceSafeProvider(mediator: mediator, safeThread: .lock),
            async: ServiceAsyncProvider(factory.serviceProvider(mediator: mediator)),
            recorded: try #require(recorded)
        )
        #expect(made.value == 4)
        let report = await ServiceShutdown.close(services)
        #expect(report.closedCount == 4)
        mediator.updateSession(PartSession(user: 2))
        #expect(made.value == 4)
        #expect(journal.closed == ["session 1", "session 1", "session 1", "session 1"])
    }

    @Test("After a shutdown a session change runs no hook on the closed services, plain or safe")
    func sessionHooksAfterShutdown() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.sessionHooksAfterShutdownInItsOwnProcess() }
    }

    static func sessionHooksAfterShutdownInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let mediator = ServiceSessionMediator(session: PartSession(user: 1))
        let factory = HookLoggingFactory(journal: journal)
        let services = (plain: factory.serviceProvider(mediator: mediator), safe: factory.serviceSafeProvider(mediator: mediator))
        _ = try services.plain.getService()
        _ = try services.safe.getService()
        mediator.updateSession(PartSession(user: 2))
        _ = try services.plain.getService()
        _ = try services.safe.getService()
        #expect(journal.closed == ["deactivate 1", "deactivate 1"])
        let report = await ServiceShutdown.close(services)
        #expect(report.closedCount == 4)  // each provider's current and kept services
        let closed = journal.closed
        mediator.updateSession(PartSession(user: 1))
        mediator.updateSession(PartSession(user: 3), remakePolicy: .clearAll)
        #expect(journal.closed == closed)
    }

    @Test("A shutdown while a session switch runs its hooks closes the services the switch holds, and no hook runs after")
    func shutdownDuringSessionSwitch() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.shutdownDuringSessionSwitchInItsOwnProcess() }
    }

    static func shutdownDuringSessionSwitchInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let mediator = ServiceSessionMediator(session: PartSession(user: 1))
        let factory = HookLoggingFactory(journal: journal)
        let provider = factory.serviceProvider(mediator: mediator)
        _ = try provider.getService()
        mediator.updateSession(PartSession(user: 2))  // the service of session 1 is kept
        _ = try provider.getService()
        factory.blocks.store(true, ordering: .relaxed)
        let switched = DispatchSemaphore(value: 0)
        Thread {
            // Takes out session 2's service to deactivate it, and session 1's to activate it.
            mediator.updateSession(PartSession(user: 1))
            switched.signal()
        }.start()
        try waitWithTimeLimit(factory.entered)
        let report = await ServiceShutdown.close(provider)
        factory.proceed.signal()
        try waitWithTimeLimit(switched)
        // Both closed, and the switch activates no service once its provider is shut down.
        #expect(report.closedCount == 2)
        #expect(journal.closed.prefix(2) == ["deactivate 1", "deactivate 2"])
        #expect(journal.closed.dropFirst(2).sorted() == ["session 1", "session 2"])
    }

    @Test("A wrapped provider closes its service once, and refuses through its wrapper, whichever is shut down first")
    func wrappedOnce() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.wrappedOnceInItsOwnProcess() }
    }

    static func wrappedOnceInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let message = shutDownMessage(Closing.self)
        for innerFirst in [true, false] {
            let name = innerFirst ? "inner first" : "wrapper first"
            let inner = ServiceProvider<Closing>(mode: .atOne) { Closing(name, journal) }
            let wrapper = ServiceAsyncProvider(inner)
            _ = try await wrapper.getService()
            let first = await ServiceShutdown.close(innerFirst ? [inner] : [])
            #expect(await wrapper.getServiceAsResult().failure?.description == (innerFirst ? message : nil))
            let second = await ServiceShutdown.close([wrapper])
            #expect(first.closedCount + second.closedCount == 1)
            #expect(journal.closed.filter { $0 == name }.count == 1)
            #expect(inner.getServiceAsResult().failure?.description == message)
            #expect(await wrapper.getServiceAsResult().failure?.description == message)
        }
    }

    @Test("A shut-down provider of any kind, once released, leaves nothing in the registry")
    func releasedKeys() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.releasedKeysInItsOwnProcess() }
    }

    /// One provider of each kind of key a shutdown registers (`ShutdownRegistry`'s invariant):
    /// its keys while it is alive, and weak references that say when the keys died.
    private static func shutDownKeys() async throws -> (ids: [ObjectIdentifier], objects: [WeakKey]) {
        struct Failing: Error {}
        let journal = CloseJournal()
        let mediator = ServiceSessionMediator(session: PartSession(user: 1))
        let params = ServiceParamsProvider<Closing, String> { Closing($0, journal) }
        var recorded: ServiceProvider<Closing>?
        _ = ServiceValidator.validate(building: {
            let provider = ServiceProvider<Closing>(mode: .lazy) { Closing("recorded", journal) }
            recorded = provider
            return provider
        })
        let providers: [any ShutdownProvider] = [
            ServiceProvider<Closing>(mode: .lazy) { Closing("lazy", journal) },
            ServiceProvider<Closing>(mode: .weak) { Closing("weak", journal) },
            ServiceProvider<Closing>(mode: .many) { Closing("many", journal) },
            ServiceProvider<Closing>(mode: .scoped) { Closing("scoped", journal) },
            ServiceProvider<Closing>(mode: .atOne) { Closing("atOne", journal) },
            ServiceProvider<Closing>(mode: .atOne) { throw Failing() },
            ServiceProvider<Closing>(Closing("instance", journal)),
            ServiceSafeProvider<Closing>(mode: .lazy, safeThread: .lock) { Closing("safe", journal) },
            PartSessionFactory(journal: journal).serviceProvider(mediator: mediator),
            try #require(recorded),
            params,
            params.convert(params: "converted"),
            ServiceAsyncProvider<Closing>(mode: .lazy) { Closing("async", journal) },
            ServiceAsyncProvider<Closing>(mode: .weak) { Closing("async weak", journal) },
            ServiceAsyncProvider<Closing>(ServiceProvider(mode: .weak) { Closing("wrapped", journal) }),
            ServiceAsyncParamsProvider<Closing, String> { Closing($0, journal) },
            ServiceMainActorProvider<Closing>(mode: .lazy) { Closing("main actor", journal) },
        ]
        _ = await ServiceShutdown.close(providers)
        // With the keys of what the safe, recorded and wrapping async providers wrap, and of the
        // sources of the async lazy and weak ones.
        func keys(of provider: any ShutdownProvider) -> [AnyObject] {
            [provider.shutdownKey] + (provider.wrapped?.keys ?? []) + (provider.wrapped?.providers ?? []).flatMap(keys(of:))
        }
        let keys = providers.flatMap(keys(of:))
        #expect(keys.filter { ShutdownRegistry.isShutDown(ObjectIdentifier($0)) }.count == 22)
        return (keys.map(ObjectIdentifier.init), keys.map(WeakKey.init))
    }

    private struct WeakKey {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    static func releasedKeysInItsOwnProcess() async throws {
        let (ids, objects) = try await shutDownKeys()
        // Every key is another object, and none is alive: no task or cache keeps one.
        #expect(Set(ids).count == 22)
        #expect(objects.filter { $0.object != nil }.count == 0)
        // A key still registered would make a new object at its address refuse its gets.
        #expect(ids.filter(ShutdownRegistry.isShutDown).count == 0)
    }

    @Test("A provider made by convert(params:) is refused with its shut-down params provider, also once that one is released")
    func convertedFollowsItsParamsProvider() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.convertedInItsOwnProcess() }
    }

    static func convertedInItsOwnProcess() async throws {
        let journal = CloseJournal()
        var params: ServiceParamsProvider<Closing, String>? = ServiceParamsProvider { Closing($0, journal) }
        var asyncParams: ServiceAsyncParamsProvider<Closing, String>? = ServiceAsyncParamsProvider { Closing($0, journal) }
        let converted = try #require(params).convert(params: "converted")
        let asyncConverted = try #require(asyncParams).convert(params: "async converted")
        #expect(try converted.getService().name == "converted")
        #expect(try await asyncConverted.getService().name == "async converted")
        _ = await ServiceShutdown.close((params: params, asyncParams: asyncParams))
        let message = shutDownMessage(Closing.self)
        #expect(converted.getServiceAsResult().failure?.description == message)
        #expect(await asyncConverted.getServiceAsResult().failure?.description == message)
        // The converted providers make their services with the released ones' factories: they
        // keep them, and stay refused.
        params = nil
        asyncParams = nil
        #expect(converted.getServiceAsResult().failure?.description == message)
        #expect(await asyncConverted.getServiceAsResult().failure?.description == message)
    }

    @Test("Providers outside the container and other containers keep working")
    func othersKeepWorking() async {
        await #expect(processExitsWith: .success) { try await ShutdownTests.othersKeepWorkingInItsOwnProcess() }
    }

    static func othersKeepWorkingInItsOwnProcess() async throws {
        let journal = CloseJournal()
        let inside = ServiceProvider<Closing>(mode: .lazy) { Closing("inside", journal) }
        let outside = ServiceProvider<Closing>(mode: .lazy) { Closing("outside", journal) }
        _ = try inside.getService()
        _ = try outside.getService()
        _ = await ServiceShutdown.close([inside])
        #expect(try outside.getService().name == "outside")
        #expect(journal.closed == ["inside"])
    }

    @Test("A second shutdown returns once the first has closed what it shut down")
    func secondShutdownWaitsForTheFirst() async {
        await #expect(processExitsWith: .success) {
            let journal = CloseJournal()
            let gated = GatedClosing(journal)
            let services = (
                gated: ServiceProvider<GatedClosing>(mode: .atOne) { gated },
                other: ServiceProvider<Closing>(mode: .atOne) { Closing("other", journal) }
            )
            let (first, second) = try await withAsyncTimeLimit(seconds: 30) {
                let first = Task { await ServiceShutdown.close(services.gated) }
                try await gated.untilClosing()
                let second = Task {
                    let report = await ServiceShutdown.close(services)
                    journal.add("second returned")
                    return report
                }
                // The second closes what the first did not, then waits: a second that did not
                // wait would return within these 50 ms, before the gate opens.
                await eventually { journal.closed.contains("other") }
                try await Task.sleep(for: .milliseconds(50))
                gated.open()
                return (await first.value, await second.value)
            }
            #expect(journal.closed == ["closing", "other", "closed", "second returned"])
            #expect(first.closedCount == 1)
            #expect(second.closedCount == 1 && second.isClean)
        }
    }

    @Test("A shutdown inside a service's close() does not wait, for its own container or for another one")
    func shutdownInsideACloseDoesNotWait() async {
        await #expect(processExitsWith: .success) {
            let journal = CloseJournal()
            let other = ServiceProvider<Closing>(mode: .atOne) { Closing("other", journal) }
            _ = await ServiceShutdown.close(other)  // shut down by a shutdown that has ended
            final class Container: Sendable {
                let holder = Locked<ServiceProvider<ClosingRuns>?>(nil)
            }
            let container = Container()
            let inner = Locked<[Int]>([])
            let provider = ServiceProvider<ClosingRuns>(mode: .atOne) {
                ClosingRuns("pool", journal) {
                    let own = await ServiceShutdown.close(container.holder.withLock { $0 })
                    let again = await ServiceShutdown.close(other)
                    inner.withLock { $0 = [own.closedCount, again.closedCount] }
                }
            }
            container.holder.withLock { $0 = provider }
            let start = ContinuousClock.now
            let report = try await withAsyncTimeLimit(seconds: 30) {
                await ServiceShutdown.close(provider, timeout: .seconds(5))
            }
            #expect(ContinuousClock.now - start < .seconds(4))
            #expect(report.closedCount == 1 && report.isClean)
            #expect(inner.withLock { $0 } == [0, 0])
            #expect(journal.closed == ["other", "pool"])
        }
    }

    @Test("A thousand quick closes, raced by the watchdog that times them, all close once")
    func quickCloses() async {
        await #expect(processExitsWith: .success) {
            for _ in 0..<20 {
                let journal = CloseJournal()
                let providers = (0..<1_000).map { index in
                    ServiceProvider<Closing>(mode: .lazy) { Closing("\(index)", journal) }
                }
                for provider in providers {
                    _ = provider.getServiceAsOptional()
                }
                let report = await ServiceShutdown.close(providers, timeout: .seconds(10))
                #expect(report.description == "closed 1000 services, 0 failed")
                #expect(journal.closed == (0..<1_000).reversed().map { "\($0)" })
            }
        }
    }

    @Test(
        "A time limit of .seconds(Int64.max), \"no limit\": scopes and shutdowns close as usual",
        .disabled(if: underThreadSanitizer, "a crash check with nothing concurrent: its process takes a core from the tests beside it")
    )
    func longestTimeLimit() async {
        // In a process of its own: `.seconds(Int64.max)` overflowed the sleep of the watchdog of
        // a close that takes a while, stopping the process (its pauses are short now).
        await #expect(processExitsWith: .success) {
            try await withAsyncTimeLimit(seconds: 60) {
                for limit in [Duration.seconds(Int64.max), .seconds(9_300_000_000)] {
                    let journal = CloseJournal()
                    let slowly: @Sendable () async -> Void = { try? await Task.sleep(for: .milliseconds(20)) }
                    let scoped = ServiceProvider<ClosingRuns>(mode: .scoped) { ClosingRuns("scoped", journal, body: slowly) }
                    let scope = ServiceScope()
                    _ = scope.run { scoped.getServiceAsOptional() }
                    #expect(await scope.close(timeout: limit).description == "closed 1 service, 0 failed")
                    let inScope = await withServiceScope(closeTimeout: limit) { scoped.getServiceAsOptional() != nil }
                    #expect(inScope)
                    let pool = ServiceProvider<ClosingRuns>(mode: .atOne) { ClosingRuns("pool", journal, body: slowly) }
                    #expect(await ServiceShutdown.close((pool: pool, other: 0), timeout: limit).description == "closed 1 service, 0 failed")
                    #expect(journal.closed == ["scoped", "scoped", "pool"])
                }
            }
        }
    }

    @Test(
        "A close keeps no memory for its time limit once its closes ended",
        .disabled(if: underThreadSanitizer, "ThreadSanitizer's allocator is not the C allocator")
    )
    func closeKeepsNothingForItsLimit() async {
        // In a process of its own, to read the heap. The watchdog slept for the whole limit, and
        // a sleep cancelled when the closes ended kept its memory until then: the heap grew by
        // about 700 bytes a request, for a minute here.
        await #expect(processExitsWith: .success) {
            final class SlowToClose: ClosableService {
                func close() async { try? await Task.sleep(for: .milliseconds(1)) }
            }
            let provider = ServiceProvider<SlowToClose>(mode: .scoped) { SlowToClose() }
            func requests(_ count: Int) async {
                for _ in 0..<count {
                    await withServiceScope(closeTimeout: .seconds(60)) { _ = provider.getServiceAsOptional() }
                }
                try? await Task.sleep(for: .milliseconds(300))  // the last watchdog's step ends
            }
            // The smallest growth of three rounds: the caches of the runtime's timers and tasks
            // grow for the first 2,000 sleeps or so, by up to 70 KB a round, less and less (as
            // much with sleeps alone); a leak of 700 bytes a request grows 280 KB in each.
            await requests(1_000)
            var smallest = Int.max
            for _ in 0..<3 {
                let before = heapInUse()
                await requests(400)
                smallest = min(smallest, heapInUse() - before)
            }
            #expect(smallest < 400 * 250, "the heap grew by \(smallest) bytes over 400 requests")
        }
    }

    @Test("A negative time limit counts as zero: each close is cancelled at once and reported")
    func negativeTimeLimit() async {
        // In a process of its own, as every shutdown here: a shutdown puts every later get of its
        // process on the slow path.
        await #expect(processExitsWith: .success) { try await ShutdownTests.negativeTimeLimitInItsOwnProcess() }
    }

    static func negativeTimeLimitInItsOwnProcess() async throws {
        try await withAsyncTimeLimit(seconds: 60) {
            let journal = CloseJournal()
            let services = (hanging: ServiceProvider<Closing>(mode: .atOne) { Closing("hanging", journal, .hangs) }, other: 0)
            let report = await ServiceShutdown.close(services, timeout: .seconds(-5))
            #expect(report.failures.map { "\($0.path ?? "") \($0.error)" } == ["hanging did not finish within 0.0 seconds"])
            #expect((report.failures.first?.error as? ServiceCloseTimeoutError)?.timeout == .zero)
            let scoped = ServiceProvider<Closing>(mode: .scoped) { Closing("scoped", journal, .hangs) }
            let scope = ServiceScope()
            _ = scope.run { scoped.getServiceAsOptional() }
            let scopeReport = await scope.close(timeout: .milliseconds(-1))
            #expect(scopeReport.description == "closed 1 service, 1 failed\n- \(TypeName.of(Closing.self)): did not finish within 0.0 seconds")
        }
    }

    @Test("A close that hangs costs the shutdown its time limit, not more")
    func timeLimit() async {
        // In a process of its own: the other tests, which block threads of the concurrency pool
        // while they run, would delay the timer's task by seconds.
        await #expect(processExitsWith: .success) {
            let journal = CloseJournal()
            let services = (
                hanging: ServiceProvider<Closing>(mode: .atOne) { Closing("hanging", journal, .hangs) },
                fine: ServiceProvider<Closing>(mode: .atOne) { Closing("fine", journal) }
            )
            let start = ContinuousClock.now
            let report = await ServiceShutdown.close(services, timeout: .seconds(2))
            let elapsed = ContinuousClock.now - start
            // The margin is for a timer's lateness on a loaded machine; a watchdog that looked
            // every quarter of the limit took 2.5 seconds.
            #expect(elapsed >= .seconds(2) && elapsed < .milliseconds(2_400), "the shutdown took \(elapsed)")
            #expect(report.failures.map { "\($0.path ?? "") \($0.error)" } == ["hanging did not finish within 2.0 seconds"])
            #expect(journal.closed == ["fine", "hanging"])
        }
    }
}
