import Dispatch
import Synchronization

/// What closing services found: the services whose `close()` threw or ran past its time limit.
///
/// ```swift
/// let report = await scope.close()
/// if !report.isClean {
///     print(report)  // one line per failure: path, type, error
/// }
/// ```
public struct ServiceCloseReport: Sendable, CustomStringConvertible {
    /// A service that did not close cleanly.
    ///
    /// ```swift
    /// let report = await scope.close()
    /// for failure in report.failures where failure.error is ServiceCloseTimeoutError {
    ///     print(failure.path ?? "scoped", failure.service)  // storage.pool App.ConnectionPool
    /// }
    /// ```
    public struct Failure: Sendable, CustomStringConvertible {
        /// Where the service's provider is in the container that was walked (`storage.pool`);
        /// `nil` for a scope's service, which has no path, and for a value a shutdown found no
        /// provider in. For the failure of a scope itself (makings still running when its close
        /// ran out of time), the scope's label.
        ///
        /// ```swift
        /// let report = await scope.close()
        /// let names = report.failures.map { $0.path ?? "\($0.service)" }  // a scope's services: no path
        /// ```
        public let path: String?
        /// The service's type, as its provider declares it (for a ``ServiceNoProviderFoundError``,
        /// the type of the value that was walked).
        ///
        /// ```swift
        /// let report = await scope.close()
        /// let outlasted = report.failures.contains { $0.service == ServiceScope.self }  // makings ran past the limit
        /// ```
        public let service: Any.Type
        /// What `close()` threw, or a ``ServiceCloseTimeoutError`` when it ran past its time; for
        /// the failures that are not a close's, a ``ServiceCloseTimeoutError`` that names the
        /// makings still running at the time limit, or a ``ServiceNoProviderFoundError``.
        ///
        /// ```swift
        /// let report = await scope.close()
        /// for failure in report.failures where !(failure.error is ServiceCloseTimeoutError) {
        ///     print(failure.service, "threw", failure.error)  // what its close() threw
        /// }
        /// ```
        public let error: any Error

        /// Whether this is the failure of a service's `close()` (one of the report's
        /// `closedCount`), rather than of makings that did not end in time or of a shutdown that
        /// found no provider. Set where the failure is made: a `close()` may throw any error,
        /// one of those two included.
        var isOfAClose = true

        /// The path (if any), the type and the error, on one line: "its close() threw:" and the
        /// error for an error that `close()` threw.
        ///
        /// ```swift
        /// let report = await scope.close()
        /// report.failures.forEach { print($0) }  // "App.RequestLog: did not finish within 10.0 seconds"
        /// ```
        public var description: String {
            let type = TypeName.of(service)
            var what = ServiceObtainError.describe(error, thrownBy: "its close()")
            if !(error is ServiceCloseTimeoutError || error is ServiceNoProviderFoundError || error is CancellationError) {
                what = "its close() threw: " + what
            }
            guard let path else { return "\(type): \(what)" }
            return "\(path) (\(type)): \(what)"
        }
    }

    /// The services that did not close cleanly, in the order they were closed. A scope's close
    /// that stopped waiting for makings still running lists that first, as a failure of the
    /// scope itself (`service` is `ServiceScope`), and a shutdown lists first each provider
    /// whose making was still running, or the value in which it found no provider: `closedCount`
    /// counts none of those, since no `close()` was called for them.
    ///
    /// ```swift
    /// let report = await scope.close(timeout: .seconds(2))
    /// let unclosed = report.failures.map(\.service)  // the services whose close() threw or ran past 2 seconds
    /// ```
    public internal(set) var failures: [Failure]

    /// How many services had their `close()` called, whether it succeeded or not.
    ///
    /// ```swift
    /// let report = await scope.close()
    /// print(report.closedCount)  // 0 for a second close(), or for a scope whose services do not close
    /// ```
    public internal(set) var closedCount: Int

    /// Whether every service closed without an error and in time.
    ///
    /// ```swift
    /// let report = await scope.close()
    /// assert(report.isClean, report.description)  // every close() returned in time, without an error
    /// ```
    public var isClean: Bool { failures.isEmpty }

    /// A line saying how many services had their `close()` called and how many of those
    /// failed, then a line per failure. A failure that is not a close's (makings still running
    /// when the time limit ran out, a shutdown that found no provider) is counted apart, as
    /// "other": "closed 6 services, 0 failed; 1 other failure" means that six closes succeeded.
    ///
    /// ```swift
    /// let report = await scope.close()
    /// print(report)  // "closed 2 services, 0 failed"
    /// ```
    public var description: String {
        let others = failures.count { !$0.isOfAClose }
        var header = "closed \(closedCount) service\(closedCount == 1 ? "" : "s"), \(failures.count - others) failed"
        if others > 0 {
            header += "; \(others) other failure\(others == 1 ? "" : "s")"
        }
        return ([header] + failures.map { "- \($0)" }).joined(separator: "\n")
    }

    /// Closes `services`, listed in the order their makings ended, one after the other from
    /// the last, each within `timeout`, each object once: at its first place, the making that
    /// made it. A later one (a provider whose factory got it from another) only handed it on,
    /// and the services made from it since are closed before it all the same. A value has no
    /// identity: each one listed is closed.
    static func close(
        _ services: [MadeService],
        timeout: Duration,
        for closing: any AnyObject & Sendable
    ) async -> ServiceCloseReport {
        guard !services.isEmpty else { return ServiceCloseReport(failures: [], closedCount: 0) }
        var once = services
        var seen = Set<ObjectIdentifier>(minimumCapacity: once.count)
        once.removeAll { entry in
            guard let object = objectReference(of: entry.service) else { return false }
            return !seen.insert(ObjectIdentifier(object)).inserted
        }
        let failures = await Closing(once, timeout: timeout, for: closing).run()
        return ServiceCloseReport(failures: failures, closedCount: once.count)
    }

    /// Runs `operation` in a task of its own, as a close is run, and returns whether it ended
    /// within `timeout` (if not, the task is cancelled and left to end on its own).
    static func finishes(within timeout: Duration, _ operation: @escaping @Sendable () async -> Void) async -> Bool {
        struct Operation: ClosableService {
            let body: @Sendable () async -> Void
            func close() async { await body() }
        }
        let operation = MadeService(service: Operation(body: operation), type: Operation.self, madeAt: 0)
        return await Closing([operation], timeout: timeout, for: nil).run().isEmpty
    }
}

extension Duration {
    /// This duration as the time limit of a close: a negative one as zero. Zero gives a close no
    /// time: each `close()` is still called, in a task cancelled at once, and reported as not done
    /// "within 0.0 seconds"; the next one does not wait for it, as after any close past its limit.
    var asCloseLimit: Duration {
        max(self, .zero)
    }
}

/// A made service that closes: what a scope or a shutdown closes.
struct MadeService: Sendable {
    let service: any ClosableService
    /// The type its provider declares.
    let type: Any.Type
    /// When its making ended (`MakingClock`): a shutdown closes the latest first. A scope keeps
    /// its services in that order as they are made, and leaves it 0.
    let madeAt: UInt64
    /// Where its provider is in the container shut down; `nil` for a scope's service.
    var path: String? = nil
}

extension MadeService {
    /// `service`, made at `madeAt` by the provider at `path`, when there is one and it closes.
    init?<Service>(_ service: Service, madeAt: UInt64, path: String?) {
        guard let closable = service as? any ClosableService else { return nil }
        self.init(service: closable, type: Service.self, madeAt: madeAt, path: path)
    }
}

extension [MadeService] {
    /// Adds `service`, made at `madeAt` by the provider at `path`, when there is one and it
    /// closes.
    mutating func add<Service>(_ service: Service?, madeAt: UInt64, path: String?) {
        if let service, let made = MadeService(service, madeAt: madeAt, path: path) {
            append(made)
        }
    }
}

/// Awaits `close()` of services one after the other, from the last listed to the first, each
/// within a time limit, without a task or a timer per service: one task closes them in turn,
/// and one watchdog task sleeps until the close that runs reaches its limit.
///
/// `running` is the turn of the service whose close runs, and the one thing that decides who
/// moves on: the closing task when its close returns, or the watchdog when it finds that close
/// running for the whole limit (reported as timed out, and its task cancelled). Each moves
/// `running` from that index to the next with a compare-and-exchange, so exactly one of them
/// does, and only that one reports the service; a closing task that lost stops, and the
/// watchdog starts a new one for the next service. A close that returns after its limit,
/// before the watchdog found it (a close that blocks its thread can keep the watchdog from
/// running), is reported as timed out by the closing task. `turnBegan` is when the close of
/// `running` began: stored before `running` moves to that turn, so that whoever reads a turn
/// reads its start or a later one (that of a close that began since, when this one is over). A
/// close that returns costs a clock read and one compare-and-exchange beside the call; one that
/// hangs costs its limit, and a timer that wakes about 14 times in 10 seconds (`watch()`).
private final class Closing: Sendable {
    typealias Failure = ServiceCloseReport.Failure

    /// What a failure names of each service (its type and path), in the order their makings
    /// ended: the last is closed first.
    private let entries: [(type: Any.Type, path: String?)]
    /// The services, in the same order. Let go of as the closing finishes, before its waiter
    /// resumes: the closing's tasks may end a moment later, and a closed scope's services are
    /// released with the scope, not with them (`finish()`).
    private let services: Locked<[any ClosableService]>
    private let timeout: Duration
    /// The scope or shutdown whose closes these are (`ClosingWaiters.closingsOfThisTask`).
    private let closing: (any AnyObject & Sendable)?
    /// The turn of the service whose close runs (0 for the last entry); `entries.count` once
    /// every close ended.
    private let running = Atomic<Int>(0)
    /// When the close of `running` began (`DispatchTime.uptimeNanoseconds`).
    private let turnBegan = Atomic<UInt64>(0)
    private let state = Locked(State())

    private struct State: Sendable {
        var failures: [(index: Int, failure: Failure)] = []
        var waiter: CheckedContinuation<[Failure], Never>?
        var watchdog: Task<Void, Never>?
        /// The task that closes the services now.
        var closer: Task<Void, Never>?
        var isOver = false
    }

    init(_ entries: [MadeService], timeout: Duration, for closing: (any AnyObject & Sendable)?) {
        self.entries = entries.map { ($0.type, $0.path) }
        services = Locked(entries.map(\.service))
        self.timeout = timeout
        self.closing = closing
    }

    /// Closes every service and returns the failures, in the order of the closes. (No closing
    /// is made for no services: `ServiceCloseReport.close` returns before.)
    func run() async -> [Failure] {
        await withCheckedContinuation { waiter in
            state.withLock { $0.waiter = waiter }
            closeAll(from: 0)
            let watchdog = Task { await watch() }
            let isOver = state.withLock { state in
                state.watchdog = watchdog
                return state.isOver
            }
            if isOver {
                watchdog.cancel()
            }
        }
    }

    /// Moves on from the service at `index`, reporting `failure` for it, unless another moved
    /// on from it first; `false` then.
    private func moveOn(from index: Int, failure: Failure?) -> Bool {
        guard let failure else {
            return running.compareExchange(expected: index, desired: index + 1, ordering: .acquiringAndReleasing).exchanged
        }
        return state.withLock { state in
            guard running.compareExchange(expected: index, desired: index + 1, ordering: .acquiringAndReleasing).exchanged
            else { return false }
            state.failures.append((index, failure))
            return true
        }
    }

    /// The position in `entries` and `services` of the service closed at turn `index`.
    private func position(ofTurn index: Int) -> Int {
        entries.count - 1 - index
    }

    /// The service closed at turn `index`; `nil` once the closing finished.
    private func service(at index: Int) -> (any ClosableService)? {
        services.withLock { $0.isEmpty ? nil : $0[position(ofTurn: index)] }
    }

    private func failure(at index: Int, _ error: any Error) -> Failure {
        let entry = entries[position(ofTurn: index)]
        return Failure(path: entry.path, service: entry.type, error: error)
    }

    /// Notes that a close begins at `now` (`turnBegan`). The time only moves forward: a closing
    /// task the watchdog left behind, which read the clock before the watchdog's new task did,
    /// cannot take it back.
    private func noteTurnBegins(at now: UInt64) {
        turnBegan.max(now, ordering: .releasing)
    }

    /// Closes the services from `first` on, in a task of its own, for as long as it is the one
    /// that moves on. The task is inside a close of `closing` (`ClosingWaiters`).
    private func closeAll(from first: Int) {
        noteTurnBegins(at: DispatchTime.now().uptimeNanoseconds)
        let closings = ClosingWaiters.closingsOfThisTask + [closing].compactMap { $0 }
        let closer = ClosingWaiters.$closingsOfThisTask.withValue(closings) {
            Task {
                // The close begins when the task does: the wait for a thread is not its time.
                var began = DispatchTime.now().uptimeNanoseconds
                if !Task.isCancelled {
                    noteTurnBegins(at: began)
                }
                for index in first..<entries.count {
                    // `nil` only once the closing finished, which no task with a turn left sees.
                    guard let service = service(at: index) else { return }
                    var failure: Failure?
                    do {
                        try await service.close()
                    } catch {
                        failure = self.failure(at: index, error)
                    }
                    // One clock read ends this close and begins the next.
                    let ended = DispatchTime.now().uptimeNanoseconds
                    if failure == nil, Duration.nanoseconds(ended - began) >= timeout {  // as the watchdog counts
                        failure = self.failure(at: index, ServiceCloseTimeoutError(timeout: timeout))
                    }
                    began = ended
                    // A task the watchdog left behind notes nothing.
                    if !Task.isCancelled {
                        noteTurnBegins(at: ended)
                    }
                    guard moveOn(from: index, failure: failure) else { return }
                }
                finish()
            }
        }
        state.withLock { $0.closer = closer }
    }

    /// Hands the failures to the waiter; runs once, after the move past the last service.
    private func finish() {
        let (waiter, watchdog, failures) = state.withLock { state in
            state.isOver = true
            return (state.waiter.take(), state.watchdog.take(), state.failures.sorted { $0.index < $1.index }.map(\.failure))
        }
        watchdog?.cancel()
        // Released here, outside the lock, before the waiter resumes (see `services`).
        withExtendedLifetime(services.withLock { services in
            defer { services = [] }
            return services
        }) {}
        waiter?.resume(returning: failures)
    }

    /// Sleeps until the close that runs has run for the whole limit; then reports it, leaves it
    /// behind, and has a new task close the next services.
    ///
    /// It sleeps in pauses that double from a millisecond, each at most until the limit: a sleep
    /// cancelled when the closing ends stays with the runtime until its deadline, so one sleep
    /// for the whole limit would keep its memory for the limit (10 seconds, by default) after
    /// every close that took a moment; a pause keeps it about as long as the closes took.
    private func watch() async {
        var pause = DoublingPause(longest: timeout)
        while true {
            let index = running.load(ordering: .acquiring)
            guard index < entries.count else { return }
            let began = turnBegan.load(ordering: .acquiring)  // before now: a close that began since is not in the future
            let ran = Duration.nanoseconds(DispatchTime.now().uptimeNanoseconds - began)
            if ran < timeout {
                do {
                    try await pause.sleep(atMost: timeout - ran)
                } catch {
                    return  // the closing is over
                }
                continue  // the close that runs now may be another
            }
            guard moveOn(from: index, failure: failure(at: index, ServiceCloseTimeoutError(timeout: timeout))) else {
                continue
            }
            state.withLock { $0.closer.take() }?.cancel()
            if index + 1 < entries.count {
                closeAll(from: index + 1)
            } else {
                finish()
            }
        }
    }
}

/// The error of a service's `close()` that did not end within its time limit: it was
/// cancelled, and the closing went on without it; or it returned after its limit before the
/// timer looked (a close that blocks its thread can keep the timer from running), and was
/// reported then, not cancelled. Also the error of a scope whose makings did not end within the
/// time limit of its `close(timeout:)`, and of a provider whose making did not end within the
/// time limit of a shutdown, which then name them in `makings`.
///
/// ```swift
/// let report = await scope.close(timeout: .seconds(5))
/// for failure in report.failures {
///     guard let late = failure.error as? ServiceCloseTimeoutError else { continue }
///     if late.makings.isEmpty {
///         print("\(failure.service) did not close in time")
///     } else {
///         print("still being made: \(late.makings)")  // the scope's failure
///     }
/// }
/// ```
public struct ServiceCloseTimeoutError: Error, Sendable, CustomStringConvertible {
    /// The time limit it ran past.
    ///
    /// ```swift
    /// let report = await scope.close(timeout: .seconds(5))
    /// let late = report.failures.compactMap { $0.error as? ServiceCloseTimeoutError }
    /// print(late.first?.timeout ?? .zero)  // 5.0 seconds: the limit given to close(timeout:)
    /// ```
    public let timeout: Duration
    /// For a scope's failure, the services whose makings were still running (one entry per
    /// making, sorted by name); for a shutdown's, the service of the provider whose making was
    /// still running; empty for a service's close.
    ///
    /// ```swift
    /// let report = await scope.close(timeout: .seconds(5))
    /// for case let late as ServiceCloseTimeoutError in report.failures.map(\.error) where !late.makings.isEmpty {
    ///     print(late.makings)  // the services still being made when the 5 seconds ran out
    /// }
    /// ```
    public let makings: [Any.Type]

    init(timeout: Duration, makings: [Any.Type] = []) {
        self.timeout = timeout
        self.makings = makings
    }

    /// "did not finish within" and the time limit, after the services whose makings these were.
    ///
    /// ```swift
    /// let report = await scope.close(timeout: .seconds(5))
    /// if let late = report.failures.first?.error as? ServiceCloseTimeoutError {
    ///     print(late)  // "did not finish within 5.0 seconds", or "the making of App.RequestLog did not finish ..."
    /// }
    /// ```
    public var description: String {
        guard !makings.isEmpty else { return "did not finish within \(timeout)" }
        let names = makings.map { TypeName.of($0) }.joined(separator: ", ")
        return "the making\(makings.count == 1 ? "" : "s") of \(names) did not finish within \(timeout)"
    }
}
