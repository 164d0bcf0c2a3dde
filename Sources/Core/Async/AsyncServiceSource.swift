import Synchronization

/// Where an async provider gets a service it does not hold ready, and how each kind keeps and
/// makes it: this file holds every kind's state and making, dispatched by one `switch` in
/// `get()`. `ServiceAsyncProvider.getService()` reads a ready service itself (an instance, or a
/// made `atOne` or `lazy` one, published in a `OnceCell`) and calls `get()` for everything else.
///
/// | case | state | a get |
/// | --- | --- | --- |
/// | `atOne` | `AsyncAtOneSource`: the making started with the provider | awaits that making |
/// | `lazy` | `AsyncLazySource`: the factory, the making in progress | starts or awaits an `AsyncMaking`, published once |
/// | `weak` | `AsyncWeakSource`: the last service, held weakly | starts or awaits an `AsyncMaking` when it died |
/// | `many` | `AsyncManySource`: the factory | calls the factory in the caller's task, on its executor |
/// | `scoped` | `AsyncScopedSource`: the factory; an `AsyncScopedCell` in each `ServiceScope` | reads the current scope's service, or starts or awaits its `AsyncMaking` |
/// | `sync` | a synchronous `ServiceProvider` | its get |
///
/// `AsyncMaking`, at the end, is one making in flight that any number of gets await without
/// blocking a thread.
@usableFromInline
enum AsyncServiceSource<Service: Sendable>: Sendable {
    /// An instance handed in, which the provider holds (also in its `held`).
    case holdsService(HeldService<Service>)
    case atOne(AsyncAtOneSource<Service>)
    case lazy(AsyncLazySource<Service>)
    case weak(AsyncWeakSource<Service>)
    case many(AsyncManySource<Service>)
    case scoped(AsyncScopedSource<Service>)
    case sync(ServiceProvider<Service>)

    /// The source of a provider that makes its service with `factory` as `mode` says.
    init(mode: ServiceFactoryMode, factory: @escaping AsyncFactory<Service>) {
        switch mode {
        case .atOne: self = .atOne(AsyncAtOneSource(factory: factory))
        case .lazy: self = .lazy(AsyncLazySource(factory: factory))
        case .weak: self = .weak(AsyncWeakSource(factory: factory))
        case .many: self = .many(AsyncManySource(factory: factory))
        case .scoped: self = .scoped(AsyncScopedSource(factory: factory))
        }
    }

    /// The cell where a made singleton is published, for the provider's ready read. A wrapped
    /// synchronous provider keeps its made service in its own source: its get, which reads it
    /// without suspending, goes through `get()`.
    var cell: OnceCell<Service?>? {
        switch self {
        case .atOne(let source): return source.cell
        case .lazy(let source): return source.cell
        case .holdsService, .weak, .many, .scoped, .sync: return nil
        }
    }

    /// The identity the gets and makings of a provider of this source are recorded under
    /// (`GetRecording`): the source's, which its makings are tracked under; `nil` for an
    /// instance (the provider's own) and a wrapped synchronous provider (which records its own).
    var recordingIdentity: ObjectIdentifier? {
        switch self {
        case .holdsService, .sync: nil
        case .atOne(let source): ObjectIdentifier(source)
        case .lazy(let source): ObjectIdentifier(source)
        case .weak(let source): ObjectIdentifier(source)
        case .many(let source): ObjectIdentifier(source)
        case .scoped(let source): ObjectIdentifier(source)
        }
    }

    /// The mode a graph draws a provider of this source with.
    var graphMode: ServiceGraph.Mode {
        switch self {
        case .holdsService, .atOne: .atOne
        case .lazy: .lazy
        case .weak: .weak
        case .many: .many
        case .scoped: .scoped
        case .sync(let provider): provider.source.graphMode.mode
        }
    }

    /// The service, or why it cannot be had.
    ///
    /// Specialized for the service type in the module that gets it, but not inlined into each
    /// get, like `ServiceSource.get()`: the gets of a made scoped service and of a held weak one
    /// then run in code compiled for that type.
    @inlinable @inline(never)
    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        switch self {
        case .holdsService: preconditionFailure("an async provider that holds its service has no other source")
        case .atOne(let source): return try await source.get()
        case .lazy(let source): return try await source.get()
        case .weak(let source): return try await source.get()
        case .many(let source): return try await source.get()
        case .scoped(let source): return try await source.get()
        case .sync(let provider): return try provider.getService()
        }
    }
}

// MARK: - atOne

/// The source of an `atOne` async provider: its one making starts when the provider is made,
/// and every get awaits that result. A made service is published in the provider's `OnceCell`,
/// where gets read it; an error is kept and returned by every get.
@usableFromInline
final class AsyncAtOneSource<Service: Sendable>: Sendable {
    let cell = OnceCell<Service?>()
    private let making = AsyncMaking<Service>()
    /// When the making ended (`MakingClock`), stored before the service is published.
    let madeAt = Atomic<UInt64>(0)

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    init(factory: @escaping AsyncFactory<Service>) {
        // The code that made the provider may not await its making (another factory, which
        // made it as a global's first use): a get of that factory's service from this making is
        // a wait, not a cycle (`TaskContext.startingUnawaited()`).
        making.start(
            for: ObjectIdentifier(self),
            in: TaskContext.current.startingUnawaited(),
            keeper: .atOne,
            make: { await FactoryCall.asyncResult(Service.self, factory) },
            finish: { [self] outcome in
                if case .success(let service) = outcome {
                    madeAt.store(MakingClock.tick(), ordering: .relaxed)
                    cell.publish(service)
                }
            }
        )
    }

    /// Adds the service to `made`, found at `path`, if it is made and closes; gives its making
    /// instead while it runs (it publishes the service before it keeps its outcome).
    func addMadeClosable(to made: inout [MadeService], path: String) -> RunningMaking? {
        guard making.outcome != nil else { return RunningMaking(making) }
        made.add(cell.value, madeAt: madeAt.load(ordering: .relaxed), path: path)
        return nil
    }

    @usableFromInline
    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        let context = TaskContext.current
        if let cycle = context.cycle(at: ObjectIdentifier(self), Service.self) {
            throw cycle
        }
        return try await MakingHold(making).wait(in: context).get()
    }
}

// MARK: - lazy

/// Makes the service of a `lazy` async provider on the first get and publishes it in the
/// provider's `OnceCell`. The first get starts an `AsyncMaking`; the gets that come while it
/// runs await the same making. A failed making leaves the factory in place: every waiter gets
/// the error, and the next get starts a new making. The factory is released once the service
/// is made.
///
/// A get of a made service does not come here: `ServiceAsyncProvider.getService()` reads the
/// cell.
@usableFromInline
final class AsyncLazySource<Service: Sendable>: Sendable {
    let cell = OnceCell<Service?>()
    private let state: Locked<State>

    private struct State {
        /// The factory, until the service is made.
        var factory: AsyncFactory<Service>?
        /// The making in progress.
        var making: AsyncMaking<Service>?
        /// When the making of the service ended (`MakingClock`), once it is made.
        var madeAt: UInt64 = 0
    }

    init(factory: @escaping AsyncFactory<Service>) {
        state = Locked(State(factory: factory))
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    /// Adds the service to `made`, found at `path`, if it is made and closes; gives the making
    /// that runs now instead, if any. A making publishes under the lock this looks under, so one
    /// that ended meanwhile has its service added.
    func addMadeClosable(to made: inout [MadeService], path: String) -> RunningMaking? {
        if cell.value == nil, let making = state.withLock({ $0.making }) {
            return RunningMaking(making)
        }
        // The service first: the making ticks `madeAt` and publishes the service under the
        // lock, so a service seen published has its tick there, while a tick read first could
        // be that of a service not published yet (0, closed last instead of first).
        guard let service = cell.value else { return nil }
        made.add(service, madeAt: state.withLock { $0.madeAt }, path: path)
        return nil
    }

    @usableFromInline
    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        try await AsyncMaking.obtain(
            id: ObjectIdentifier(self),
            keeper: .lazy,
            step: { isCancelled in
                state.withLock { state in
                    if let service = cell.value { return .found(service) }
                    if let making = state.making { return .wait(making) }
                    if isCancelled { return .cancelled }
                    guard let factory = state.factory else {
                        preconditionFailure("a lazy async provider lost its factory before publishing its service")
                    }
                    let making = AsyncMaking<Service>()
                    state.making = making
                    return .start(making, factory)
                }
            },
            finish: { [self] outcome in
                let released = state.withLock { state -> AsyncFactory<Service>? in
                    state.making = nil
                    guard case .success(let service) = outcome else { return nil }
                    state.madeAt = MakingClock.tick()  // before any other task can see the service
                    cell.publish(service)
                    return state.factory.take()
                }
                withExtendedLifetime(released) {}  // the factory's captures go after the lock
            }
        )
    }

    /// Whether the factory is still held (it is released once the service is made).
    var holdsFactory: Bool { state.withLock { $0.factory != nil } }
}

// MARK: - weak

/// Keeps the service of a `weak` async provider while someone holds it: a get reads it under
/// the lock; when it has died (or was never made), the get starts an `AsyncMaking`, and the gets
/// that come while it runs await the same making.
///
/// A service that is not a class instance cannot be held weakly: each making's waiters share
/// it, and the next get makes a new one.
@usableFromInline
final class AsyncWeakSource<Service: Sendable>: Sendable {
    private let factory: AsyncFactory<Service>
    @usableFromInline let state = Locked(State())

    /// Adds the service last made to `made`, found at `path`, if it is alive and closes; gives
    /// the making that runs now instead, if any (which makes a service only when the last one
    /// died).
    func addMadeClosable(to made: inout [MadeService], path: String) -> RunningMaking? {
        var running: AsyncMaking<Service>?
        let held = state.withLock { state in
            running = state.making
            return state.held
        }
        if let running {
            return RunningMaking(running)
        }
        held?.addMadeClosable(to: &made, path: path)
        return nil
    }

    @usableFromInline
    struct State: Sendable {
        /// The service last made, held weakly.
        @usableFromInline var held: ServiceHolder<Service>?
        /// The making in progress.
        var making: AsyncMaking<Service>?
    }

    init(factory: @escaping AsyncFactory<Service>) {
        self.factory = factory
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    /// Reads the service while it is held, in code compiled for its type, as the synchronous
    /// `WeakSource` does; makes a new one, or awaits the making in progress, out of line.
    @inlinable
    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        if let service = state.withLock({ $0.held?.load() }) {
            return service
        }
        return try await make()
    }

    @usableFromInline
    nonisolated(nonsending) func make() async throws(ServiceObtainError) -> Service {
        try await AsyncMaking.obtain(
            id: ObjectIdentifier(self),
            keeper: .weak,
            step: { isCancelled in
                state.withLock { state in
                    if let service = state.held?.load() { return .found(service) }
                    if let making = state.making { return .wait(making) }
                    if isCancelled { return .cancelled }
                    let making = AsyncMaking<Service>()
                    state.making = making
                    return .start(making, factory)
                }
            },
            finish: { [self] outcome in
                let replaced = state.withLock { state -> ServiceHolder<Service>? in
                    state.making = nil
                    guard case .success(let service) = outcome else { return nil }
                    defer { state.held = ServiceHolder(service, weakly: true, madeAt: MakingClock.tick()) }
                    return state.held
                }
                withExtendedLifetime(replaced) {}  // released after the lock
            }
        )
    }
}

// MARK: - many

/// Makes the service of a `many` async provider anew on every get, in the task that asks and on
/// its executor (the factory is `nonisolated(nonsending)`, unless it says `@concurrent`): the
/// factory sees that task's cancellation, and its other awaits are that task's.
@usableFromInline
final class AsyncManySource<Service: Sendable>: Sendable {
    @usableFromInline let factory: AsyncFactory<Service>
    /// What the cycle check tracks when it is not this source: the params provider whose params
    /// it binds, held as `ManySource.countsAs` is.
    @usableFromInline let countsAs: (any AnyObject & Sendable)?

    init(countsAs: (any AnyObject & Sendable)? = nil, factory: @escaping AsyncFactory<Service>) {
        self.factory = factory
        self.countsAs = countsAs
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    // Inlinable, so that the factory's call and its result are compiled for the service type:
    // only what does not depend on it (the cycle check and the task's context) is called.
    @inlinable
    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        try await Self.make(id: countsAs.map(ObjectIdentifier.init) ?? ObjectIdentifier(self), node: ObjectIdentifier(self), factory)
    }

    /// Runs `factory` in the current task with `id` being obtained.
    @inlinable
    nonisolated(nonsending) static func make(
        id: ObjectIdentifier,
        node: ObjectIdentifier? = nil,
        _ factory: nonisolated(nonsending) () async throws -> Service
    ) async throws(ServiceObtainError) -> Service {
        var made: Result<Service, ServiceObtainError>?
        try await TaskContext.whileObtaining(id, service: Service.self, node: node) {
            made = await FactoryCall.asyncResult(Service.self, factory)
        }
        return try made!.get()  // `whileObtaining` ran the body, once
    }
}

// MARK: - scoped

/// Makes the service of a `scoped` async provider once in each `ServiceScope`, as
/// `ScopedSource` does for a synchronous one: the first get in a scope starts an `AsyncMaking`
/// (whose task inherits the scope), the gets that come while it runs await it, and the scope
/// counts it, so that closing the scope waits for it.
@usableFromInline
final class AsyncScopedSource<Service: Sendable>: Sendable {
    @usableFromInline let factory: AsyncFactory<Service>

    init(factory: @escaping AsyncFactory<Service>) {
        self.factory = factory
        ServiceScope.noteUsed()
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    // Inlinable, as `ScopedSource.get()` is, so that a get of a made service finds its cell in
    // code compiled for the service type; the making stays out of line (`AsyncScopedCell`).
    @inlinable
    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        if let captive = SingletonKeeper.captiveError(getting: Service.self) {
            throw captive
        }
        guard let scope = ServiceScope.current else {
            throw .refused(Service.self, .scopeRequired(service: Service.self))
        }
        let cell = try scope.cell(for: self, service: Service.self) { AsyncScopedCell<Service>(source: self) }
        return try await cell.get(in: scope)
    }
}

/// The service of one scoped async provider in one scope.
@usableFromInline
final class AsyncScopedCell<Service: Sendable>: ScopeCell {
    /// The source, kept alive while the scope keeps this cell (see `ScopedCell`).
    let source: AsyncScopedSource<Service>
    @usableFromInline let cell = OnceCell<Service?>()
    /// The making in progress, if any.
    private let making = Locked<AsyncMaking<Service>?>(nil)

    @usableFromInline
    init(source: AsyncScopedSource<Service>) {
        self.source = source
    }

    @usableFromInline var typeBeingMade: Any.Type? {
        making.withLock { $0 == nil } ? nil : Service.self
    }

    @inlinable
    nonisolated(nonsending) func get(in scope: ServiceScope) async throws(ServiceObtainError) -> Service {
        if let service = cell.value {
            return service
        }
        return try await make(in: scope)
    }

    /// The making of the service in `scope`, or the wait for the making in progress.
    @usableFromInline
    nonisolated(nonsending) func make(in scope: ServiceScope) async throws(ServiceObtainError) -> Service {
        // Tracked under the source's identity, as `ScopedCell` does, which also says why a
        // refusal of the closed scope is reported after the lock.
        var refusedAsClosed = false
        do {
            return try scope.handingOut(await AsyncMaking.obtain(
                id: ObjectIdentifier(source),
                keeper: nil,
                step: { isCancelled in
                    making.withLock { current in
                        if let service = cell.value { return .found(service) }
                        if let other = current { return .wait(other) }
                        if isCancelled { return .cancelled }
                        guard scope.beginMaking() else {
                            refusedAsClosed = true
                            return .failed(scope.closedError(Service.self))
                        }
                        let started = AsyncMaking<Service>()
                        current = started
                        return .start(started, source.factory)
                    }
                },
                finish: { [self] outcome in
                    scope.recordMade(outcome)  // before any other task can see the service
                    making.withLock { current in
                        current = nil
                        if case .success(let service) = outcome {
                            cell.publish(service)
                        }
                    }
                    scope.endMaking()
                }
            ))
        } catch {
            if refusedAsClosed { error.reported() }
            throw error
        }
    }
}

// MARK: - Making a singleton

/// One creation of an async singleton (`atOne`, `lazy`, `weak`) or of a scoped service in one
/// scope in flight: a task of its own runs the factory, and every get that asks meanwhile
/// suspends until the result is there. No thread is blocked: a waiter is a continuation kept in
/// `waiters`, resumed once the result is handed over. Each get holds the making through a
/// `MakingHold`.
///
/// The creation does not belong to any waiter, so cancelling the task that started it (or any
/// other waiter) does not stop it: the other waiters get its result. A waiter whose task is
/// cancelled stops waiting at once, lets go of the making, and gets a `ServiceObtainError` whose
/// `error` is a `CancellationError`.
final class AsyncMaking<Service: Sendable>: Sendable {
    typealias Outcome = Result<Service, ServiceObtainError>

    /// The result, kept once the creation is over; read once `waiters` has it handed over.
    fileprivate let kept = Locked<Outcome?>(nil)
    /// The gets that wait for the result, and whether it is handed over. The task of the
    /// creation holds them, and holds this making only weakly (see `start`).
    fileprivate let waiters = MakingWaiters()
    /// The name of this making in `TaskContext` and `AsyncWaits`, which no other making takes
    /// (a `MakingClock` tick).
    let number = MakingClock.tick()

    /// The result, once the creation is over and its result handed over.
    var outcome: Outcome? {
        waiters.isHandedOver ? kept.withLock { $0 } : nil
    }

    /// Starts the creation in a task of its own, with `context` (the starter's) plus `provider`
    /// being obtained by this making, and `keeper` as the singleton it makes (`nil` for a
    /// scoped service). `make` runs the factory; `finish` hands the result to the
    /// provider's source (under its lock) before any waiter is resumed, so that a waiter that
    /// gets again finds the service.
    func start(
        for provider: ObjectIdentifier,
        in context: TaskContext,
        keeper: SingletonKeeper.Kind?,
        make: @escaping @Sendable () async -> Outcome,
        finish: @escaping @Sendable (Outcome) -> Void
    ) {
        let inner = context.entering(
            provider,
            making: number,
            keeper: keeper.map { SingletonKeeper(Service.self, $0) }
        )
        // A singleton's making runs outside the scope of the get that started it, which it does
        // not belong to: a task its factory starts sees no scope but one it opens. A scoped
        // service's making runs in its scope.
        let scope = keeper == nil ? ServiceScope.bound : nil
        // The task keeps the result in this making, which it holds weakly, and has let go of
        // both before it hands the result over, to the waiters and to every get after: once a
        // get returns the service, the task holds it only through `finish`, which holds the
        // provider's source, and this task may end after the get's caller has dropped it. A
        // `weak` source holds its service weakly, so a `weak` service dies with its last user,
        // as a synchronous one does.
        let waiters = waiters
        // While a validation or a recorder runs, the making is recorded under `provider`.
        let isRecording = GetRecording.isRecording
        let recording = isRecording ? TaskRecording.making(provider) : nil
        Task { [weak self] in
            let outcome = await ServiceScope.$bound.withValue(scope) {
                await TaskContext.with(inner) { isRecording ? await TaskRecording.run(recording, make) : await make() }
            }
            inner.end()
            finish(outcome)
            Self.keep(consume outcome, in: self)
            waiters.handOver()
        }
    }

    /// Keeps `outcome` in `making`, if a get, a source or a shutdown still holds it.
    private static func keep(_ outcome: Outcome, in making: AsyncMaking?) {
        making?.kept.withLock { $0 = outcome }
    }

    /// What a cancelled waiter gets: the error is a `CancellationError`. It is not a failure of
    /// the factory, so it is not logged.
    static var cancelled: ServiceObtainError {
        .cancelledGet(Service.self)
    }
}

/// A get's hold on the `AsyncMaking` it awaits. A get whose task is cancelled before the result
/// is handed over takes no result, and gives the making up as soon as the cancellation is seen
/// (to `MakingWaiters`, which lets go of it with the hand-over): it does not keep the result (a
/// `weak` service, say) alive until its task runs again, which may be long when its executor is
/// busy.
final class MakingHold<Service: Sendable>: Sendable {
    typealias Outcome = AsyncMaking<Service>.Outcome

    private let making: Locked<AsyncMaking<Service>?>
    private let number: UInt64
    private let waiters: MakingWaiters

    init(_ making: consuming AsyncMaking<Service>) {
        number = making.number
        waiters = making.waiters
        self.making = Locked(consume making)
    }

    /// The result of the creation, awaited by a get whose task has `context`; a cancelled task
    /// gets `cancelled` at once, and a wait that would close a loop of makings waiting for each
    /// other gets the dependency-cycle error.
    nonisolated(nonsending) func wait(in context: TaskContext) async -> Outcome {
        if waiters.isHandedOver {
            return kept()
        }
        guard let from = context.making else {
            return await suspend()
        }
        if let loop = AsyncWaits.begin(from: from, to: number, service: Service.self) {
            return .failure(ThreadContext.cycleError(along: loop, id: nil))
        }
        defer { AsyncWaits.end(from: from, to: number) }
        return await suspend()
    }

    /// Suspends until the outcome is there or the task is cancelled.
    private nonisolated(nonsending) func suspend() async -> Outcome {
        guard await waiters.wait(givingUp: giveUp) else { return .failure(AsyncMaking<Service>.cancelled) }
        return kept()
    }

    /// The result, once handed over: kept by the making, which this hold holds unless its get
    /// was cancelled first (and then never reads it).
    private func kept() -> Outcome {
        making.withLock { $0?.kept.withLock { $0 } } ?? .failure(AsyncMaking<Service>.cancelled)
    }

    /// Gives the making up, for a get cancelled before the hand-over.
    private func giveUp() -> (any AnyObject & Sendable)? {
        making.withLock { $0.take() }
    }
}

/// The gets that wait for one `AsyncMaking`, and whether its result is handed over. Once the
/// result is handed over it holds no service, so that the making's task can hold it to the end.
final class MakingWaiters: Sendable {
    private let state = Locked(State())

    private struct State {
        var isHandedOver = false
        /// The waiting gets, by the number each got.
        var waiting: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        /// Waiters whose task was cancelled before they were kept in `waiting`.
        var cancelled: Set<UInt64> = []
        /// The makings that waiters cancelled before the hand-over gave up, let go of after it
        /// by the making's task: a cancellation handler runs inside `Task.cancel()`, maybe under
        /// the locks of the task's runtime and of the caller, where a service's `deinit` must
        /// not run.
        var givenUp: [any AnyObject & Sendable] = []
        var lastWaiter: UInt64 = 0
    }

    /// Whether the result is handed over.
    var isHandedOver: Bool {
        state.withLock { $0.isHandedOver }
    }

    /// Hands the result over: every waiter is resumed, and no get waits any more.
    func handOver() {
        let (waiting, givenUp) = state.withLock { state in
            state.isHandedOver = true
            defer {
                state.waiting = [:]
                state.givenUp = []
            }
            return (Array(state.waiting.values), state.givenUp)
        }
        withExtendedLifetime(givenUp) {}  // let go of after the lock
        for waiter in waiting {
            waiter.resume(returning: true)
        }
    }

    /// Returns `true` once the result is handed over, or `false` at once when the task is
    /// cancelled first. Then, as soon as the cancellation is seen, `giveUp` gives what the
    /// waiter held for the result, which is let go of with the hand-over.
    nonisolated(nonsending) func wait(givingUp giveUp: @escaping @Sendable () -> (any AnyObject & Sendable)?) async -> Bool {
        let waiter = state.withLock { state in
            state.lastWaiter &+= 1
            return state.lastWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Bool? = state.withLock { state in
                    if state.cancelled.remove(waiter) != nil { return false }
                    if state.isHandedOver { return true }
                    state.waiting[waiter] = continuation
                    return nil
                }
                if let now {
                    continuation.resume(returning: now)
                }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                if state.isHandedOver { return nil }
                if let given = giveUp() {
                    state.givenUp.append(given)
                }
                guard let continuation = state.waiting.removeValue(forKey: waiter) else {
                    state.cancelled.insert(waiter)
                    return nil
                }
                return continuation
            }
            continuation?.resume(returning: false)
        }
    }
}

/// What a get of an async singleton does next, decided under its source's lock.
enum AsyncMakingStep<Service: Sendable> {
    /// The service is there.
    case found(Service)
    /// A making is in progress: await it.
    case wait(AsyncMaking<Service>)
    /// This get starts `making` (now the source's mark) with `factory`.
    case start(AsyncMaking<Service>, AsyncFactory<Service>)
    /// There is no service, and the task is cancelled: it neither waits nor starts a making.
    case cancelled
    /// It cannot be had now.
    case failed(ServiceObtainError)
}

extension AsyncMaking {
    /// The one way `lazy`, `weak` and scoped async services are obtained: checks for a cycle, then
    /// `step` looks at the source under its lock, given whether the task is cancelled, and
    /// either finds the service, says which making to await, or marks the source with a new
    /// making that this get starts; `finish` hands the making's result to the source.
    ///
    /// It and the waits it awaits run on the caller's executor, as the gets that call them do.
    /// Plain `async` functions, they ran on the global executor, and a get that failed went on
    /// there in an optimized build (Swift 6.3.1), off the caller's actor (`CallerExecutorTests`).
    nonisolated(nonsending) static func obtain(
        id: ObjectIdentifier,
        keeper: SingletonKeeper.Kind?,
        step: (_ isCancelled: Bool) -> AsyncMakingStep<Service>,
        finish: @escaping @Sendable (Outcome) -> Void
    ) async throws(ServiceObtainError) -> Service {
        let context = TaskContext.current
        if let cycle = context.cycle(at: id, Service.self) {
            throw cycle
        }
        switch step(Task.isCancelled) {
        case .found(let service):
            return service
        case .cancelled:
            throw cancelled
        case .failed(let error):
            throw error
        case .wait(let making):
            return try await MakingHold(consume making).wait(in: context).get()
        case .start(let making, let factory):
            // A get let in before a shutdown that began since starts no factory (the sources of
            // `lazy` and `weak` providers are shut down with them); its waiters get the refusal
            // as they get any outcome.
            let refused = ShutdownRegistry.refusesMaking(id)
            making.start(
                for: id,
                in: context,
                keeper: keeper,
                make: { @Sendable in
                    refused
                        ? .failure(ShutdownRegistry.shutDownError(Service.self))
                        : await FactoryCall.asyncResult(Service.self, factory)
                },
                finish: finish
            )
            return try await MakingHold(consume making).wait(in: context).get()
        }
    }
}
