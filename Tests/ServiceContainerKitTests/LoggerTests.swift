import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

private final class LoggedService: Sendable {}
private final class LoggedDependent: Sendable {}
private final class QueuedService: Sendable {}
private final class MainQueuedService: Sendable {}
final class RefusedService: Sendable {}
final class RefusingDependent: Sendable {}

/// The gets the package refuses before any factory runs, each provoked through a `many`
/// dependent, whose get only adds itself to the error's path.
enum RefusedGet: String, CaseIterable, Sendable {
    case scopeRequired, asyncScopeRequired, scopeClosed, asyncScopeClosed, dependencyCycle, captiveDependency, wrongParams
    case scopedOnMainActor

    /// The dependent's error: the refused get of a `RefusedService` made it.
    func provoke() async -> ServiceObtainError? {
        switch self {
        case .scopeRequired:
            let scoped = ServiceProvider<RefusedService>(mode: .scoped) { RefusedService() }
            return Self.dependent { _ = try scoped.getService() }.getServiceAsResult().failure
        case .asyncScopeRequired:
            let scoped = ServiceAsyncProvider<RefusedService>(mode: .scoped) { RefusedService() }
            return await scoped.getServiceAsResult().failure
        case .scopeClosed:
            let scoped = ServiceProvider<RefusedService>(mode: .scoped) { RefusedService() }
            let scope = ServiceScope(label: "request 7")
            _ = await scope.close()
            return scope.run { Self.dependent { _ = try scoped.getService() }.getServiceAsResult().failure }
        case .asyncScopeClosed:
            // The cell is found while the scope is open; the scope closes before its making begins.
            let source = AsyncScopedSource<RefusedService> { RefusedService() }
            let scope = ServiceScope(label: "request 8")
            guard let cell = try? scope.cell(for: source, service: RefusedService.self, { AsyncScopedCell(source: source) }) else {
                return nil
            }
            _ = await scope.close()
            do throws(ServiceObtainError) {
                _ = try await cell.get(in: scope)
                return nil
            } catch {
                return error
            }
        case .dependencyCycle:
            let cycle = Locked<ServiceProvider<RefusedService>?>(nil)
            let provider = ServiceProvider<RefusedService>(mode: .many) {
                _ = try cycle.withLock { $0 }!.getService()
                return RefusedService()
            }
            cycle.withLock { $0 = provider }
            defer { cycle.withLock { $0 = nil } }
            return Self.dependent { _ = try provider.getService() }.getServiceAsResult().failure
        case .captiveDependency:
            let scoped = ServiceProvider<RefusedService>(mode: .scoped) { RefusedService() }
            let singleton = ServiceProvider<RefusingDependent>(mode: .lazy) {
                _ = try scoped.getService()
                return RefusingDependent()
            }
            return ServiceScope().run { singleton.getServiceAsResult().failure }
        case .wrongParams:
            let params = ServiceParamsProvider<RefusedService, Int> { _ in RefusedService() }
            return Self.dependent { _ = try params.getServiceAsResult(untypedParams: "seven").get() }.getServiceAsResult().failure
        case .scopedOnMainActor:
            return await MainActor.run {
                let scoped = ServiceMainActorProvider<RefusedService>(mode: .scoped) { RefusedService() }
                return ServiceScope().run { scoped.getServiceAsResult().failure }
            }
        }
    }

    /// A `many` provider whose factory runs `body`.
    static func dependent(_ body: @escaping @Sendable () throws -> Void) -> ServiceProvider<RefusingDependent> {
        ServiceProvider(mode: .many) {
            try body()
            return RefusingDependent()
        }
    }
}

// Loggers are registered process-wide: the tests that count one service type's failures run one
// at a time, or each would count the other's.
/// A main queue that is not served: the drains a recorder schedules on it wait in `scheduled`
/// until a test runs them, as the main queue would. `logger` is registered with `recorder`.
private final class HeldMainQueue: Sendable {
    final class Drains: Sendable {
        let list = Locked<[@Sendable () -> Void]>([])
    }

    let logger = RecordingLogger(queue: .main)
    let recorder: LogRecorder
    private let drains: Drains

    init() {
        let drains = Drains()
        self.drains = drains
        recorder = LogRecorder(scheduleOnMain: { drain in drains.list.withLock { $0.append(drain) } })
        recorder.register(logger)
    }

    /// The drains scheduled so far, in order.
    var scheduled: [@Sendable () -> Void] { drains.list.withLock { $0 } }

    /// Raises the make failure of a `MainQueuedService` whose error has `code`.
    func record(_ code: Int) {
        let error = ServiceObtainError(service: MainQueuedService.self, error: TestError(code: code))
        recorder.record(ProvidersLogger.self) { $0.serviceProviderMakeFailure(type: MainQueuedService.self, error: error) }
    }

    /// The codes of the failures the logger got, in order.
    var codes: [Int?] {
        logger.failures(of: MainQueuedService.self).map { ($0.error as? TestError)?.code }
    }
}

@Suite("Logging", .serialized)
struct LoggerTests {
    @Test("A factory failure is reported once, by the provider where it started")
    func makeFailure() throws {
        let logger = RecordingLogger()
        logger.register()
        defer { logger.unregister() }
        #expect(LogRecorder.recorder.contains(logger))

        let failing = ServiceProvider<LoggedService>(mode: .lazy) { throw TestError(code: 5) }
        let dependent = ServiceProvider<LoggedDependent>(mode: .many) {
            _ = try failing.getService()
            return LoggedDependent()
        }
        #expect(dependent.getServiceAsOptional() == nil)
        let reported = logger.failures(of: LoggedService.self)
        #expect(reported.count == 1)
        #expect(reported.first?.error as? TestError == TestError(code: 5))
        #expect(logger.failures(of: LoggedDependent.self).isEmpty)
    }

    @Test("A get the package refuses is reported once, by the provider that refuses it", arguments: RefusedGet.allCases)
    func refusal(_ refusal: RefusedGet) async throws {
        let logger = RecordingLogger()
        logger.register()
        defer { logger.unregister() }
        try Self.expectReportedOnce(await refusal.provoke(), logger)
    }

    /// A get after a shutdown, in a process of its own: a shutdown puts every later get of its
    /// process on the slow path (see `ShutdownTests`).
    @Test("A get after a shutdown is reported once, by the provider shut down")
    func shutDownReported() async {
        await #expect(processExitsWith: .success) { try await LoggerTests.shutDownReportedInItsOwnProcess() }
    }

    static func shutDownReportedInItsOwnProcess() async throws {
        let logger = RecordingLogger()
        logger.register()
        defer { logger.unregister() }
        let provider = ServiceProvider<RefusedService>(mode: .lazy) { RefusedService() }
        _ = await ServiceShutdown.close(provider)
        try expectReportedOnce(RefusedGet.dependent { _ = try provider.getService() }.getServiceAsResult().failure, logger)
    }

    /// `error`, a dependent's error from the refused get of a `RefusedService`, was reported
    /// once, by the refusing provider.
    static func expectReportedOnce(_ error: ServiceObtainError?, _ logger: RecordingLogger) throws {
        let error = try #require(error)
        #expect(error.error is ServiceFactoryError)
        #expect(sameType(error.service, RefusedService.self))
        let reported = logger.failures(of: RefusedService.self)
        #expect(reported.count == 1)
        #expect(reported.first.map { "\($0.error)" } == "\(error.error)")
        #expect(reported.first.map { typeList($0.pathServices) } == [String(describing: RefusedService.self)])
        #expect(logger.failures(of: RefusingDependent.self).isEmpty)
    }

    @Test("A closed scope refused under a cell's lock is reported once that lock is released")
    func closedScopeReportedAfterTheLock() async throws {
        /// Takes the cell's lock when told of a failure: under that lock, it would wait for ever.
        final class LockingLogger: ProvidersLogger {
            let cell: ScopedCell<RefusedService>
            let reports = Locked(0)
            init(_ cell: ScopedCell<RefusedService>) { self.cell = cell }
            func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
                guard type == RefusedService.self else { return }  // the failures of tests that run meanwhile
                cell.inProgress.withLock { _ in }
                reports.withLock { $0 += 1 }
            }
        }
        let source = ScopedSource<RefusedService> { RefusedService() }
        let scope = ServiceScope(label: "request 9")
        // The cell is found while the scope is open; the scope closes before its making begins.
        let cell = try scope.cell(for: source, service: RefusedService.self) { ScopedCell(source: source) }
        _ = await scope.close()
        let logger = LockingLogger(cell)
        logger.register()
        defer { logger.unregister() }
        let error = try withTimeLimit { () -> ServiceObtainError? in
            do throws(ServiceObtainError) {
                _ = try cell.get(in: scope)
                return nil
            } catch {
                return error
            }
        }
        #expect(error?.description.hasSuffix("the scope \"request 9\" is closed: \(TypeName.of(RefusedService.self)), a scoped service, is no longer made or handed out in it; get scoped services while their scope runs, not in work that outlives it") == true)
        #expect(logger.reports.withLock { $0 } == 1)
    }

    @Test("A factory that stops because its task is cancelled is not reported; other errors are")
    func cancelledFactory() async throws {
        let logger = RecordingLogger()
        logger.register()
        defer { logger.unregister() }
        let asyncMany = ServiceAsyncProvider<LoggedService>(mode: .many) {
            try Task.checkCancellation()
            return LoggedService()
        }
        let syncMany = ServiceProvider<LoggedService>(mode: .many) {
            try Task.checkCancellation()
            return LoggedService()
        }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return (await asyncMany.getServiceAsResult(), syncMany.getServiceAsResult())
        }
        let (asyncResult, syncResult) = try await withAsyncTimeLimit { await task.value }
        for result in [asyncResult, syncResult] {
            #expect(result.failure?.error is CancellationError)
            #expect(sameType(result.failure?.service, LoggedService.self))
        }
        #expect(logger.failures(of: LoggedService.self).isEmpty)

        // The same factories report what else they throw.
        let failing = ServiceAsyncProvider<LoggedService>(mode: .many) { throw TestError(code: 8) }
        #expect(await failing.getServiceAsOptional() == nil)
        #expect(logger.failures(of: LoggedService.self).map { $0.error as? TestError } == [TestError(code: 8)])

        // A `CancellationError` thrown where no task is cancelled is a failure: here the making
        // of an `atOne` service (its own task, never cancelled) awaits a task cancelled elsewhere.
        let elsewhere = Task { try await Task.sleep(for: .seconds(60)) }
        elsewhere.cancel()
        let atOne = ServiceAsyncProvider<LoggedService>(mode: .atOne) {
            try await elsewhere.value
            return LoggedService()
        }
        let kept = await atOne.getServiceAsResult()
        #expect(kept.failure?.error is CancellationError)
        let reported = logger.failures(of: LoggedService.self)
        #expect(reported.count == 2)
        #expect(reported.last?.error is CancellationError)
    }

    @Test("A logger that gets a failing service while handling an event does not loop")
    func reentrantLogger() {
        final class Config: Sendable {}
        final class Analytics: Sendable {}
        final class Reentrant: ProvidersLogger, @unchecked Sendable {
            // Written before registration, read on the failing thread only.
            var analytics: ServiceProvider<Analytics>?
            let events = Counter()
            func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
                guard sameType(type, Config.self) || sameType(type, Analytics.self) else { return }
                events.increment()
                _ = analytics?.getServiceAsOptional()
            }
        }
        let config = ServiceProvider<Config>(mode: .lazy) { throw TestError(code: 1) }
        let analytics = ServiceProvider<Analytics>(mode: .lazy) {
            _ = try config.getService()
            return Analytics()
        }
        let logger = Reentrant()
        logger.analytics = analytics
        logger.register()
        defer { logger.unregister() }
        let error = #expect(throws: ServiceObtainError.self) { try analytics.getService() }
        #expect(sameType(error?.service, Config.self))
        #expect(logger.events.value == 1)
    }

    @Test("Registering twice delivers once; unregistering stops delivery")
    func registration() {
        let logger = RecordingLogger()
        logger.register()
        LogRecorder.recorder.register(logger)
        _ = ServiceProvider<LoggedService>(mode: .atOne) { throw TestError(code: 1) }
        #expect(logger.failures(of: LoggedService.self).count == 1)
        logger.unregister()
        #expect(!LogRecorder.recorder.contains(logger))
        _ = ServiceProvider<LoggedService>(mode: .atOne) { throw TestError(code: 2) }
        #expect(logger.failures(of: LoggedService.self).count == 1)
    }

    @Test("The newest logger is the shared one; the earlier ones keep their events")
    func newestIsShared() {
        let recorder = LogRecorder()
        let first = RecordingLogger()
        let second = RecordingLogger()
        #expect(recorder.newest == nil)
        recorder.register(first)
        recorder.register(second)
        #expect(recorder.newest === second)
        recorder.register(first)
        #expect(recorder.newest === first)
        let error = ServiceObtainError(service: QueuedService.self, error: TestError())
        recorder.record(ProvidersLogger.self) { $0.serviceProviderMakeFailure(type: QueuedService.self, error: error) }
        #expect(first.failures(of: QueuedService.self).count == 1)
        #expect(second.failures(of: QueuedService.self).count == 1)
        recorder.unregister(first)
        #expect(recorder.newest === second)
    }

    @Test("A logger with a queue gets events on it")
    func queued() {
        let queue = DispatchQueue(label: "logger")
        let logger = RecordingLogger(queue: queue)
        let recorder = LogRecorder()
        recorder.register(logger)
        let error = ServiceObtainError(service: QueuedService.self, error: TestError())
        recorder.record(ProvidersLogger.self) { $0.serviceProviderMakeFailure(type: QueuedService.self, error: error) }
        recorder.record(ProvidersLogger.self) { $0.serviceProviderObjCNotSupport(type: QueuedService.self) }
        queue.sync {}
        #expect(logger.failures(of: QueuedService.self).count == 1)
        #expect(logger.refusals(of: QueuedService.self) == 1)
    }

    @Test("Events for the main queue stay bounded when the main queue is never serviced, the oldest dropped", .offThePool)
    func mainQueueBounded() throws {
        let main = HeldMainQueue()
        let total = MainQueueMailbox.capacity + 10
        let finished = DispatchSemaphore(value: 0)
        Thread {
            for code in 0..<total {
                main.record(code)
            }
            finished.signal()
        }.start()
        try waitWithTimeLimit(finished, "recording waited for the main queue")
        #expect(main.codes.isEmpty)
        #expect(main.recorder.pendingMainQueueEvents == MainQueueMailbox.capacity)
        #expect(main.recorder.droppedMainQueueEvents == 10)
        let drains = main.scheduled
        #expect(drains.count == 1)
        // The main queue runs at last: the newest events arrive, in the order they were raised.
        for drain in drains { drain() }
        #expect(main.codes == Array(10..<total))
        #expect(main.recorder.pendingMainQueueEvents == 0)
    }

    @Test("An event raised on the main queue arrives at once, after those still waiting for it")
    func mainQueueEventAfterBuffered() async throws {
        // A drain scheduled on the main queue that has not run yet waits in `main.scheduled`.
        let main = HeldMainQueue()
        try await withAsyncTimeLimit {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    main.record(1)
                    done.resume()
                }
            }
        }
        #expect(main.recorder.pendingMainQueueEvents == 1)
        // On Linux a block of the main queue may run on a thread other than the main one: the
        // main actor is told by the queue.
        try await withAsyncTimeLimit {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.async {
                    main.record(2)
                    done.resume()
                }
            }
        }
        #expect(main.codes == [1, 2])
        #expect(main.recorder.pendingMainQueueEvents == 0)
        // The drain scheduled for the first event finds nothing left to deliver.
        for drain in main.scheduled { drain() }
        #expect(main.codes.count == 2)
    }

    @Test("Events raised after a drain of the main queue schedule the next drain")
    func mainQueueDrainedAgain() {
        let main = HeldMainQueue()
        main.record(1)
        main.record(2)
        #expect(main.scheduled.count == 1)
        main.scheduled[0]()  // the main queue runs
        main.record(3)
        let drains = main.scheduled
        #expect(drains.count == 2)
        drains.last?()
        #expect(main.codes == [1, 2, 3])
        #expect(main.recorder.pendingMainQueueEvents == 0)
    }

    @Test("An event is not queued for a logger that does not adopt its protocol")
    func eventOfAnotherProtocol() {
        final class OtherEvents: Logger {
            let queue: DispatchQueue? = .main
        }
        let recorder = LogRecorder(scheduleOnMain: { _ in })
        recorder.register(OtherEvents())
        let error = ServiceObtainError(service: MainQueuedService.self, error: TestError())
        recorder.record(ProvidersLogger.self) { $0.serviceProviderMakeFailure(type: MainQueuedService.self, error: error) }
        #expect(recorder.pendingMainQueueEvents == 0)
    }

    @Test("Events for the main queue are delivered when it runs")
    @MainActor
    func mainQueueDelivered() async throws {
        let logger = RecordingLogger(queue: .main)
        let recorder = LogRecorder()
        recorder.register(logger)
        let error = ServiceObtainError(service: MainQueuedService.self, error: TestError())
        // Recorded from another thread; the time limit bounds a record that never returns.
        try await withAsyncTimeLimit {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    recorder.record(ProvidersLogger.self) {
                        $0.serviceProviderMakeFailure(type: MainQueuedService.self, error: error)
                    }
                    done.resume()
                }
            }
        }
        // The main queue delivers it, while this test waits.
        try await withAsyncTimeLimit { await eventually { !logger.failures(of: MainQueuedService.self).isEmpty } }
        #expect(logger.failures(of: MainQueuedService.self).count == 1)
        #expect(recorder.pendingMainQueueEvents == 0)
        // Recorded on the main actor, the event arrives at once.
        recorder.record(ProvidersLogger.self) { $0.serviceProviderObjCNotSupport(type: MainQueuedService.self) }
        #expect(logger.refusals(of: MainQueuedService.self) == 1)
        #expect(recorder.pendingMainQueueEvents == 0)
    }

    @Test("The default event methods do nothing")
    func defaults() {
        final class Silent: ProvidersLogger {}
        let silent = Silent()
        silent.serviceProviderMakeFailure(type: Int.self, error: ServiceObtainError(service: Int.self, error: TestError()))
        silent.serviceProviderObjCNotSupport(type: Int.self)
        silent.serviceScopeNotClosed(label: "request", services: [Int.self])
        #expect(silent.queue == nil)
    }
}
