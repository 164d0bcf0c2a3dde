import Synchronization

/// The providers that `ServiceShutdown` shut down, by the identity of the object their gets are
/// checked under (`ShutdownProvider.shutdownKey`): a get of one fails.
///
/// A get looks here only on its slow path, which is on for good in a process once a container
/// was shut down (`GetRecording.noteShutdown()`): a get of a made service costs nothing more
/// before that. A making looks here too (`GetRecording.recordMaking`), by the identity its cycle
/// check uses, which is the key of the providers whose get goes straight to a making (a params
/// provider's maker).
///
/// **Invariant.** An identity is here only while its object lives: every class whose instances
/// can be a key tells `KeptIdentities` when it is released, which takes the identity out before
/// the object's memory can be reused by another object (`KeptIdentities` lists them). A source
/// checked under another object's identity (`ManySource.countsAs`, for a provider that
/// `convert(params:)` made) holds that object, so the identity stays its own.
///
/// **Pays for** the weak references the registry held before, one per provider shut down: a
/// weak reference gives its object a side table, whose release takes the runtime's slow path,
/// and the entries of dead objects had to be pruned as the registry grew. With them,
/// `core/shutdown, 1,000 made closable services` took 1.00–1.07 times its budget in runs of its
/// own (missing its target of 1.0; medians of 1.5–1.7 ms a container), and 0.73–0.75 times
/// (1.15–1.25 ms) without them. What it costs: a load and a branch in the release of every key,
/// about 10 instructions per `lazy` provider released (`hand-written/cold start`, which releases
/// its 200 providers, went from 868,724 instructions a container to 871,124).
@usableFromInline
enum ShutdownRegistry {
    /// The identities of the keys shut down, each with the shutdown that did it.
    private static let keys = Locked([ObjectIdentifier: ShutdownRun]())

    /// Shuts down the providers checked under `keys`, and the sources checked under `innerKeys`
    /// (`ShutdownWrapped.keys`), from now on, as `run`, which runs until `ended(_:)`. Says for
    /// each of `keys` whether it was shut down now (`false`: an earlier shutdown did, or it is
    /// listed twice), and gives the earlier shutdowns that did, which `run` waits for.
    static func add(
        _ keys: [AnyObject],
        innerKeys: [AnyObject],
        as run: ShutdownRun
    ) -> (isFresh: [Bool], earlier: [ShutdownRun]) {
        GetRecording.noteShutdown()
        return self.keys.withLock { registered in
            registered.reserveCapacity(registered.count + keys.count + innerKeys.count)
            var earlier: [ObjectIdentifier: ShutdownRun] = [:]
            let isFresh = keys.map { key in
                if let other = registered[ObjectIdentifier(key)] {
                    if other !== run { earlier[ObjectIdentifier(other)] = other }
                    return false
                }
                registered[ObjectIdentifier(key)] = run
                return true
            }
            for key in innerKeys where registered[ObjectIdentifier(key)] == nil {
                registered[ObjectIdentifier(key)] = run
            }
            return (isFresh, Array(earlier.values))
        }
    }

    /// Ends `run`: the shutdowns that wait for it go on.
    static func ended(_ run: ShutdownRun) {
        run.waiters.end(\.self)
    }

    /// Takes out the identity of a key that is being released (`KeptIdentities.released`).
    static func forget(_ key: ObjectIdentifier) {
        guard GetRecording.shutdownHappened else { return }
        keys.withLock { _ = $0.removeValue(forKey: key) }
    }

    /// Whether the provider checked under the object `key` names was shut down.
    @usableFromInline
    static func isShutDown(_ key: ObjectIdentifier) -> Bool {
        guard GetRecording.shutdownHappened else { return false }
        return keys.withLock { $0[key] != nil }
    }

    /// Fails a get of a `service` whose provider (checked under `key`) was shut down.
    static func check(_ key: AnyObject, _ service: Any.Type) throws(ServiceObtainError) {
        try check(ObjectIdentifier(key), service)
    }

    /// Fails a get of a `service` whose provider (checked under the object `key` names) was shut
    /// down.
    static func check(_ key: ObjectIdentifier, _ service: Any.Type) throws(ServiceObtainError) {
        if isShutDown(key) {
            throw shutDownError(service)
        }
    }

    /// Whether a making that a get let in before now marked as running must make nothing, as
    /// its provider, checked under the object `key` names, was shut down since: one load until a
    /// container was shut down. Asked once the making has marked its provider, so that either
    /// the shutdown's look at the provider finds the making, or this finds the shutdown.
    @inlinable
    static func refusesMaking(_ key: ObjectIdentifier) -> Bool {
        GetRecording.isOn && isShutDown(key)
    }

    /// The error of a get of `service` whose provider was shut down; it is logged.
    @usableFromInline
    static func shutDownError(_ service: Any.Type) -> ServiceObtainError {
        .refused(service, .shutDown(service: service))
    }
}

/// One call of `ServiceShutdown.close`, from the moment it shuts its providers down until its
/// closes end: a shutdown that meets providers it shut down returns only after that.
final class ShutdownRun: Sendable {
    let waiters = Locked(ClosingWaiters())
}

/// The order in which makings end, across the process: each made singleton keeps the tick its
/// making ended at, and a shutdown closes the latest first. A tick is also a name that no other
/// tick repeats: an async making takes one as its `AsyncMaking.number`.
@usableFromInline
enum MakingClock {
    private static let last = Atomic<UInt64>(0)

    /// A tick later than every one before it.
    @usableFromInline
    static func tick() -> UInt64 {
        last.add(1, ordering: .relaxed).newValue
    }
}

/// A provider that `ServiceShutdown` shuts down: its gets are refused afterwards, and the
/// services it made that close are closed.
protocol ShutdownProvider: AnyObject {
    /// The object its gets are checked under once it is shut down.
    var shutdownKey: AnyObject { get }
    /// What it wraps, if anything, shut down with it.
    var wrapped: ShutdownWrapped? { get }
    /// Adds to `made` the services it made that close and are still alive, found at `path`: not
    /// those handed in, not `many` ones, not those of scopes, not those of the providers it wraps.
    ///
    /// Gives instead the makings of its service that run now, if any: the shutdown waits for
    /// them, then asks again, also when they run past its time limit. Those of `lazy` and `weak`
    /// providers, plain and async, of an async `atOne` one, and of a session's service (a get's,
    /// an update's `atOne` one, or one an update overtook); a second call gives none of a
    /// session's.
    @discardableResult
    func addMadeClosables(to made: inout [MadeService], path: String) -> RunningMaking?
    /// The object it was handed (`ServiceProvider(_:)`), and when: a shutdown closes none, even
    /// where a factory of another provider returned it, unless a making that ended before made
    /// it.
    var handedIn: HandedIn? { get }
}

extension ShutdownProvider {
    /// Most providers wrap nothing.
    var wrapped: ShutdownWrapped? { nil }
    /// Most providers hold no service handed in.
    var handedIn: HandedIn? { nil }
}

/// The makings of a provider's service that were running when a shutdown began.
struct RunningMaking: Sendable {
    /// The service they make.
    let service: Any.Type
    /// Whether they have ended, with their service published (or failed).
    let hasEnded: @Sendable () -> Bool

    /// The makings marked by `makings`, each of which ends once its service is published
    /// (`Making.hold`): one for a `lazy` or `weak` provider; for a session's, any number.
    init(_ service: Any.Type, _ makings: [Making]) {
        self.service = service
        hasEnded = { makings.allSatisfy { $0.hasEnded.load(ordering: .acquiring) } }
    }

    /// The making of an async service, which ends once its service is published.
    init<Service>(_ making: AsyncMaking<Service>) {
        service = Service.self
        hasEnded = { making.outcome != nil }
    }

    /// Returns once every one of `makings` has ended, or once `timeout` has passed. It looks
    /// every few milliseconds: a shutdown is rare, and a making that announced its end would cost
    /// every making a look at whether a shutdown waits. Run it in a task that is not cancelled:
    /// a cancelled task's sleep would return at once, and the loop spin.
    static func end(of makings: [RunningMaking], within timeout: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause = DoublingPause(longest: .milliseconds(20))
        while !makings.allSatisfy({ $0.hasEnded() }), clock.now < deadline {
            try? await pause.sleep(atMost: deadline - clock.now)
        }
    }
}

/// An object handed to a provider, and when (`MakingClock`).
struct HandedIn {
    let object: AnyObject
    let since: UInt64

    /// The object of the service `held` holds, handed in when it began to hold it; `nil` for a
    /// service that is no object.
    init?<Service>(_ held: HeldService<Service>) {
        guard let object = objectReference(of: held.service) else { return nil }
        self.object = object
        self.since = held.since
    }
}

/// What a provider wraps (`ShutdownProvider.wrapped`).
struct ShutdownWrapped {
    /// The providers it wraps (a safe provider's inner one, the synchronous provider an async one
    /// gets from), shut down with it as providers of their own at its path: what runs in them
    /// checks their own key (the making of a session's `atOne` service when the session changes),
    /// and each closes what it made once, however many shutdowns meet it.
    var providers: [any ShutdownProvider] = []
    /// The keys of what it wraps that is no provider of its own (a recorded provider's source).
    var keys: [AnyObject] = []
}

// MARK: - The providers

extension ServiceSource {
    /// The object a get of a provider of this source is checked under after a shutdown: the
    /// source's own, or `nil` for a provider that holds its service (it is checked under
    /// itself).
    var shutdownKey: AnyObject? {
        switch self {
        case .holdsService, .madeAtOne: nil
        case .lazy(let source): source
        case .weak(let source): source
        case .many(let source): source
        case .scoped(let source): source
        case .session(let cell): cell
        case .safe(let source): source
        case .failed(let source): source
        case .recorded(let source): source
        }
    }

    /// What a provider of this source wraps (`ShutdownProvider.wrapped`).
    var wrapped: ShutdownWrapped? {
        switch self {
        case .safe(let source):
            return ShutdownWrapped(providers: [source.inner])
        case .recorded(let source):
            var wrapped = source.source.wrapped ?? ShutdownWrapped()
            if let key = source.source.shutdownKey {
                wrapped.keys.append(key)
            }
            return wrapped
        case .holdsService, .madeAtOne, .lazy, .weak, .many, .scoped, .session, .failed:
            return nil
        }
    }

    /// Adds to `made` the services this source made that close, found at `path`.
    ///
    /// Each kind's work is a function of its own, and this one only dispatches: code compiled
    /// once for all service types looks up the metadata of every generic type it holds a value
    /// of, on every call and in every case, so a `lazy` provider would pay for the optional
    /// service of an `atOne` one.
    ///
    /// Gives instead the makings of a `lazy`, `weak` or session service that run now, if any.
    @discardableResult
    func addMadeClosables(to made: inout [MadeService], path: String) -> RunningMaking? {
        switch self {
        case .madeAtOne(let held):
            Self.addHeld(held, to: &made, path: path)
            return nil
        case .lazy(let source):
            return source.addMadeClosable(to: &made, path: path)
        case .weak(let source):
            return source.addMadeClosable(to: &made, path: path)
        case .session(let cell):
            return cell.addMadeClosables(to: &made, path: path)
        case .recorded(let source):
            return source.source.addMadeClosables(to: &made, path: path)
        case .holdsService, .many, .scoped, .safe, .failed:  // a safe provider's inner one is its own
            return nil
        }
    }

    /// The object of the service a provider of this source was handed.
    var handedIn: HandedIn? {
        switch self {
        case .holdsService(let held): HandedIn(held)
        case .recorded(let source): source.source.handedIn
        case .madeAtOne, .lazy, .weak, .many, .scoped, .session, .safe, .failed: nil
        }
    }

    /// Adds the service an `atOne` provider made and holds, if it closes.
    @inline(never)
    private static func addHeld(_ held: HeldService<Service>, to made: inout [MadeService], path: String) {
        made.add(held.service, madeAt: held.since, path: path)
    }
}

extension WeakSource {
    /// Adds the service last made to `made`, found at `path`, if it is alive and closes; gives
    /// the making that runs now instead, if any (which makes a service only when the last one
    /// died).
    func addMadeClosable(to made: inout [MadeService], path: String) -> RunningMaking? {
        var running: Making?
        let held = state.withLock { state in
            running = state.making
            return state.held
        }
        if let running {
            return RunningMaking(Service.self, [running])
        }
        held?.addMadeClosable(to: &made, path: path)
        return nil
    }
}

extension ServiceProvider: ShutdownProvider {
    var shutdownKey: AnyObject { source.shutdownKey ?? self }
    var wrapped: ShutdownWrapped? { source.wrapped }

    func addMadeClosables(to made: inout [MadeService], path: String) -> RunningMaking? {
        source.addMadeClosables(to: &made, path: path)
    }

    var handedIn: HandedIn? { source.handedIn }
}

extension AsyncServiceSource {
    /// Adds to `made` the services this source made that close, found at `path`, or gives the
    /// making of an `atOne`, `lazy` or `weak` service that runs now: each kind's work is a
    /// function of its own, as for `ServiceSource`.
    func addMadeClosables(to made: inout [MadeService], path: String) -> RunningMaking? {
        switch self {
        case .atOne(let source):
            source.addMadeClosable(to: &made, path: path)
        case .lazy(let source):
            source.addMadeClosable(to: &made, path: path)
        case .weak(let source):
            source.addMadeClosable(to: &made, path: path)
        case .holdsService, .many, .scoped, .sync:  // a wrapped synchronous provider is its own
            nil
        }
    }
}

extension ServiceAsyncProvider: ShutdownProvider {
    var shutdownKey: AnyObject { self }

    /// The synchronous provider it gets from; or the source of a `lazy` or `weak` provider,
    /// whose makings check it (`AsyncMaking.obtain`).
    var wrapped: ShutdownWrapped? {
        switch source {
        case .sync(let provider): ShutdownWrapped(providers: [provider])
        case .lazy(let lazy): ShutdownWrapped(keys: [lazy])
        case .weak(let weak): ShutdownWrapped(keys: [weak])
        case .holdsService, .atOne, .many, .scoped: nil
        }
    }

    func addMadeClosables(to made: inout [MadeService], path: String) -> RunningMaking? {
        source.addMadeClosables(to: &made, path: path)
    }

    var handedIn: HandedIn? {
        guard case .holdsService(let held) = source else { return nil }
        return HandedIn(held)
    }
}

extension ServiceParamsProvider: ShutdownProvider {
    /// The maker, whose making every get runs (`GetRecording.recordMaking` checks it).
    var shutdownKey: AnyObject { maker }

    func addMadeClosables(to made: inout [MadeService], path: String) -> RunningMaking? { nil }
}

extension ServiceAsyncParamsProvider: ShutdownProvider {
    var shutdownKey: AnyObject { self }

    func addMadeClosables(to made: inout [MadeService], path: String) -> RunningMaking? { nil }
}

extension ServiceMainActorProvider: ShutdownProvider {
    /// Its services belong to the main actor and are not closed by a shutdown; its gets are
    /// refused afterwards.
    nonisolated var shutdownKey: AnyObject { self }

    nonisolated func addMadeClosables(to made: inout [MadeService], path: String) -> RunningMaking? { nil }
}
