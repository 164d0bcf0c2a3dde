import Synchronization

/// Keeps the service of a provider bound to a session mediator and follows the mediator.
///
/// ## Invariants
///
/// 1. Everything that changes is in `state` and is read or written only under its lock. That
///    lock is never held while user code runs (a factory, `deactivateService`,
///    `activateService`, a session's `key`, a service's or a session's `deinit`): the mediator
///    reads each session's key before its own lock and hands it over; what the state lets go,
///    and the strong references taken to see whether a weak service is alive
///    (`ServiceHolder.isAlive(releasedAfterLock:)`), are collected in `released` and dropped
///    after the lock. Only the keys' `==`, hashing and release run under it
///    (`ServiceSession.key` asks that they get no services).
/// 2. At most one making or switch is in progress: it is `state.making`, a `Making` whose
///    `makingLock` the thread doing it holds from the moment it sets the mark until it clears
///    it. Every other get that finds the mark waits for that lock (`Making.wait`, which fails
///    as a cycle instead of closing a loop of waits) and then looks again; a switch does so
///    once at most (see "Switching").
/// 3. A making keeps its service only if its mark is still `state.making` when it ends. An
///    update that took the mark away (`state.overtaken`) decides what becomes of the service,
///    and the thread that made it carries that out (`settle`): the service is never lost nor
///    kept twice. The making's entry stays until the service is kept or dropped, so that every
///    update applied before then, `deactivateService` included, counts.
/// 4. Updates are applied one at a time, in the mediator's order, and each only once
///    (`state.appliedVersion`); the session is the new one as soon as its update is applied.
/// 5. While a making or a switch's hooks run, this cell is on the thread's `ThreadContext`:
///    a factory or hook that asks for the same service fails as a dependency cycle.
/// 6. Every service the cell holds, once its making has ended (and an overtaken one was
///    settled), is in `current`, in `kept`, or in `switching` while a switch runs its hooks. A
///    shutdown takes them from there to close them, and sets `closedByShutdown` in the same
///    hold of the lock: a switch or a settling that sees it lets go of what it holds, with no
///    hook, and makes nothing; one that does not see it keeps its services where the shutdown
///    will find them. The flag is an atomic, so that a switch looks at it before each hook
///    without taking the lock; what a settling keeps is decided under the lock. Makings that
///    run when the shutdown first looks (a get's, an update's `atOne` one, overtaken ones) are
///    waited for before it takes the services, so that what they make is among them.
///
/// ## Making and switching
///
/// - **Making** (a get that finds no service): `obtain()` goes through
///   `SingletonMaking.obtain`, which sets the mark, runs the factory with no state lock held,
///   and publishes the service under the lock.
/// - **Switching** (`apply(_:_:)`, `.switchSession`): a switch first waits for a making in
///   progress on another thread, so that what it makes is kept and then switched like any
///   current service, unless the applying thread is itself inside a factory or hook: it may
///   hold a `makingLock` that making waits for, so it overtakes the making instead (invariant
///   3). It waits once at most: a making started meanwhile is overtaken too, so that a switch
///   ends even while other threads keep making the service. The old service is handed to
///   `deactivateService` (and kept or dropped); when a service kept for the new session must be
///   published (`activateService` gets it first), the switch sets the mark the same way until
///   it is published.
/// - **An `atOne` service of the new session** (`.makeAtOne`) is made once every provider of
///   the mediator has switched, as a get would make it: its factory gets the other session
///   services of the new session, whatever order the providers subscribed in. Not when the
///   thread that applies the update is inside a making (a factory made the update): the next
///   get makes it then.
///
/// Only `get()` is compiled where a provider is written: a get of a made service is a hot path.
/// Making and switching are compiled once, in this module.
@usableFromInline
final class SessionServiceCell<Service>: Sendable {
    // `state` guards itself; the other lets never change.
    @usableFromInline let state = Locked(SessionCellState<Service>())
    /// Whether a shutdown took the services to close them (invariant 6): set under `state`'s
    /// lock, read with or without it.
    let closedByShutdown = Atomic(false)
    let factory: any SessionFactoryCalls<Service>
    let mediator: any SessionMediating
    /// The cell's place among its mediator's subscribers: set once, at the end of `init`, and
    /// read only in `deinit` (see `Unchecked.swift`, "Set in init, read in deinit").
    nonisolated(unsafe) var subscription: SessionSubscription?

    @usableFromInline
    init<Factory: ServiceSessionFactory & Sendable, Session>(factory: Factory, mediator: ServiceSessionMediator<Session>)
    where Factory.ServiceType == Service {
        self.factory = SessionFactoryBox(factory)
        self.mediator = mediator
        var wrongSession: ServiceObtainError?
        let subscription = mediator.subscribe({ [weak self] update, step in self?.apply(update, step) }) { session, key, version in
            wrongSession = state.withLock { state in
                state.appliedVersion = version
                return state.adopt(session, key: key, as: self.factory.cast(session), factory: self.factory)
            }
        }
        self.subscription = subscription
        if let wrongSession {
            LogRecorder.recorder.providerMakeFailure(type: Service.self, error: wrongSession)
        }
        if factory.mode == .atOne {
            _ = try? obtain()
        }
    }

    deinit {
        KeptIdentities.released(self)  // its identity may be kept (`KeptIdentities`)
        if let subscription {
            mediator.unsubscribe(subscription)
        }
    }

    /// The error an `atOne` factory failed with for the current session.
    var atOneError: ServiceObtainError? {
        state.withLock { $0.atOneError }
    }

    /// Adds to `made` the services this cell made that close and are alive, found at `path`:
    /// the current session's and those kept for past sessions, also while a switch has them.
    /// Called by the shutdown of the provider, once or twice.
    ///
    /// At its first call, while makings of the service run (a get's, an update's `atOne` one,
    /// or one an update overtook), gives them instead and takes nothing: the shutdown waits for
    /// them and calls again, and what they made is current or kept by then. No making begins
    /// after that first look, which the shutdown makes once the provider is shut down: a making
    /// marks the cell under this lock, then looks whether its provider was shut down and refuses
    /// itself (`SingletonMaking.obtain`), so either this look finds the mark or the making finds
    /// the shutdown. The second call takes what there is, also when a making still runs past
    /// the time limit.
    func addMadeClosables(to made: inout [MadeService], path: String) -> RunningMaking? {
        var running: [Making] = []
        let holders = state.withLock { state -> [ServiceHolder<Service>] in
            if !state.lookedAtByShutdown {
                state.lookedAtByShutdown = true
                running = state.runningMakings
                if !running.isEmpty { return [] }
            }
            closedByShutdown.store(true, ordering: .releasing)
            return [state.current, state.switchingOld, state.switchingReactivated].compactMap { $0 } + state.kept.values
        }
        if !running.isEmpty {
            return RunningMaking(Service.self, running)
        }
        for holder in holders {
            holder.addMadeClosable(to: &made, path: path)
        }
        return nil
    }

    /// The number of services kept for past sessions, for tests.
    var keptCount: Int {
        state.withLock { $0.kept.count }
    }

    /// The service of the current session, made now if there is none.
    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        if let service = state.withLock({ $0.current?.load() }) {
            return service
        }
        return try obtain()
    }

    /// The get that found no service: makes it, or waits for the making or switch in progress.
    @usableFromInline
    func obtain() throws(ServiceObtainError) -> Service {
        try SingletonMaking.obtain(
            id: ObjectIdentifier(self),
            keeper: .session,
            handsOver: factory.mode == .weak,
            step: { making in state.withLock { $0.step(making: making) } },
            make: { session in FactoryCall.result(Service.self) { try factory.make(session) } },
            finish: { making, made in
                var released: [ServiceHolder<Service>] = []
                let overtaken = state.withLock {
                    $0.finish(making: making, made: made, mode: factory.mode, released: &released)
                }
                released.removeAll()  // after the lock
                if let overtaken {
                    settle(overtaken)
                }
                return made
            }
        )
    }

    /// Deals with a service whose making an update overtook, as that update would have dealt
    /// with it had it been made already: `deactivateService`, then kept for its session or
    /// dropped. Runs on the thread that made it, with no state lock held.
    ///
    /// The making's entry stays in `state.overtaken` until the service is kept or dropped, so
    /// that a `.clearAll` or `.force` applied while `deactivateService` runs still counts.
    func settle(_ overtaken: SessionOvertakenService<Service>) {
        let holder =
            !closedByShutdown.load(ordering: .acquiring) && factory.deactivate(overtaken.service, overtaken.session)
            ? ServiceHolder(overtaken.service, weakly: factory.mode == .weak, madeAt: MakingClock.tick()) : nil
        let refused: ServiceHolder<Service>? = state.withLock { state in
            guard let overtaking = state.overtaken.removeValue(forKey: overtaken.making) else {
                preconditionFailure("an overtaken making lost its entry before it was settled")
            }
            // Kept unless an update since asked to make it anew, its session is current again,
            // another service is kept for it, or the provider was shut down.
            guard let holder, overtaking.mayKeep, overtaking.key != state.sessionKey, state.kept[overtaking.key] == nil,
                !closedByShutdown.load(ordering: .acquiring)
            else { return holder }
            state.kept[overtaking.key] = holder
            return nil
        }
        withExtendedLifetime(refused) {}  // released after the lock
    }

    /// Applies one step of an update of the mediator; called by it, one update at a time, in
    /// order, each step after every provider took the one before.
    func apply(_ update: SessionUpdate, _ step: SessionUpdateStep) {
        switch step {
        case .switchSession:
            switchSession(update)
        case .makeAtOne:
            // As a get makes it, unless the provider was shut down (a get now would be refused,
            // and the refusal reported; the shutdown may still be waiting for other makings of
            // it), or the update came from inside a making on this thread (a factory updated the
            // session): the new service may need the one being made, and its factory would fail
            // as a cycle and keep that error for the whole session. The next get makes it then,
            // as for `lazy`.
            if factory.mode == .atOne, !ShutdownRegistry.isShutDown(ObjectIdentifier(self)), !ThreadContext.isObtainingAny {
                _ = try? obtain()
            }
        }
    }

    /// Switches to the session of `update`: deactivates the old service, activates one kept for
    /// the new session.
    func switchSession(_ update: SessionUpdate) {
        // What the update lets go is released at the end, after every lock, so that a service's
        // deinit may use this provider or update the session (that update is then queued).
        var released: [ServiceHolder<Service>] = []
        // A thread that is running a factory or a hook holds the gates of its makings: it must
        // not wait for another thread's making, which might be waiting for one of them. Any
        // other thread waits for one making at most: threads that keep making the service (a
        // `weak` one nobody holds) would otherwise start the next as soon as it waited out the
        // last, and hold the switch up for as long as they go on.
        var mayWait = !ThreadContext.isObtainingAny
        while true {
            // Held while deciding, in case the switch must mark itself.
            let plan: SessionSwitchPlan<Service> = Making.holdingOne { making in
                var plan = state.withLock {
                    $0.begin(update, making: making, mayWait: mayWait, factory: factory, released: &released)
                }
                if plan.runsHooks {
                    ThreadContext.withMarked(ObjectIdentifier(self)) {
                        runHooks(&plan, released: &released)
                    }
                    state.withLock { $0.end(plan, making: making, released: &released) }
                }
                return plan
            }
            if let other = plan.waitFor {
                // Another thread is making the service of the session that ends: it is kept, and
                // then this update deactivates it like any other. This thread is inside no
                // making the cycle check knows of (`mayWait`); should it still hold a
                // `makingLock` that making waits for, `Making.wait` refuses the loop, and the
                // `try?` goes on as after the wait. A making found after this wait is overtaken.
                try? other.wait(Service.self)
                mayWait = false
                continue
            }
            if let wrongSession = plan.wrongSession {
                LogRecorder.recorder.providerMakeFailure(type: Service.self, error: wrongSession)
            }
            break
        }
        released.removeAll()
    }

    /// The hooks of a switch: the old service is deactivated (and kept or dropped), and a
    /// service kept for the new session is activated. Once a shutdown took the cell's services
    /// to close them (invariant 6), they are dropped with no hook; it may come while a hook runs,
    /// so each step looks again.
    func runHooks(_ plan: inout SessionSwitchPlan<Service>, released: inout [ServiceHolder<Service>]) {
        func isClosed() -> Bool { closedByShutdown.load(ordering: .acquiring) }
        if let old = plan.old {
            if !isClosed(), let service = old.load(), let session = plan.oldSession,
                factory.deactivate(service, session), plan.mayKeepOld
            {
                plan.keep = old
            } else {
                released.append(old)
            }
        }
        if let kept = plan.reactivate {
            if !isClosed(), let service = kept.load(), let session = plan.newSession {
                factory.activate(service, session)
                plan.newCurrent = kept
            } else {
                released.append(kept)
            }
        }
    }
}

/// A session factory as a cell that knows only the service type sees it: the session type is
/// hidden behind `any ServiceSession`; `cast` turns a mediator's session into one the factory
/// takes, and the other calls get only sessions that `cast` gave.
protocol SessionFactoryCalls<Service>: AnyObject, Sendable {
    associatedtype Service
    var mode: ServiceSessionFactoryMode { get }
    var sessionType: Any.Type { get }
    func cast(_ session: any ServiceSession) -> (any ServiceSession)?
    func make(_ session: any ServiceSession) throws -> Service
    func deactivate(_ service: Service, _ session: any ServiceSession) -> Bool
    func activate(_ service: Service, _ session: any ServiceSession)
}

/// The `SessionFactoryCalls` of a `Factory`.
final class SessionFactoryBox<Factory: ServiceSessionFactory & Sendable>: SessionFactoryCalls {
    // Immutable. The factory is called from the threads that get the service and from the one
    // that applies session updates, as a provider calls its factory.
    let factory: Factory
    let mode: ServiceSessionFactoryMode

    init(_ factory: Factory) {
        self.factory = factory
        self.mode = factory.mode
    }

    var sessionType: Any.Type { Factory.SessionType.self }

    func cast(_ session: any ServiceSession) -> (any ServiceSession)? {
        session as? Factory.SessionType
    }

    func make(_ session: any ServiceSession) throws -> Factory.ServiceType {
        try factory.makeService(session: session as! Factory.SessionType)
    }

    func deactivate(_ service: Factory.ServiceType, _ session: any ServiceSession) -> Bool {
        factory.deactivateService(service, session: session as! Factory.SessionType)
    }

    func activate(_ service: Factory.ServiceType, _ session: any ServiceSession) {
        factory.activateService(service, session: session as! Factory.SessionType)
    }
}

/// What a switch decided under the lock, and what its hooks found.
struct SessionSwitchPlan<Service> {
    /// The service of the session that ends, to deactivate.
    var old: ServiceHolder<Service>?
    var oldSession: (any ServiceSession)?
    var oldKey: SessionKey
    /// Whether `deactivateService` may keep the old service: not for `.clearAll`, nor when
    /// the session stays the same.
    var mayKeepOld = false
    /// A service kept for the new session, to activate.
    var reactivate: ServiceHolder<Service>?
    var newSession: (any ServiceSession)?
    /// The error to log when the new session is not one the factory takes.
    var wrongSession: ServiceObtainError?
    /// Whether there are hooks to run; the switch is marked in the state then.
    var runsHooks = false
    /// A making in progress on another thread, to wait for before applying the update.
    var waitFor: Making?
    /// The values of a session with the same key that the update replaced, released after the
    /// lock (a session object's deinit must not run under it).
    var replacedSession: Result<any ServiceSession, ServiceObtainError>?
    /// The error of the `atOne` factory that the update forgets, released after the lock: what
    /// the factory threw may be an object whose deinit is user code.
    var replacedError: ServiceObtainError?

    // Found by the hooks.
    var keep: ServiceHolder<Service>?
    var newCurrent: ServiceHolder<Service>?

    init(oldKey: SessionKey) {
        self.oldKey = oldKey
    }
}

/// The key of a session, compared and kept on any thread as the session is (`UncheckedSendable`:
/// a `Sendable` session gives it).
@usableFromInline typealias SessionKey = UncheckedSendable<AnyHashable>

/// The state of a session cell, reached only through its lock.
@usableFromInline
struct SessionCellState<Service>: Sendable {
    /// The service of the current session.
    @usableFromInline var current: ServiceHolder<Service>?
    /// The current session as the factory takes it, or why it cannot; `nil` only in `init`.
    var session: Result<any ServiceSession, ServiceObtainError>?
    var sessionKey = SessionKey(AnyHashable(0))
    var appliedVersion: UInt64 = 0
    /// The error of an `atOne` factory (or of a wrong session), returned until the next update.
    var atOneError: ServiceObtainError?
    /// The making or switch in progress.
    var making: Making?
    /// The session key and session the making in progress makes the service for.
    var makingFor: (key: SessionKey, session: any ServiceSession)?
    /// The makings that updates overtook, with what those updates ask of their services.
    var overtaken: [ObjectIdentifier: SessionOvertaking] = [:]
    /// Services that `deactivateService` kept, by session key.
    var kept: [SessionKey: ServiceHolder<Service>] = [:]
    /// The services that the switch in progress took out of `current` and `kept` to run their
    /// hooks, until it puts them back or drops them: a shutdown meanwhile closes them too.
    var switchingOld: ServiceHolder<Service>?
    var switchingReactivated: ServiceHolder<Service>?
    /// The size of `kept` at which dead weak services are looked for next.
    var pruneKeptAt = 16
    /// Whether a shutdown looked for the makings that run (`addMadeClosables`).
    var lookedAtByShutdown = false

    /// The makings of the service that run now: the one marked, unless it is a switch's, and
    /// those that updates overtook.
    var runningMakings: [Making] {
        var makings = overtaken.values.map(\.making)
        if makingFor != nil, let making {
            makings.append(making)
        }
        return makings
    }

    init() {}

    /// Makes `session`, whose key is `key`, the current one; returns the error when the
    /// factory does not take it (for `atOne`, also kept as `atOneError`).
    mutating func adopt(
        _ session: any ServiceSession,
        key: SessionKey,
        as typed: (any ServiceSession)?,
        factory: any SessionFactoryCalls<Service>
    ) -> ServiceObtainError? {
        sessionKey = key
        atOneError = nil
        if let typed {
            self.session = .success(typed)
            return nil
        }
        let error = ServiceObtainError(
            service: Service.self,
            error: ServiceFactoryError.wrongSession(expected: factory.sessionType, received: type(of: session))
        )
        self.session = .failure(error)
        if factory.mode == .atOne { atOneError = error }
        return error
    }

    mutating func step(making: Making) -> MakingStep<Service, any ServiceSession> {
        if let service = current?.load() { return .found(service) }
        if let atOneError { return .failed(atOneError) }
        if let other = self.making { return .wait(other) }
        switch session {
        case .success(let session)?:
            self.making = making
            makingFor = (sessionKey, session)
            return .make(session)
        case .failure(let error)?:
            return .failed(error)
        case nil:
            preconditionFailure("a session provider was used before it subscribed to its mediator")
        }
    }

    /// Ends the making marked by `making`: keeps the service when no update came meanwhile
    /// (an `atOne` failure too). When an update overtook it, the service becomes current if its
    /// session is current again and nothing else is; otherwise it is handed back to be settled
    /// as the update would have settled it. What it lets go is added to `released`, which the
    /// caller drops after the lock.
    mutating func finish(
        making: Making,
        made: Result<Service, ServiceObtainError>,
        mode: ServiceSessionFactoryMode,
        released: inout [ServiceHolder<Service>]
    ) -> SessionOvertakenService<Service>? {
        if self.making === making {
            self.making = nil
            makingFor = nil
            switch made {
            case .success(let service): publish(service, madeBy: making, mode: mode)
            case .failure(let error):
                // Kept for every get until the next update, but for a factory stopped by the
                // cancellation of the task it ran in (an update's `atOne` making runs in the
                // updater's task): the next get makes the service.
                if mode == .atOne, !FactoryCall.stoppedByCancellation(error.error) { atOneError = error }
            }
            return nil
        }
        let id = ObjectIdentifier(making)
        guard let overtaking = overtaken[id] else { return nil }
        guard case .success(let service) = made else {
            overtaken[id] = nil
            return nil
        }
        if overtaking.mayKeep, overtaking.key == sessionKey, self.making == nil,
            current?.isAlive(releasedAfterLock: &released) != true,
            atOneError == nil, case .success = session
        {
            overtaken[id] = nil
            publish(service, madeBy: making, mode: mode)
            return nil
        }
        // The entry stays until `settle` has kept or dropped the service.
        return SessionOvertakenService(service: service, session: overtaking.session, making: id)
    }

    /// Makes `service`, which `making` made, the current one; a `weak` one, held weakly (or, a
    /// value, not held at all), is handed to the gets that waited for the making too
    /// (`Making.share(_:)`).
    mutating func publish(_ service: Service, madeBy making: Making, mode: ServiceSessionFactoryMode) {
        current = ServiceHolder(service, weakly: mode == .weak, madeAt: MakingClock.tick())
        if mode == .weak {
            making.share(service)
        }
    }

    /// Sets the state an update asks for and says which hooks to run; when there are some,
    /// marks the switch in progress with `making`.
    mutating func begin(
        _ update: SessionUpdate,
        making: Making,
        mayWait: Bool,
        factory: any SessionFactoryCalls<Service>,
        released: inout [ServiceHolder<Service>]
    ) -> SessionSwitchPlan<Service> {
        var plan = SessionSwitchPlan<Service>(oldKey: sessionKey)
        // Updates made before this provider subscribed are already in its starting session.
        guard update.version > appliedVersion else { return plan }
        let key = update.key
        let typed = factory.cast(update.session)
        if key == sessionKey, update.policy == .none, atOneError == nil, case .success = session, let typed {
            // The same session, perhaps with newer values: its service stays.
            appliedVersion = update.version
            plan.replacedSession = session
            session = .success(typed)
            return plan
        }
        if let other = self.making {
            if mayWait {
                // Wait for the making on another thread, and come back with nothing changed.
                plan.waitFor = other
                return plan
            }
            // This thread may not wait: the making is overtaken, and settled when it ends.
            if let makingFor {
                overtaken[ObjectIdentifier(other)] = SessionOvertaking(other, key: makingFor.key, session: makingFor.session)
            }
            self.making = nil
            makingFor = nil
        }
        appliedVersion = update.version
        for id in overtaken.keys {
            switch update.policy {
            case .clearAll: overtaken[id]?.cleared = true
            case .force: overtaken[id]?.forcedKeys.insert(key)
            case .none: break
            }
        }
        plan.old = current.take()
        plan.oldSession = try? session?.get()
        plan.mayKeepOld = update.policy != .clearAll && key != sessionKey
        switch update.policy {
        case .clearAll:
            released.append(contentsOf: kept.values)
            kept.removeAll()
        case .force:
            if let stale = kept.removeValue(forKey: key) { released.append(stale) }
        case .none:
            plan.reactivate = kept.removeValue(forKey: key)
        }
        pruneDeadKept(released: &released)
        plan.replacedError = atOneError
        plan.wrongSession = adopt(update.session, key: key, as: typed, factory: factory)
        plan.newSession = try? session?.get()
        plan.runsHooks = plan.old != nil || plan.reactivate != nil
        if plan.runsHooks {
            self.making = making
            switchingOld = plan.old
            switchingReactivated = plan.reactivate
        }
        return plan
    }

    /// Publishes what the hooks of a switch found and ends it.
    mutating func end(_ plan: SessionSwitchPlan<Service>, making: Making, released: inout [ServiceHolder<Service>]) {
        if let keep = plan.keep, let replaced = kept.updateValue(keep, forKey: plan.oldKey) {
            released.append(replaced)
        }
        // Gets wait for a switch, and updates come one at a time: the mark is still this one.
        precondition(self.making === making, "a session switch lost its mark")
        self.making = nil
        makingFor = nil
        switchingOld = nil
        switchingReactivated = nil
        current = plan.newCurrent
    }

    /// Forgets kept weak services that died, once `kept` has doubled since the last look, so
    /// that sessions passing by do not make it grow, at O(1) per update on average.
    mutating func pruneDeadKept(released: inout [ServiceHolder<Service>]) {
        guard kept.count >= pruneKeptAt else { return }
        for (key, holder) in kept where !holder.isAlive(releasedAfterLock: &released) {
            released.append(holder)
            kept[key] = nil
        }
        pruneKeptAt = max(16, kept.count * 2)
    }
}

/// What the updates since a session making was overtaken ask of the service it makes.
struct SessionOvertaking {
    /// The making, which a shutdown waits for (`SessionCellState.runningMakings`).
    let making: Making
    let key: SessionKey
    let session: any ServiceSession
    /// A `.clearAll` came: the service is deactivated and dropped.
    var cleared = false
    /// The keys `.force` updates made anew: a service of one of them is not kept.
    var forcedKeys: Set<SessionKey> = []

    /// Whether the service may be kept for its session: no update since asked to make it anew.
    var mayKeep: Bool { !cleared && !forcedKeys.contains(key) }

    init(_ making: Making, key: SessionKey, session: any ServiceSession) {
        self.making = making
        self.key = key
        self.session = session
    }
}

/// A service an overtaken making made, to deactivate and keep or drop.
struct SessionOvertakenService<Service> {
    let service: Service
    let session: any ServiceSession
    /// The making's key in `overtaken`, whose entry says, once the service is deactivated,
    /// whether it may be kept.
    let making: ObjectIdentifier

    init(service: Service, session: any ServiceSession, making: ObjectIdentifier) {
        self.service = service
        self.session = session
        self.making = making
    }
}
