import Synchronization
import CServiceContainerKit

/// A lifetime shorter than the app's, such as one request of a server: a provider in
/// `scoped` mode makes one service per scope, on the first get in that scope, and the scope
/// closes the services it made when it ends.
///
/// ```swift
/// let requestLog = ServiceProvider<RequestLog>(mode: .scoped) { RequestLog() }
///
/// func handle(_ request: Request) async throws -> Response {
///     try await withServiceScope(label: request.id) {
///         let log = try requestLog.getService()  // one RequestLog for this request
///         return try await respond(to: request, log: log)
///     }  // closed here: RequestLog.close() is awaited if it is a ClosableService
/// }
/// ```
///
/// The current scope travels as a task-local value does: the body of `run(_:)`,
/// and every child task it starts (`async let`, task groups, `Task { }`), sees it; a detached
/// task, another thread or a dispatch queue does not, unless it runs the scope itself.
///
/// A scoped service is made exactly once per scope, however many tasks and threads ask for it at
/// the same moment. A singleton (`atOne`, `lazy`, `weak`, a session service, a locator's) whose
/// making gets a scoped service fails with `ServiceFactoryError.captiveDependency`, whether or
/// not a scope is current: it would keep one request's service for every request.
public final class ServiceScope: Sendable, CustomStringConvertible {
    /// The name given to the scope, for messages and reports.
    ///
    /// ```swift
    /// let scope = ServiceScope(label: "request \(request.id)")
    /// print(scope.label)  // "request 1"
    /// ```
    public let label: String

    private let state = Locked(State())

    private struct State: Sendable {
        // `cells` and `isClosed` come first, the fields a get reads: their offsets are then
        // known where the get is compiled, while those after a continuation's (whose layout the
        // Concurrency module keeps to itself) are looked up at run time.
        /// The service of each scoped provider got in this scope, by the provider's source.
        var cells: [IdentityKey: any ScopeCell] = [:]
        var isClosed = false
        /// The made services that close, in the order their makings ended.
        var closable: [MadeService] = []
        /// The makings running in this scope now.
        var makingsInProgress = 0
        /// What `close()` awaits while makings run after it began.
        var makingsEnded: CheckedContinuation<Void, Never>?
        /// The calls of `close()` after the first, which return once it has ended.
        var closing = ClosingWaiters()
        /// Once `close()` took the services to close while makings still ran, what those makings
        /// need to close their services on their own (`closeLate`); `nil` before, and after the
        /// last of them ended.
        var late: LateMakings?
    }

    /// What the makings that outlasted `close()` need: the time limit of their closes, and what
    /// the scope closed and they close, so that a service such a making hands on is closed once.
    /// The services are kept strongly: an identity alone could be taken by a new object once the
    /// closed one was released. Only a scope whose close left makings running has one, so that
    /// the state of every other scope stays one reference smaller. `addOnce` is called under
    /// the scope's lock, so `closed`'s is never contended.
    private final class LateMakings: Sendable {
        let within: Duration
        private let closed: Locked<[MadeService]>

        init(within: Duration, closed: [MadeService]) {
            self.within = within
            self.closed = Locked(closed)
        }

        /// Adds `made`, unless its object is already there: `false` then.
        func addOnce(_ made: MadeService) -> Bool {
            closed.withLock { closed in
                if let object = objectReference(of: made.service),
                    closed.contains(where: { objectReference(of: $0.service) === object })
                {
                    return false
                }
                closed.append(made)
                return true
            }
        }
    }

    /// A scope named `label` (for messages), with nothing made yet.
    ///
    /// A scope you make is yours to close with ``close(timeout:)``, also when the code that
    /// uses it throws: one released unclosed calls the `close()` of none of its services, and
    /// names those that close to the registered ``ProvidersLogger``s (`serviceScopeNotClosed`).
    /// `withServiceScope` makes one and always closes it.
    ///
    /// ```swift
    /// let scope = ServiceScope(label: "request 42")
    /// ```
    public init(label: String = "") {
        self.label = label
        number = Self.made.wrappingAdd(1, ordering: .relaxed).newValue
        Self.noteUsed()
    }

    deinit {
        // Released unclosed: nothing can close its services now (a close is awaited, and a
        // deinit cannot wait), so the loggers hear which were left. A closed scope keeps none.
        let unclosed = state.withLock { $0.closable.isEmpty ? nil : $0.closable.map(\.type) }
        if let unclosed {
            LogRecorder.recorder.scopeNotClosed(label: label, services: unclosed)
        }
    }

    /// This scope's number, one of its own in the process (from 1): what an object made in it
    /// keeps of it (`numberForObjectMadeNow`), which a reference would keep alive with all it
    /// holds, and an identity could confuse with a scope made later at the same address.
    @usableFromInline package let number: UInt64

    /// How many scopes the process made. A counter of its own, not a `MakingClock` tick: that
    /// call (an overflow-checked add) cost each request's scope 7 instructions more.
    private static let made = Atomic<UInt64>(0)

    /// What `numberForObjectMadeNow` gives while a singleton's making runs on this thread: no
    /// scope's number.
    package static let numberOfSingletonMaking = UInt64.max

    /// The scope the current task or thread runs in, if any.
    ///
    /// ```swift
    /// let inRequest = ServiceScope.current != nil  // true inside withServiceScope { }
    /// ```
    public static var current: ServiceScope? { bound }

    @TaskLocal static var bound: ServiceScope?

    /// The number of the scope that an object made now belongs to: `numberOfSingletonMaking`
    /// while a synchronous singleton's making runs on this thread, in a scope or not (the
    /// singleton outlives every scope), else the current scope's; outside every scope,
    /// `numberOfSingletonMaking` in a task that makes a singleton (an async singleton's making,
    /// which runs in no scope, or a task a synchronous one's factory started), else 0; 0 before
    /// the process made a scope. An injected property whose service is scoped takes it only in
    /// that scope (see `ServiceInjects`), and its error says which of these made its object.
    @inlinable
    package static var numberForObjectMadeNow: UInt64 {
        areUsed ? numberOfCurrentScopeOutsideSingletons : 0
    }

    /// `numberForObjectMadeNow` once the process made a scope.
    @usableFromInline
    static var numberOfCurrentScopeOutsideSingletons: UInt64 {
        if ThreadContext.current.pointee.keeper != nil { return numberOfSingletonMaking }
        if let scope = bound { return scope.number }
        // The task's singleton is looked for outside scopes only, off a request's path: either
        // number refuses the request's service, and this one names the cause.
        return TaskContext.currentKeeper != nil ? numberOfSingletonMaking : 0
    }

    /// Whether this process made a scope or a scoped provider: one load (`sck_scopes_used`).
    /// Before it did, no get can be of a scoped service, and a singleton's making need not
    /// watch the tasks its factory starts (`ThreadContext.withKeeper`).
    @inlinable
    static var areUsed: Bool {
        sck_scopes_used_load() != 0
    }

    /// Notes that this process made a scope or a scoped provider (`areUsed`); a store only the
    /// first time.
    @usableFromInline
    static func noteUsed() {
        if !areUsed {
            sck_scopes_used_note()
        }
    }

    /// Whether ``close(timeout:)`` began: the scope makes and hands out nothing any more.
    ///
    /// ```swift
    /// let report = await scope.close()
    /// // scope.isClosed == true: a get of a scoped service in it fails
    /// ```
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// "scope" and the label, as messages name it.
    ///
    /// ```swift
    /// print(ServiceScope(label: "job"))  // the scope "job"
    /// print(ServiceScope())              // a scope
    /// ```
    public var description: String { label.isEmpty ? "a scope" : "the scope \"\(label)\"" }

    /// Runs `body` with this scope current, on this thread, and returns what it returns.
    ///
    /// ```swift
    /// let scope = ServiceScope(label: "job")
    /// let log = try scope.run { try requestLog.getService() }
    /// ```
    @inlinable
    public func run<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        // Inlinable, with the binding out of line: compiled for `R` and `E` where it is called,
        // it asks for no metadata of `Result<R, E>` at run time.
        var result: Result<R, E>?
        withBound { result = Result(catching: body) }
        return try result!.get()
    }

    /// Runs `body` with this scope current.
    @usableFromInline
    func withBound(_ body: () -> Void) {
        Self.$bound.withValue(self, operation: body)
    }

    /// Runs `body` with this scope current, in the current task and the child tasks it starts,
    /// and returns what it returns. `body` runs on the caller's executor from start to end.
    ///
    /// ```swift
    /// let answer = try await scope.run { try await answerService.getService().answer() }
    /// ```
    public nonisolated(nonsending) func run<R, E: Error>(
        _ body: nonisolated(nonsending) () async throws(E) -> R
    ) async throws(E) -> R {
        try await Self.$bound.withValue(self, on: #isolation, body)
    }

    /// The cell of `source`'s service in this scope, made on the first get.
    ///
    /// - Throws: the `scopeClosed` error once the scope is closed.
    @inlinable
    func cell<Cell: ScopeCell>(
        for source: AnyObject,
        service: Any.Type,
        _ make: () -> Cell
    ) throws(ServiceObtainError) -> Cell {
        guard let cell = storedCell(for: IdentityKey(ObjectIdentifier(source)), make) else { throw closedRefusal(service) }
        return cellOfItsSource(cell, as: Cell.self)
    }

    /// The cell under `key`, made by `make` on the first ask; `nil` once the scope is closed.
    /// Not generic, so that the lock is taken in code compiled for its one state type.
    @usableFromInline
    func storedCell(for key: IdentityKey, _ make: () -> any ScopeCell) -> (any ScopeCell)? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            if let cell = state.cells[key] { return cell }
            let cell = make()
            state.cells[key] = cell
            return cell
        }
    }

    /// Counts a making that begins in this scope; `false`, counting nothing, once it is closed.
    @usableFromInline
    func beginMaking() -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.makingsInProgress += 1
            return true
        }
    }

    /// Adds what a making counted by `beginMaking()` made, if it closes, to the services this
    /// scope closes, before the service is published: the order of these calls is the order of
    /// the ends of the makings. Also when the scope began closing meanwhile: `close()` waits for
    /// the makings in progress, within its time limit; a making that ends later closes its
    /// service itself (`record`).
    ///
    /// Inlined into the making, so that the service is cast to `ClosableService` in code compiled
    /// for its type: a cast from `Any` first asks the run-time whether the value is a boxed one,
    /// which cost as much as the rest of the making.
    @inlinable @inline(__always)
    func recordMade<Service>(_ made: Result<Service, ServiceObtainError>) {
        if case .success(let service) = made, let closable = service as? any ClosableService {
            record(closable, type: Service.self)
        }
    }

    /// Adds `closable`, made by a provider of `type` services, to the services this scope closes,
    /// or closes it when the scope's `close()` no longer waited for its making.
    @usableFromInline
    func record(_ closable: any ClosableService, type: Any.Type) {
        let made = MadeService(service: closable, type: type, madeAt: 0)
        let lateWithin = state.withLock { state -> Duration? in
            guard let late = state.late else {
                state.closable.append(made)
                return nil
            }
            return late.addOnce(made) ? late.within : nil
        }
        if let lateWithin {
            closeLate(made, within: lateWithin)
        }
    }

    /// Closes what a making that outlasted `close(timeout:)` made, in a task of its own: the
    /// scope refuses it to its getters, so nothing else would. At once, also while the close
    /// still closes the others: the service was made after them, so the ones it needs that are
    /// still open are better open while it closes (and a close of theirs may wait for it). A
    /// failure of its close goes to the registered `ProvidersLogger`s, as `withServiceScope`
    /// reports one.
    private func closeLate(_ made: MadeService, within timeout: Duration) {
        Task.detached { [self] in
            let report = await ServiceCloseReport.close([made], timeout: timeout, for: self)
            if !report.isClean {
                LogRecorder.recorder.scopeCloseFailure(scope: self, report: report)
            }
        }
    }

    /// Ends a making that `beginMaking()` counted, once its service is published (or it failed).
    @usableFromInline
    func endMaking() {
        var late: LateMakings?
        let ended = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.makingsInProgress -= 1
            guard state.makingsInProgress == 0 else { return nil }
            late = state.late.take()  // the last making that outlasted `close()`, if any, ended
            return state.makingsEnded.take()
        }
        withExtendedLifetime(late) {}  // what was closed is released after the lock
        ended?.resume()
    }

    /// The error of a get in this scope once it is closed, not reported yet: it is made under
    /// a lock too, and reported (`reported()`) once no lock is held.
    @usableFromInline
    func closedError(_ service: Any.Type) -> ServiceObtainError {
        ServiceObtainError(service: service, error: ServiceFactoryError.scopeClosed(service: service, scope: description))
    }

    /// `service`, made (or waited for) by a get in this scope, unless the scope was closed
    /// meanwhile: a closed scope hands out nothing, not even what a making in progress made,
    /// which it closes. A look at the scope's state, on the path of a making only: a get of a
    /// made service does not come here (`core/request scope`, 6,331 -> 6,392 instructions).
    @inlinable
    func handingOut<Service>(_ service: Service) throws(ServiceObtainError) -> Service {
        if isClosed {
            throw closedRefusal(Service.self)
        }
        return service
    }

    /// The error of a get that this closed scope refuses, reported: for a refusal made where no
    /// lock is held (one made under a cell's lock is `closedError(_:)`, reported after it).
    @usableFromInline
    func closedRefusal(_ service: Any.Type) -> ServiceObtainError {
        closedError(service).reported()
    }

    /// Closes the scope: it stops making and handing out services at once, waits for the
    /// makings in progress, then awaits `close()` of each service it made that is a
    /// ``ClosableService``, in reverse order of the end of their makings (a service whose making
    /// ended after those of the services it needs is closed before them), each once.
    ///
    /// ```swift
    /// let report = await scope.close(timeout: .seconds(5))
    /// if !report.isClean { print(report) }
    /// ```
    ///
    /// A close that throws, or runs past `timeout`, is in the report, and the next one still
    /// closes. Makings still running after `timeout` are reported as a failure of the scope
    /// (whose type is `ServiceScope`); their getters are refused what they make, as every get in
    /// a closed scope is, and each such service is closed when its making ends, in a task of its
    /// own, with a failure of that close reported to the registered ``ProvidersLogger``s
    /// (`serviceScopeCloseFailure`). A second call closes nothing: it returns an empty report
    /// once the first call has ended, also while that one runs (and when its task is
    /// cancelled), unless it is made inside the `close()` of one of the scope's services (in the
    /// task that closes it, or a `Task {}` that one starts), which the first call waits for: it
    /// returns at once then. Afterwards the scope holds
    /// none of its services, except, while a making that outlasted the close still runs, those
    /// it closed (so that one that making hands on is closed once), until that making ends.
    ///
    /// - Parameter timeout: the time each service's `close()` may take (one that runs past it
    ///   is reported), and the time the makings in progress may take to end. A negative one
    ///   counts as zero, which waits for nothing: each `close()` is called in a task cancelled
    ///   at once and reported as late (or with its error, if it threw before the limit was
    ///   checked). `.seconds(Int64.max)` says "no limit".
    public func close(timeout: Duration = .seconds(10)) async -> ServiceCloseReport {
        let timeout = timeout.asCloseLimit
        let isFirst = state.withLock { state in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        guard isFirst else {
            if !ClosingWaiters.isInsideAClose(of: self) {
                await state.awaitEnd(of: \.closing)
            }
            return ServiceCloseReport(failures: [], closedCount: 0)
        }
        defer { state.end(\.closing) }
        let noneRunning = state.withLock { $0.makingsInProgress == 0 }
        let inTime = noneRunning ? true : await ServiceCloseReport.finishes(within: timeout, makingsToEnd)
        let (closable, cells, stillMaking) = state.withLock { state in
            defer {
                if state.makingsInProgress > 0 {
                    state.late = LateMakings(within: timeout, closed: state.closable)
                }
                (state.closable, state.cells) = ([], [:])
            }
            return (state.closable, state.cells, state.makingsInProgress > 0)
        }
        // The makings that outlasted the time limit, named by the cells that run them; none when
        // the last one ended since. A making clears its cell's mark before it counts itself out,
        // so one that ends between the two reads is counted still but named by no cell: it has
        // ended, its service closes as that of any making that ends after the close began, and
        // nothing is reported.
        var failures: [ServiceCloseReport.Failure] = []
        if !inTime, stillMaking {
            let makings = cells.values.compactMap(\.typeBeingMade).sorted { TypeName.of($0) < TypeName.of($1) }
            if !makings.isEmpty {
                let error = ServiceCloseTimeoutError(timeout: timeout, makings: makings)
                failures.append(.init(path: label, service: ServiceScope.self, error: error, isOfAClose: false))
            }
        }
        withExtendedLifetime(cells) {}  // the services that do not close go here, after the lock
        var report = await ServiceCloseReport.close(closable, timeout: timeout, for: self)
        report.failures.insert(contentsOf: failures, at: 0)
        return report
    }

    /// Returns once no making runs in this scope (which is closed: none begins any more).
    private nonisolated(nonsending) func makingsToEnd() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard state.makingsInProgress > 0 else { return true }
                state.makingsEnded = continuation
                return false
            }
            if now {
                continuation.resume()
            }
        }
    }
}

/// Runs `body` in a new scope, then closes the scope, also when `body` throws, and returns
/// what `body` returned. `body` runs on the caller's executor from start to end.
///
/// ```swift
/// let response = try await withServiceScope(label: request.id) {
///     try await RequestHandler(log: requestLog.getService()).respond(to: request)
/// }
/// ```
///
/// Services whose `close()` fails or runs past `closeTimeout` are reported to the registered
/// ``ProvidersLogger``s (`serviceScopeCloseFailure`). The time limit is the one
/// ``ServiceScope/close(timeout:)`` takes: what each service's `close()` may take, and what the
/// makings still running when `body` returned may take to end. It is not a deadline for the
/// whole close: the closes run one after another, so at worst the close takes the limit for the
/// makings and the limit for each service that closes. A server that must answer within a
/// deadline gives it a shorter one:
///
/// ```swift
/// let response = try await withServiceScope(label: request.id, closeTimeout: .seconds(1)) {
///     try await RequestHandler(log: requestLog.getService()).respond(to: request)
/// }
/// ```
///
/// Close the scope yourself, with `run(_:)` and ``ServiceScope/close(timeout:)``, to read the
/// report.
///
/// - Parameters:
///   - label: the scope's label, which its errors and reports show.
///   - closeTimeout: the time limit of the scope's close; 10 seconds, as `close(timeout:)`'s.
///   - body: the work the scope serves.
public nonisolated(nonsending) func withServiceScope<R, E: Error>(
    label: String = "",
    closeTimeout: Duration = .seconds(10),
    _ body: nonisolated(nonsending) () async throws(E) -> R
) async throws(E) -> R {
    let scope = ServiceScope(label: label)
    let result: Result<R, E>
    do throws(E) {
        result = .success(try await scope.run(body))
    } catch {
        result = .failure(error)
    }
    let report = await scope.close(timeout: closeTimeout)
    if !report.isClean {
        LogRecorder.recorder.scopeCloseFailure(scope: scope, report: report)
    }
    return try result.get()
}

/// The state one scope keeps for one scoped provider: `ScopedSource` and `AsyncScopedSource`
/// each have theirs.
@usableFromInline
protocol ScopeCell: AnyObject, Sendable {
    /// The type of the service whose making runs in this cell now, if one does: what a close
    /// that stopped waiting for it names.
    var typeBeingMade: Any.Type? { get }
}
