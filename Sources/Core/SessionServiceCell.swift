/// Keeps the service of a session provider; the subclass binds it to a factory and mediator.
@usableFromInline
class SessionServiceCell<Service>: @unchecked Sendable {
    // What a get reads, `published` and `publishedAtOneError`, is written only under both `lock`
    // and `readLock` (through `current` and `currentAtOneError`), and read under either one:
    // the subclass under `lock`, the fast path under `readLock`.
    @usableFromInline let lock = ServiceLock()
    @usableFromInline let readLock = ServiceSpinLock()
    @usableFromInline @exclusivity(unchecked) final var published: ServiceHolder<Service>?
    @usableFromInline @exclusivity(unchecked) final var publishedAtOneError: ServiceObtainError?

    /// The service kept for the current session; read and set under `lock`.
    ///
    /// Setting it also takes `readLock`, for the time of the swap only: the replaced holder is
    /// released after `readLock`, so its service's `deinit` never runs under it.
    final var current: ServiceHolder<Service>? {
        get { published }
        set {
            var replaced = newValue
            readLock.withLock { swap(&published, &replaced) }
            withExtendedLifetime(replaced) {}
        }
    }

    /// The error of an `atOne` service that failed for the current session; read and set under
    /// `lock`, like `current`.
    final var currentAtOneError: ServiceObtainError? {
        get { publishedAtOneError }
        set {
            var replaced = newValue
            readLock.withLock { swap(&publishedAtOneError, &replaced) }
            withExtendedLifetime(replaced) {}
        }
    }

    /// The fast path, inlined so it is specialized for `Service`:
    /// try `readLock` and read the service kept for the current session (or its `atOne` error);
    /// anything else goes through the subclass to `SingletonCreation.makeLocked`.
    @inlinable
    final func get() throws(ServiceObtainError) -> Service {
        if readLock.tryLock() {
            let service = published?.load()
            let error = service == nil ? publishedAtOneError : nil
            readLock.unlock()
            if let service { return service }
            if let error { throw error }
        }
        return try make()
    }

    /// Makes the service for the current session, or fails why it cannot.
    @usableFromInline
    func make() throws(ServiceObtainError) -> Service {
        preconditionFailure("SessionServiceCell.make() must be overridden")
    }

    var atOneError: ServiceObtainError? { nil }
}

/// The session cell of a `Factory` bound to a mediator of `Session`s.
///
/// It follows the mediator: on a session change the current service is deactivated (kept for
/// that session or dropped), a service kept for the new session is activated, and an `atOne`
/// service is made at once. A mediator session that is not a `Factory.SessionType` makes every
/// get fail with `ServiceFactoryError.wrongSession` until the next change.
final class MediatedSessionCell<Factory: ServiceSessionFactory, Session: ServiceSession>:
    SessionServiceCell<Factory.ServiceType>, @unchecked Sendable
{
    typealias Service = Factory.ServiceType

    private enum State {
        /// Only between `init` and the subscription to the mediator.
        case pending
        case active(Factory.SessionType)
        case wrongSession(ServiceObtainError)
    }

    // Every stored var below, and the superclass's, is guarded by the superclass's `lock`;
    // `factory` and `mediator` never change.
    private let factory: Factory
    private let mediator: ServiceSessionMediator<Session>
    private var state: State
    private var sessionKey: AnyHashable
    private var appliedVersion: UInt64
    private var kept: [AnyHashable: ServiceHolder<Service>] = [:]

    init(factory: Factory, mediator: ServiceSessionMediator<Session>) {
        self.factory = factory
        self.mediator = mediator
        self.state = .pending
        self.sessionKey = AnyHashable(0)
        self.appliedVersion = 0
        super.init()
        let (session, version) = mediator.subscribe(id: ObjectIdentifier(self)) { [weak self] session, version, policy in
            self?.apply(session, version: version, policy: policy)
        }
        withSelfEntered {
            lock.withLock {
                // An update that raced with the subscription may have been applied already.
                guard case .pending = state else { return }
                appliedVersion = version
                start(session)
            }
        }
    }

    deinit {
        mediator.unsubscribe(id: ObjectIdentifier(self))
    }

    override func make() throws(ServiceObtainError) -> Service {
        try SingletonCreation.makeLocked(
            id: ObjectIdentifier(self),
            lock: lock,
            cached: { () throws(ServiceObtainError) -> Service? in
                if let service = current?.load() { return service }
                if let currentAtOneError { throw currentAtOneError }
                return nil
            },
            create: { () throws(ServiceObtainError) -> Service in
                try makeForCurrentSession()
            }
        )
    }

    override var atOneError: ServiceObtainError? {
        lock.withLock { currentAtOneError }
    }

    /// Makes the service for the current session and keeps it; runs under `lock`.
    private func makeForCurrentSession() throws(ServiceObtainError) -> Service {
        switch state {
        case .pending:
            preconditionFailure("a session provider was used before it subscribed to its mediator")
        case .wrongSession(let error):
            throw error
        case .active(let session):
            let service = try ServiceMaking.make(Service.self) { try factory.makeService(session: session) }
            current = ServiceHolder(service, weakly: factory.mode == .weak)
            return service
        }
    }

    /// Adopts `session` as the current one; runs under `lock`, inside `withSelfEntered`.
    private func start(_ session: Session) {
        sessionKey = session.key
        currentAtOneError = nil
        guard let typed = session as? Factory.SessionType else {
            let error = ServiceObtainError(
                service: Service.self,
                error: ServiceFactoryError.wrongSession(
                    expected: Factory.SessionType.self,
                    received: type(of: session as Any)
                )
            )
            LogRecorder.recorder.providerMakeFailure(type: Service.self, error: error)
            state = .wrongSession(error)
            if factory.mode == .atOne { currentAtOneError = error }
            return
        }
        state = .active(typed)
        if current == nil, let holder = kept.removeValue(forKey: sessionKey), let service = holder.load() {
            factory.activateService(service, session: typed)
            current = holder
        }
        if factory.mode == .atOne, current == nil {
            do throws(ServiceObtainError) {
                _ = try makeForCurrentSession()
            } catch {
                currentAtOneError = error
            }
        }
    }

    private func apply(_ session: Session, version: UInt64, policy: ServiceSessionRemakePolicy) {
        // Services this update lets go are released here, after the lock and the cycle mark,
        // so that their deinit may use this provider.
        var released: [ServiceHolder<Service>] = []
        withSelfEntered {
            lock.withLock {
                if case .pending = state {
                    // The update raced with the subscription and came first: start from it.
                    appliedVersion = version
                    start(session)
                    return
                }
                // Two updates racing on other threads may arrive out of order: keep the newest.
                guard version > appliedVersion else { return }
                appliedVersion = version
                let sameSession = session.key == sessionKey
                if sameSession, policy == .none, case .active = state,
                    let typed = session as? Factory.SessionType
                {
                    // The same session, perhaps with newer values: keep its services.
                    state = .active(typed)
                    return
                }
                switch policy {
                case .clearAll:
                    released.append(contentsOf: kept.values)
                    kept.removeAll()
                    dropCurrent(into: &released)
                case .none, .force:
                    if sameSession {
                        dropCurrent(into: &released)
                    } else {
                        deactivateCurrent(into: &released)
                    }
                    if policy == .force, let stale = kept.removeValue(forKey: session.key) {
                        released.append(stale)
                    }
                }
                start(session)
            }
        }
        released.removeAll()
    }

    /// Runs `body` with this provider marked as being obtained on this thread, so that a factory
    /// hook (`activateService`, `deactivateService`, an `atOne` make) that reaches back into it
    /// fails with a dependency cycle instead of deadlocking on its lock.
    private func withSelfEntered(_ body: () -> Void) {
        do throws(ServiceObtainError) {
            try ObtainStack.withEntered(ObjectIdentifier(self), service: Service.self) {
                () throws(ServiceObtainError) in body()
            }
        } catch {
            preconditionFailure(
                "The session of \(ServiceObtainError.name(of: Service.self)) was updated while its service "
                    + "was being made on the same thread; update sessions outside service factories"
            )
        }
    }

    private func dropCurrent(into released: inout [ServiceHolder<Service>]) {
        if let current { released.append(current) }
        current = nil
    }

    /// Hands the current service to `deactivateService` and keeps or drops it; under `lock`.
    private func deactivateCurrent(into released: inout [ServiceHolder<Service>]) {
        guard let holder = current else { return }
        current = nil
        guard let service = holder.load(), case .active(let session) = state else {
            released.append(holder)
            return
        }
        if factory.deactivateService(service, session: session) {
            kept[sessionKey] = holder
        } else {
            released.append(holder)
        }
    }
}
