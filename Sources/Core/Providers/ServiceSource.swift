import Synchronization

/// Where a provider gets a service it does not hold ready, and how each kind of provider keeps
/// and makes it: this file holds every kind's state and making, dispatched by one `switch` in
/// `get()`. `ServiceProvider.getService()` reads a ready service (an instance, an `atOne` one or
/// a made `lazy` one) itself and calls `get()` for everything else.
///
/// | case | state | a get |
/// | --- | --- | --- |
/// | `lazy` | `LazySource`: the factory, the cell it publishes in | makes the service once through `SingletonMaking` |
/// | `weak` | `WeakSource`: the last service, held weakly | makes a new one through `SingletonMaking` when it died |
/// | `many` | `ManySource`: the factory | calls the factory, marked on the thread for the cycle check |
/// | `scoped` | `ScopedSource`: the factory; a `ScopedCell` in each `ServiceScope` | reads the current scope's service, or makes it once through `SingletonMaking` |
/// | `session` | `SessionServiceCell` (in its own file: it follows the mediator) | reads the current session's service, or makes it |
/// | `safe` | `SafeSource`: the serializer and the inner provider | runs the inner provider's get under the serializer |
/// | `failed` | `FailedSource`: the error of an `atOne` factory | throws it |
/// | `recorded` | `RecordedSource` (`GetRecording.swift`) | records the get, then runs the inner source |
///
/// The tools they share follow: `ServiceHolder` (a service held strongly or weakly), `Making`
/// and `SingletonMaking` (one making at a time, the waits between threads), and `FactoryCall`
/// (a factory's call, its errors wrapped).
///
/// Every payload is a class instance, so the enum is one pointer, and a switch over a
/// provider's `source` borrows the payload without retaining it.
@usableFromInline
enum ServiceSource<Service>: Sendable {
    /// A provider of an instance handed in, which holds it (also in its `held`).
    case holdsService(HeldService<Service>)
    /// An `atOne` provider whose factory made its service, which it holds (also in its `held`).
    case madeAtOne(HeldService<Service>)
    case lazy(LazySource<Service?>)
    case weak(WeakSource<Service>)
    case many(ManySource<Service>)
    case scoped(ScopedSource<Service>)
    case session(SessionServiceCell<Service>)
    case safe(SafeSource<Service>)
    case failed(FailedSource<Service>)
    /// A provider made while a validation or a graph recorder ran: every get is recorded.
    case recorded(RecordedSource<Service>)

    /// The service, or why it cannot be had: compiled once per service type, not inlined
    /// where the get is written.
    @inlinable @inline(never)
    func get() throws(ServiceObtainError) -> Service {
        if GetRecording.isOn {
            try checkGet()
        }
        switch self {
        case .holdsService, .madeAtOne: preconditionFailure("a provider that holds its service has no other source")
        case .lazy(let source): return try source.get()
        case .weak(let source): return try source.get()
        case .many(let source): return try source.get()
        case .scoped(let source): return try source.get()
        case .session(let source): return try source.get()
        case .safe(let source): return try source.get()
        case .failed(let source): throw source.error
        case .recorded(let source): return try source.get()
        }
    }

    /// The slow path of a get, while a validation or a graph recorder runs or once a container
    /// was shut down: fails when the provider was shut down, and records this get under the
    /// identity of the provider's makings. What each kind answers there lives with the rest of
    /// that concern: `shutdownKey` in `Shutdown/ShutdownRegistry.swift`, `recordingIdentity` in
    /// `Diagnostics/ContainerWalk.swift`.
    @usableFromInline @inline(never)
    func checkGet() throws(ServiceObtainError) {
        if let key = shutdownKey {
            try ShutdownRegistry.check(key, Service.self)
        }
        if let identity = recordingIdentity {
            GetRecording.recordGet(of: identity, service: Service.self)
        }
    }

    /// The service a provider of this source holds, if it holds one.
    var held: HeldService<Service>? {
        switch self {
        case .holdsService(let held), .madeAtOne(let held): held
        case .lazy, .weak, .many, .scoped, .session, .safe, .failed, .recorded: nil
        }
    }

    /// The error an `atOne` factory failed with, kept for every get.
    @usableFromInline
    var atOneError: ServiceObtainError? {
        switch self {
        case .failed(let source): return source.error
        case .session(let source): return source.atOneError
        case .safe(let source): return source.inner.source.atOneError
        case .recorded(let source): return source.source.atOneError
        case .holdsService, .madeAtOne, .lazy, .weak, .many, .scoped: return nil
        }
    }
}

/// The service a provider holds (an instance handed in, or the service an `atOne` factory made)
/// and when it began to hold it (`MakingClock`): when the making ended, so that a shutdown
/// closes it in order, or when it was handed in, so that a shutdown leaves it alone where a
/// making that ended later returned it. The one allocation such a provider adds. It never
/// changes, unlike a `ServiceHolder`: the value that the cells of the other kinds keep, replace
/// and hold weakly.
///
/// An object rather than an optional of the service type in the provider: a class's `deinit`
/// runs in code compiled once for all its generic arguments, where destroying a `Service?`
/// looks up the optional's metadata, on the release of every provider, whatever it holds. A
/// reference to this object is released without any (the cold start of 200 lazy providers went
/// from 880k instructions to 798k).
@usableFromInline
final class HeldService<Service>: Sendable {
    @usableFromInline let boxed: UncheckedSendable<Service>
    @usableFromInline let since: UInt64

    @inlinable
    init(_ service: Service, since: UInt64) {
        boxed = UncheckedSendable(service)
        self.since = since
    }

    @inlinable
    var service: Service { boxed.value }
}

/// The source of an `atOne` provider whose factory failed: every get gets the error.
@usableFromInline
final class FailedSource<Service>: Sendable {
    @usableFromInline let error: ServiceObtainError

    @inlinable
    init(_ error: ServiceObtainError) {
        self.error = error
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)
}

// MARK: - lazy

/// Makes the service of a `lazy` provider on the first get and publishes it in itself, as a
/// `OnceCell` does; a failed making leaves everything as it was, and the next get tries again.
/// The factory is released once the service is made.
///
/// A get of a made service does not come here: `ServiceProvider.getService()` reads `value`,
/// through its `lazy`, which is this source.
///
/// Generic over the optional it keeps (`Service?`) rather than over the service, as `OnceCell`
/// is: a release of the source destroys `stored` without looking up `Optional<Service>`
/// (`OptionalValue` says why).
@usableFromInline
final class LazySource<Stored: OptionalValue>: Sendable {
    @usableFromInline typealias Service = Stored.Wrapped

    // The two fields of a `OnceCell`, under its invariant (`Unchecked.swift`, "OnceCell"): the
    // service is published once, under `inProgress`'s lock. Kept here rather than in a cell of
    // their own, so that a lazy provider is one object fewer to make and release.
    @usableFromInline let isSet: Atomic<Bool>
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var stored: Stored = nil
    /// The making in progress, if any; its lock also guards `factory`.
    @usableFromInline let inProgress: Locked<Making?>
    /// The factory, until the service is made: read and written only while `inProgress`'s lock is
    /// held (see `Unchecked.swift`, "A value guarded by a lock beside it").
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var factory: (@Sendable () throws -> Service)?
    /// When the making of the service ended (`MakingClock`), once it is made: written as
    /// `factory` is, before the service is published and never after, so whoever sees the
    /// service published (`value`) reads it without the lock.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var madeAt: UInt64 = 0

    // Inlinable, like the other sources' initializers: made where the provider is written, the
    // generic type it allocates (this source) has its metadata looked up once per call site
    // instead of on every provider made.
    @inlinable
    init(factory: @escaping @Sendable () throws -> Service) {
        self.isSet = Atomic(false)
        self.inProgress = Locked(nil)
        self.factory = factory
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    /// The service, or `nil` before it is made: one acquire load and a read, as `OnceCell.value`.
    @inlinable
    var value: Service? {
        isSet.load(ordering: .acquiring) ? stored.wrapped : nil
    }

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        if let service = value {
            return service
        }
        return try make()
    }

    /// The get that found no service: makes it, or waits for the making in progress.
    ///
    /// A function of its own, compiled once per service type, with `SingletonMaking.obtain`
    /// inlined into it, so that its steps are not closures called: a start-up that makes every
    /// lazy service pays them once per provider (the benchmark's cold start went from 1,004k
    /// instructions to 928k). The scoped making is one too (`ScopedCell.make(in:)`); the `weak`
    /// one is not (`SingletonMaking.obtainOutOfLine` says why).
    @inlinable @inline(never)
    func make() throws(ServiceObtainError) -> Service {
        var released: (@Sendable () throws -> Service)?
        defer { withExtendedLifetime(released) {} }  // the factory's captures go after the lock
        return try SingletonMaking.obtain(
            id: ObjectIdentifier(self),
            keeper: .lazy,
            step: { making in
                inProgress.withLock { current -> MakingStep<Service, () throws -> Service> in
                    if let service = value { return .found(service) }
                    if let other = current { return .wait(other) }
                    guard let factory else {
                        preconditionFailure("a lazy provider lost its factory before publishing its service")
                    }
                    current = making
                    return .make(factory)
                }
            },
            make: { factory in FactoryCall.result(Service.self, factory) },
            finish: { _, made in
                inProgress.withLock { current in
                    current = nil
                    if case .success(let service) = made {
                        precondition(!isSet.load(ordering: .relaxed), "a lazy service was published twice")
                        // The making's end is ticked before any other thread can see the service:
                        // a making that gets it ends later, and a shutdown closes that one first.
                        madeAt = MakingClock.tick()
                        stored = Stored(service)
                        isSet.store(true, ordering: .releasing)
                        released = factory.take()
                    }
                }
                return made
            }
        )
    }

    /// Whether the factory is still held (it is released once the service is made).
    var holdsFactory: Bool { inProgress.withLock { _ in factory != nil } }

    /// Adds the service to `made`, found at `path`, if it is made and closes; gives the making
    /// that runs now instead, if any. A making publishes under the lock this looks under, so one
    /// that ended meanwhile has its service added.
    ///
    /// It casts `stored` (a `Stored`, the optional itself, which a cast unwraps) rather than
    /// `value`: this code is compiled once for every service type, and a `Service?` would make it
    /// look up the metadata of `Optional<Service>`, about 320 instructions per provider of a
    /// shutdown (`core/shutdown, 1,000 made closable services`).
    func addMadeClosable(to made: inout [MadeService], path: String) -> RunningMaking? {
        if !isSet.load(ordering: .acquiring), let making = inProgress.withLock({ $0 }) {
            return RunningMaking(Service.self, [making])
        }
        guard isSet.load(ordering: .acquiring), let closable = stored as? any ClosableService else { return nil }
        made.append(MadeService(service: closable, type: Service.self, madeAt: madeAt, path: path))
        return nil
    }
}

// MARK: - weak

/// Keeps the service of a `weak` provider while someone holds it: a get reads it under the
/// lock; when it has died (or was never made), the get makes a new one.
///
/// A service that is not a class instance cannot be held weakly: it is made on every get.
@usableFromInline
final class WeakSource<Service>: Sendable {
    @usableFromInline let factory: @Sendable () throws -> Service
    @usableFromInline let state = Locked(State())

    @usableFromInline
    struct State: Sendable {
        /// The service last made, held weakly.
        @usableFromInline var held: ServiceHolder<Service>?
        /// The making in progress.
        @usableFromInline var making: Making?

        @inlinable
        init() {}
    }

    @inlinable
    init(factory: @escaping @Sendable () throws -> Service) {
        self.factory = factory
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        if let service = state.withLock({ $0.held?.load() }) {
            return service
        }
        var replaced: ServiceHolder<Service>?
        defer { withExtendedLifetime(replaced) {} }  // released after the lock
        return try SingletonMaking.obtainOutOfLine(
            id: ObjectIdentifier(self),
            keeper: .weak,
            handsOver: true,
            step: { making in
                state.withLock { state -> MakingStep<Service, Void> in
                    if let service = state.held?.load() { return .found(service) }
                    if let other = state.making { return .wait(other) }
                    state.making = making
                    return .make(())
                }
            },
            make: { FactoryCall.result(Service.self, factory) },
            finish: { making, made in
                state.withLock { state in
                    state.making = nil
                    if case .success(let service) = made {
                        replaced = state.held
                        state.held = ServiceHolder(service, weakly: true, madeAt: MakingClock.tick())
                    }
                }
                if case .success(let service) = made {
                    making.share(service)
                }
                return made
            }
        )
    }
}

// MARK: - many

/// Makes the service of a `many` provider anew on every get, concurrently on the threads that
/// ask (a `ServiceSafeProvider` serializes a factory with mutable state).
@usableFromInline
final class ManySource<Service>: Sendable {
    @usableFromInline let factory: @Sendable () throws -> Service
    /// What the cycle check tracks when it is not this source: the maker of the params provider
    /// whose params it binds. Held, so that no other object takes its identity while this source
    /// lives: a get is refused once that params provider was shut down (`ShutdownRegistry`).
    @usableFromInline let countsAs: (any AnyObject & Sendable)?

    @inlinable
    init(countsAs: (any AnyObject & Sendable)? = nil, factory: @escaping @Sendable () throws -> Service) {
        self.factory = factory
        self.countsAs = countsAs
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        // `countsAs.map`, not `ObjectIdentifier(countsAs ?? self)`: the latter boxes `self` as
        // the existential and retains it, 62 instructions more a get (`transient` 412 -> 474).
        let node = ObjectIdentifier(self)
        return try ThreadContext.withEntered(countsAs.map(ObjectIdentifier.init) ?? node, service: Service.self, node: node) {
            () throws(ServiceObtainError) -> Service in
            try FactoryCall.make(Service.self, factory)
        }
    }
}

// MARK: - scoped

/// Makes the service of a `scoped` provider once in each `ServiceScope`: a get finds the
/// current scope, the `ScopedCell` that scope keeps for this source, and the service in it or
/// makes it there.
///
/// A singleton whose making runs on this thread or task fails the get first, whether or not a
/// scope is current (a captive dependency); then a missing or closed scope fails it. The
/// factory runs in none of these cases.
@usableFromInline
final class ScopedSource<Service>: Sendable {
    @usableFromInline let factory: @Sendable () throws -> Service

    @inlinable
    init(factory: @escaping @Sendable () throws -> Service) {
        self.factory = factory
        ServiceScope.noteUsed()
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    // Inlinable, as the other sources' gets are: compiled where `ServiceSource.get()` is, for
    // the service type, the making of a scoped service asks for no metadata at run time.
    @inlinable
    func get() throws(ServiceObtainError) -> Service {
        if let captive = SingletonKeeper.captiveError(getting: Service.self) {
            throw captive
        }
        guard let scope = ServiceScope.current else {
            throw .refused(Service.self, .scopeRequired(service: Service.self))
        }
        return try scope.cell(for: self, service: Service.self) { ScopedCell<Service>(source: self) }.get(in: scope)
    }
}

/// The service of one scoped provider in one scope, made once however many threads ask:
/// published in a `OnceCell`, as an async `lazy` service is, and counted in the scope while it
/// is made, so that closing the scope waits for it.
@usableFromInline
final class ScopedCell<Service>: ScopeCell {
    /// The source, kept alive while the scope keeps this cell: the scope finds the cell by the
    /// source's identity, which no other source can take while this one lives.
    @usableFromInline let source: ScopedSource<Service>
    @usableFromInline let cell: OnceCell<Service?>
    /// The making in progress, if any.
    @usableFromInline let inProgress: Locked<Making?>

    @inlinable
    init(source: ScopedSource<Service>) {
        self.source = source
        cell = OnceCell()
        inProgress = Locked(nil)
    }

    @usableFromInline var typeBeingMade: Any.Type? {
        inProgress.withLock { $0 == nil } ? nil : Service.self
    }

    @inlinable @inline(__always)
    func get(in scope: ServiceScope) throws(ServiceObtainError) -> Service {
        if let service = cell.value {
            return service
        }
        return try make(in: scope)
    }

    /// The get that found no service in `scope`: makes it there, or waits for the making in
    /// progress (a function of its own, as `LazySource.make()` is).
    @inlinable @inline(never)
    func make(in scope: ServiceScope) throws(ServiceObtainError) -> Service {
        // Marked on the thread and recorded under the source's identity, the same in every scope:
        // a making of this scoped service that got it again, even in another scope, fails as a
        // cycle. A refusal of the closed scope is made under the cell's lock and reported after.
        var refusedAsClosed = false
        do {
            return try scope.handingOut(SingletonMaking.obtain(
                id: ObjectIdentifier(source),
                keeper: nil,
                step: { making in
                    inProgress.withLock { current -> MakingStep<Service, Void> in
                        if let service = cell.value { return .found(service) }
                        if let other = current { return .wait(other) }
                        guard scope.beginMaking() else {
                            refusedAsClosed = true
                            return .failed(scope.closedError(Service.self))
                        }
                        current = making
                        return .make(())
                    }
                },
                make: { FactoryCall.result(Service.self, source.factory) },
                finish: { _, made in
                    // The service joins the scope's closing order before any other thread can see
                    // it: a making that gets it ends later, and the scope closes that one first.
                    scope.recordMade(made)
                    inProgress.withLock { current in
                        current = nil
                        if case .success(let service) = made {
                            cell.publish(service)
                        }
                    }
                    scope.endMaking()
                    return made
                }
            ))
        } catch {
            if refusedAsClosed { error.reported() }
            throw error
        }
    }
}

// MARK: - safe

/// The source of a `ServiceSafeProvider`: every get of the plain provider inside it runs under
/// the serializer (`Serializer.swift`), but a get of a service the inner provider holds ready,
/// which reads it as a plain provider's get does: published once, it runs nothing to order.
@usableFromInline
final class SafeSource<Service>: Sendable {
    @usableFromInline let serializer: Serializer
    @usableFromInline let inner: ServiceProvider<Service>
    /// The source of a `lazy` inner provider, kept here as the provider keeps it: a get reads
    /// the made service through one reference less.
    @usableFromInline let innerLazy: LazySource<Service?>?

    init(serializer: Serializer, inner: ServiceProvider<Service>) {
        self.serializer = serializer
        self.inner = inner
        self.innerLazy = inner.lazy
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        if let service = readyService {
            return service
        }
        return try getSerialized()
    }

    /// A get of a service the inner provider does not hold ready, serialized. Out of line, so
    /// that a get of a made service is compiled without it.
    @inlinable @inline(never)
    func getSerialized() throws(ServiceObtainError) -> Service {
        try serializer.run(
            Service.self,
            node: innerRecordingIdentity,
            ready: { readyService },
            make: { () throws(ServiceObtainError) -> Service in try inner.getService() }
        )
    }

    /// The inner provider's `readyService`.
    @inlinable @inline(__always)
    var readyService: Service? {
        innerLazy?.value ?? inner.held?.service
    }
}

// MARK: - A kept service

/// A kept service, held strongly or weakly, with the time its making ended (`MakingClock`, for a
/// shutdown): `Sendable` whatever the service, which is boxed as every service a provider keeps
/// (`UncheckedSendable`).
@usableFromInline
struct ServiceHolder<Service>: Sendable {
    @usableFromInline
    enum Reference: Sendable {
        case strong(UncheckedSendable<Service>)
        case weak(UncheckedSendable<WeakObject>)
    }

    @usableFromInline let reference: Reference
    @usableFromInline let madeAt: UInt64

    @inlinable
    init(_ reference: Reference, madeAt: UInt64) {
        self.reference = reference
        self.madeAt = madeAt
    }

    /// Holds `service` strongly.
    @inlinable
    init(strongly service: Service, madeAt: UInt64) {
        self.init(.strong(UncheckedSendable(service)), madeAt: madeAt)
    }

    /// Holds `service` strongly, or weakly when `weakly` and it is a class instance; `nil` when
    /// it should be held weakly but cannot be (a value is then not kept at all).
    @inlinable
    init?(_ service: Service, weakly: Bool, madeAt: UInt64) {
        guard weakly else {
            self.init(strongly: service, madeAt: madeAt)
            return
        }
        guard let object = objectReference(of: service) else { return nil }
        self.init(.weak(UncheckedSendable(WeakObject(object))), madeAt: madeAt)
    }

    /// The service, if it is still alive.
    @inlinable
    func load() -> Service? {
        switch reference {
        case .strong(let service): return service.value
        case .weak(let reference):
            // Unwrapped before the cast: swiftc -O (Swift 6.3) miscompiles a generic `as?` of a
            // nil `AnyObject?` specialized to a class type into a call of
            // `swift_dynamicCastClass` on a null pointer, which crashes once the object died.
            guard let object = reference.value.object else { return nil }
            return object as? Service
        }
    }

    /// Whether the service is still alive (always, when held strongly), asked under a lock.
    ///
    /// Reading a weak reference takes a strong one. Should the service's last other user let go
    /// of it meanwhile, releasing that reference would run the service's `deinit` here, under the
    /// lock, where a `deinit` that gets the service would lock it again. So the reference is
    /// added to `released`, which the caller drops after the lock.
    func isAlive(releasedAfterLock released: inout [ServiceHolder<Service>]) -> Bool {
        guard case .weak = reference else { return true }
        guard let service = load() else { return false }
        released.append(ServiceHolder(strongly: service, madeAt: madeAt))
        return true
    }

    /// Adds the service to `made`, found at `path`, if it is alive and closes.
    func addMadeClosable(to made: inout [MadeService], path: String) {
        made.add(load(), madeAt: madeAt, path: path)
    }
}

/// A weak reference to an object: the service's object that `ServiceHolder` boxes as the service
/// it is, or a shut-down provider's (`ShutdownRegistry`). A class, so that reading one where it
/// is kept costs a retain rather than the copy of a weak reference, which is twice as slow.
@usableFromInline
final class WeakObject {
    @usableFromInline weak let object: AnyObject?

    @inlinable
    init(_ object: AnyObject) {
        self.object = object
    }
}

// MARK: - Making a singleton

/// Marks a making of a singleton (or a session switch) in progress: the thread doing it holds
/// `makingLock` from the moment it marks the provider until the service is published, its
/// factory included, and another get of the same service waits by taking that lock. It is the
/// one lock of the package held while user code runs: a safe provider's `Serializer` is held the
/// same way, by a mark of its get.
///
/// A thread waits for a making, a session switch or a serializer only through `wait(_:)`, which
/// keeps a graph of who waits for whom: a wait that would close a loop (thread 1 makes A and
/// waits for B, which thread 2 makes and waits for A) fails as a dependency cycle instead of
/// deadlocking.
@usableFromInline
final class Making: Sendable {
    @usableFromInline let makingLock = Locked(())
    /// The thread that holds `makingLock`: the one that made this mark.
    @usableFromInline let owner = ThreadContext.currentThread
    /// Set before `makingLock` is released at the end of the making (and reset when the mark is
    /// reused, by `forThisThread()`): a thread that waits for this making is about to go on,
    /// although it has not run again yet to take its wait off `waits`.
    @usableFromInline let hasEnded = Atomic<Bool>(false)
    /// Whether the making failed, with `failure` (written before `makingLock` is released): the
    /// gets that waited for it fail with its error instead of making the service again, one after
    /// the other. A failed mark that nothing else refers to is cleared when it is kept for the
    /// thread's next making; one that a waiting get still refers to is not kept, and the last of
    /// those gets frees it (`keepFailedForThisThread(_:)`).
    @usableFromInline let hasFailed = Atomic<Bool>(false)
    /// The error, once `hasFailed`.
    @usableFromInline let failure = Locked<ServiceObtainError?>(nil)

    @inlinable
    init() {}

    /// Hands `service`, which this making made and published, to the gets that wait for it now:
    /// the making of a service held weakly (a `weak` one, a session's `weak` one), which may be
    /// gone when they look for it again, as soon as this making's get let go of it (a value at
    /// once: no one holds it). Without the hand-over, each waiting get would make the service
    /// again, one after the other. An async `weak` making hands its service on the same way. Called
    /// while `makingLock` is held, before the waiting gets go on; each takes the service from
    /// its own entry in `waits` as it leaves it (a get that begins to wait later looks for the
    /// service again, as it would have without the hand-over).
    @inlinable
    func share<Service>(_ service: Service) {
        keepShared(SharedService(service))
    }

    @usableFromInline
    func keepShared(_ service: Any) {
        Self.waits.withLock { waits in
            for (thread, wait) in waits where wait.making === self {
                waits[thread]?.handed = UncheckedSendable(service)
            }
        }
    }

    /// Records that this making failed with `error`, for the gets that wait for it.
    @usableFromInline
    func fail(with error: ServiceObtainError) {
        failure.withLock { $0 = error }
        hasFailed.store(true, ordering: .releasing)
    }

    /// Records that this making failed with `error` (`fail(with:)`), for the gets that wait for
    /// it, unless its factory stopped because its get's task was cancelled: that is not the
    /// waiting gets' cancellation (a `CancellationError` thrown where no task was cancelled is a
    /// failure like any other, as `FactoryCall` says). Out of line: inlined into the code of
    /// every making, the check cost the cold start of 200 `lazy` providers 3,200 instructions.
    @usableFromInline @inline(never)
    func failUnlessCancelled(_ error: ServiceObtainError) {
        if !FactoryCall.stoppedByCancellation(error.error) {
            fail(with: error)
        }
    }

    /// The error this making failed with, once it has ended; `nil` when it did not fail.
    @usableFromInline
    var endedFailure: ServiceObtainError? {
        hasFailed.load(ordering: .acquiring) ? failure.withLock { $0 } : nil
    }

    /// A mark for a making of this thread: the mark of its last making when nothing else
    /// refers to it any more, or a new one. Hand it back with `keepForThisThread(_:)` once the
    /// making is over; `holdingOne(_:)` does both around a making.
    ///
    /// **Invariant.** A mark is reused only when this thread holds the one reference to it: no
    /// cell marks it (a cell clears its mark when the making ends) and no thread waits for it or
    /// walks to it (a waiter holds a reference, and a walker reaches a mark only through a
    /// waiter's), no shutdown waits for it (`RunningMaking` holds a reference too), and no
    /// session cell names it as overtaken (its `overtaken` entry, which holds the mark, goes in
    /// the making's own `finish` or `settle`, both inside `hold`). No other thread can see it
    /// reset, and its `owner` is still this thread.
    ///
    /// The thread keeps one spare: a making inside another takes a new mark when the outer one
    /// holds the spare, and the outer mark is the one kept when both end. Makings one after the
    /// other (a start-up that gets its services in order, a request's scoped services) reuse one
    /// mark; a chain made depth first allocates a mark per level below its first.
    ///
    /// **Pays for** the allocation and release of a mark on every making: `hand-written/cold
    /// start, 200 lazy providers` costs 869,000 instructions a container instead of 928,000,
    /// and `core/request scope, 1 scoped service got twice` 6,728 instead of 7,008.
    @inlinable
    static func forThisThread() -> Making {
        let context = ThreadContext.current
        if var spare = context.pointee.spareMaking.take(), isKnownUniquelyReferenced(&spare) {
            spare.hasEnded.store(false, ordering: .relaxed)
            return spare
        }
        return Making()
    }

    /// Keeps `making`, whose making is over, for this thread's next making; a mark that failed
    /// goes through `keepFailedForThisThread(_:)`, so that a spare never holds an error.
    @inlinable
    static func keepForThisThread(_ making: consuming Making) {
        if making.hasFailed.load(ordering: .relaxed) {
            keepFailedForThisThread(making)
            return
        }
        ThreadContext.current.pointee.spareMaking = making
    }

    /// Keeps `making`, which failed, for this thread's next making without its error, or not at
    /// all while the gets that waited for it may still read the error (they hold a reference to
    /// it, and the last of them releases it).
    ///
    /// A spare that kept its `failure` until the thread's next making kept the factory's error,
    /// and whatever that error holds, alive after the provider and every get had let go of it:
    /// on a thread that makes nothing again, for as long as the thread lives. Out of line: only
    /// a failed making comes here.
    @usableFromInline @inline(never)
    static func keepFailedForThisThread(_ making: consuming Making) {
        var making = making
        guard isKnownUniquelyReferenced(&making) else { return }
        making.hasFailed.store(false, ordering: .relaxed)
        making.failure.withLock { $0 = nil }
        ThreadContext.current.pointee.spareMaking = making
    }

    /// Runs `body`, a making or a session switch of this thread, holding a mark taken with
    /// `forThisThread()` as `hold(_:)` holds it, then keeps the mark for the thread's next making.
    @inlinable
    static func holdingOne<Result>(_ body: (Making) -> Result) -> Result {
        let making = forThisThread()
        let result = making.hold { body(making) }
        keepForThisThread(consume making)
        return result
    }

    /// Runs `attempt` holding a mark of this thread (`holdingOne`) until it finds a value or
    /// fails; when it finds another making in progress, waits for that making (a wait that would
    /// close a loop fails as a cycle for `Service`, recorded against `node`) and tries again, or,
    /// when `sharesFailures` and that making failed, fails with its error, or, when
    /// `takesService` and that making handed its service to the gets that waited (`share(_:)`),
    /// gives that service. The loop of every making (which shares failures) and serialized get
    /// (which does not: each get is a making of its own). `takesService` is a constant of each
    /// caller: the makings of services held strongly, which a waiting get finds where they were
    /// published, leave it `false`, and their code has no trace of it.
    @inlinable @inline(__always)
    static func untilDone<Service, Value>(
        _ service: Service.Type,
        node: @autoclosure () -> ObjectIdentifier? = nil,
        sharesFailures: Bool = false,
        takesService: Bool = false,
        _ attempt: (Making) -> MakingStep<Value, Never>
    ) throws(ServiceObtainError) -> Value {
        while true {
            switch holdingOne(attempt) {
            case .found(let value): return value
            case .failed(let error): throw error
            case .wait(let other):
                if takesService {
                    let handed = try other.waitTakingService(Service.self, node: node())
                    if sharesFailures, let error = other.endedFailure {
                        throw error
                    }
                    if let handed = handed as? SharedService<Value> {
                        return handed.service
                    }
                } else {
                    try other.wait(Service.self, node: node())
                    if sharesFailures, let error = other.endedFailure {
                        throw error
                    }
                }
            }
        }
    }

    /// The making each waiting thread waits for, and the service it makes, by thread; with the
    /// service the making handed to that thread's get, once it did (`share(_:)`).
    private static let waits = Locked<[Int: Wait]>([:])

    /// What a waiting thread waits for.
    private struct Wait: Sendable {
        let making: Making
        let service: Any.Type
        /// A `SharedService`, once the making handed it over.
        var handed: UncheckedSendable<Any>?
    }

    /// How many threads wait for a making of `service` now, for tests.
    static func waitingThreadCount(for service: Any.Type) -> Int {
        waits.withLock { $0.values.count { $0.service == service } }
    }

    /// Runs `body`, the making (or the session switch) this mark stands for, holding
    /// `makingLock`, and marks it ended before releasing the lock.
    @inlinable
    func hold<Result>(_ body: () -> Result) -> Result {
        makingLock.withLock { _ in
            defer { hasEnded.store(true, ordering: .releasing) }
            return body()
        }
    }

    /// Waits until this making is over.
    ///
    /// - Throws: a dependency cycle when its owner waits, directly or through other threads,
    ///   for a making of this thread: waiting would never end. A making that has ended holds no
    ///   one up, so a chain that reaches one is no loop. The error's path goes from `Service`
    ///   along the services the other threads wait for, to the one this thread makes
    ///   (`ThreadContext.cycleError(along:id:)`); the cycle is recorded against `node` when one
    ///   is given.
    @usableFromInline
    func wait<Service>(_ service: Service.Type, node: ObjectIdentifier? = nil) throws(ServiceObtainError) {
        _ = try waitThenTake(Service.self, node: node)
    }

    /// `wait`, then the service the making handed to this get (`share(_:)`), a `SharedService`;
    /// `nil` when it handed none. A function of its own, so that the waits of makings that hand
    /// nothing over compile as before.
    @usableFromInline
    func waitTakingService<Service>(_ service: Service.Type, node: ObjectIdentifier? = nil) throws(ServiceObtainError)
        -> Any?
    {
        try waitThenTake(Service.self, node: node)
    }

    private func waitThenTake<Service>(_ service: Service.Type, node: ObjectIdentifier?) throws(ServiceObtainError)
        -> Any?
    {
        let thread = ThreadContext.currentThread
        let loop: [Any.Type]? = Self.waits.withLock { waits in
            guard let length = loopLength(from: thread, in: waits) else {
                waits[thread] = Wait(making: self, service: Service.self)
                return nil
            }
            // Only a wait that closes a loop builds its path, walking the loop again.
            var services: [Any.Type] = [Service.self]
            var making = self
            for _ in 0..<length {
                let next = waits[making.owner]!  // on the loop just walked
                services.append(next.service)
                making = next.making
            }
            return services
        }
        if let loop {
            throw ThreadContext.cycleError(along: loop, id: node)
        }
        makingLock.withLock { _ in }
        return Self.waits.withLock { $0.removeValue(forKey: thread)?.handed?.value }
    }

    /// The number of waits of other threads from this making to a making of `thread`, when
    /// there is such a loop; `nil` when the chain of waits ends first.
    private func loopLength(from thread: Int, in waits: [Int: Wait]) -> Int? {
        var making = self
        var length = 0
        while !making.hasEnded.load(ordering: .acquiring) {
            if making.owner == thread {
                return length
            }
            guard let next = waits[making.owner] else {
                return nil
            }
            making = next.making
            length += 1
        }
        return nil
    }
}

/// A service a making handed to the gets that waited for it (`Making.share(_:)`), boxed with its
/// type, so that a get takes it only as the type it asked for.
@usableFromInline
struct SharedService<Service> {
    @usableFromInline let service: Service

    @inlinable
    init(_ service: Service) {
        self.service = service
    }
}

/// What a get of a kept singleton does next, decided under its cell's lock.
@usableFromInline
enum MakingStep<Service, Input> {
    /// The service is there.
    case found(Service)
    /// It cannot be had now.
    case failed(ServiceObtainError)
    /// Another making or switch is in progress: wait for its `makingLock`, then look again.
    case wait(Making)
    /// This get makes the service from `Input`: its `Making` is now the cell's mark.
    case make(Input)
}

/// The one way a get makes a `lazy`, `weak`, scoped or session service: at most once at a
/// time, with only the making's own `makingLock` held while the factory runs (no provider's
/// state lock, which every get of that provider takes), and never by a thread that is already
/// making the same service (a dependency cycle).
@usableFromInline
enum SingletonMaking {
    /// Enters the cycle check, then loops: `step` looks at the cell under its lock and either
    /// finds the service, fails, says to wait for the making in progress, or marks the cell with
    /// this get's `Making` (whose `makingLock` this get holds) and hands over what `make`
    /// needs; `make` runs the factory with no state lock held; `finish` publishes the result under the
    /// cell's lock (or not, when an update overtook the making) and clears the mark.
    ///
    /// `id` is the object the provider's gets are checked under after a shutdown (its source or
    /// cell): a get makes nothing once it was shut down. `keeper` names the singleton this making
    /// makes, for the captive-dependency check; `nil` for the making of a scoped service.
    /// `handsOver` says that `finish` hands a service it published to the gets that waited
    /// (`Making.share(_:)`), which take it: the makings of services held weakly.
    ///
    /// Always inlined, so that `step`, `make` and `finish` run as code of the caller rather
    /// than as closures called: call it from a function that holds nothing else (a making of
    /// its own), or call `obtainOutOfLine`.
    @inlinable @inline(__always)
    static func obtain<Service, Input>(
        id: ObjectIdentifier,
        keeper: SingletonKeeper.Kind?,
        handsOver: Bool = false,
        step: (Making) -> MakingStep<Service, Input>,
        make: (Input) -> Result<Service, ServiceObtainError>,
        finish: (Making, Result<Service, ServiceObtainError>) -> Result<Service, ServiceObtainError>
    ) throws(ServiceObtainError) -> Service {
        try ThreadContext.withEntered(id, service: Service.self) { () throws(ServiceObtainError) -> Service in
            try Making.untilDone(Service.self, sharesFailures: true, takesService: handsOver) { making in
                switch step(making) {
                case .found(let service): return .found(service)
                case .failed(let error): return .failed(error)
                case .wait(let other): return .wait(other)
                case .make(let input):
                    // A get let in before a shutdown that began since (or one that waited for a
                    // making and found no service) makes nothing.
                    let made: Result<Service, ServiceObtainError> =
                        if ShutdownRegistry.refusesMaking(id) {
                            .failure(ShutdownRegistry.shutDownError(Service.self))
                        } else if let keeper {
                            ThreadContext.withKeeper(SingletonKeeper(Service.self, keeper)) { make(input) }
                        } else {
                            make(input)
                        }
                    // `input` (a session) is kept until `finish` has returned: should `finish`
                    // let go of the cell's last other reference to it, under the cell's lock,
                    // the session's `deinit` runs after the lock, not under it.
                    switch withExtendedLifetime(input, { finish(making, made) }) {
                    case .success(let service): return .found(service)
                    case .failure(let error):
                        // A cycle is not handed on: each waiting get meets it itself, along its
                        // own path.
                        if !error.isDependencyCycle {
                            making.failUnlessCancelled(error)
                        }
                        return .failed(error)
                    }
                }
            }
        }
    }

    /// `obtain`, compiled once per service type and called: the making of a `weak` service,
    /// which stays inside `ServiceSource.get()`. Were it a function of its own like the `lazy`
    /// and scoped makings, the copies of `ServiceSource.get()` for two class types would differ
    /// in so few constants that the compiler would merge them behind a thunk: a `many` get
    /// would cost 423 instructions instead of 404.
    @inlinable @inline(never)
    static func obtainOutOfLine<Service, Input>(
        id: ObjectIdentifier,
        keeper: SingletonKeeper.Kind?,
        handsOver: Bool = false,
        step: (Making) -> MakingStep<Service, Input>,
        make: (Input) -> Result<Service, ServiceObtainError>,
        finish: (Making, Result<Service, ServiceObtainError>) -> Result<Service, ServiceObtainError>
    ) throws(ServiceObtainError) -> Service {
        try obtain(id: id, keeper: keeper, handsOver: handsOver, step: step, make: make, finish: finish)
    }
}

// MARK: - Calling a factory

/// Calls a factory and turns whatever it throws into a `ServiceObtainError` for `Service`.
///
/// A `ServiceObtainError` thrown by a nested get gets `Service` added in front of its path; any
/// other error starts a new path and is reported to the registered `ProvidersLogger`s, except a
/// `CancellationError` thrown while the task is cancelled: a factory that stops because the get's
/// task was cancelled has not failed. (A factory runs in the get's task, or in the making's own
/// task, which nothing cancels: a `CancellationError` from elsewhere is still reported there.)
@usableFromInline
enum FactoryCall {
    @inlinable
    static func make<Service>(
        _ service: Service.Type,
        _ factory: () throws -> Service
    ) throws(ServiceObtainError) -> Service {
        do {
            return try factory()
        } catch {
            throw wrap(error, service: Service.self)
        }
    }

    /// `make` as a `Result`.
    @inlinable
    static func result<Service>(
        _ service: Service.Type,
        _ factory: () throws -> Service
    ) -> Result<Service, ServiceObtainError> {
        do throws(ServiceObtainError) {
            return .success(try make(Service.self, factory))
        } catch {
            return .failure(error)
        }
    }

    /// `result` for an async factory.
    @inlinable
    nonisolated(nonsending) static func asyncResult<Service>(
        _ service: Service.Type,
        _ factory: nonisolated(nonsending) () async throws -> Service
    ) async -> Result<Service, ServiceObtainError> {
        do {
            return .success(try await factory())
        } catch {
            return .failure(wrap(error, service: Service.self))
        }
    }

    @usableFromInline
    static func wrap(_ error: any Error, service: Any.Type) -> ServiceObtainError {
        if let nested = error as? ServiceObtainError {
            return nested.withAddedToPath(service: service)
        }
        let obtainError = ServiceObtainError(service: service, error: error)
        if !stoppedByCancellation(error) {
            LogRecorder.recorder.providerMakeFailure(type: service, error: obtainError)
        }
        return obtainError
    }

    /// Whether a factory that threw `error` stopped because the task it ran in was cancelled: it
    /// has not failed, so its making hands nothing on, keeps nothing and reports nothing.
    static func stoppedByCancellation(_ error: any Error) -> Bool {
        error is CancellationError && Task.isCancelled
    }
}
