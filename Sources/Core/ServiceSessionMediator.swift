/// Holds the current session and tells the session providers bound to it when it changes.
///
/// ```swift
/// let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
/// let provider = UserServiceFactory().serviceProvider(mediator: mediator)
/// mediator.updateSession(UserSession(userId: 2))  // provider's service now belongs to user 2
/// ```
///
/// Providers subscribe weakly and unsubscribe when they are released. Subscribers are told in
/// the order they subscribed, on the thread that updates the session, after the mediator's own
/// state has changed; a factory may read `session` or get other services meanwhile.
public class ServiceSessionMediator<SessionType: ServiceSession>: @unchecked Sendable {
    typealias Observer = (SessionType, UInt64, ServiceSessionRemakePolicy) -> Void

    // Guards every stored property below.
    private let lock = ServiceLock()
    private var current: SessionType
    private var version: UInt64 = 0
    private var observers: [(id: ObjectIdentifier, notify: Observer)] = []

    /// Makes a mediator whose current session is `session`.
    public init(session: SessionType) {
        current = session
    }

    /// The current session.
    public var session: SessionType {
        lock.withLock { current }
    }

    /// Makes `session` the current one and updates every bound provider.
    ///
    /// - Parameters:
    ///   - session: the new current session.
    ///   - remakePolicy: what happens to kept services; see
    ///   ``ServiceSessionRemakePolicy``. The default is `.none`.
    public func updateSession(_ session: SessionType, remakePolicy: ServiceSessionRemakePolicy = .none) {
        let (newVersion, subscribers) = lock.withLock { () -> (UInt64, [(id: ObjectIdentifier, notify: Observer)]) in
            current = session
            version += 1
            return (version, observers)
        }
        for subscriber in subscribers {
            subscriber.notify(session, newVersion, remakePolicy)
        }
    }

    /// Subscribes `notify` under `id`; returns the session and version it starts from.
    func subscribe(id: ObjectIdentifier, notify: @escaping Observer) -> (SessionType, UInt64) {
        lock.withLock {
            observers.append((id, notify))
            return (current, version)
        }
    }

    func unsubscribe(id: ObjectIdentifier) {
        lock.withLock {
            observers.removeAll { $0.id == id }
        }
    }

    /// The number of subscribed providers, for tests and diagnostics.
    var observersCount: Int {
        lock.withLock { observers.count }
    }
}

/// A session for services that are remade on demand rather than per user: there is only ever
/// one void session.
public struct ServiceVoidSession: ServiceSession, Hashable {
    /// The same key for every void session.
    public var key: AnyHashable { AnyHashable(0) }

    /// Makes the void session.
    public init() {}
}

/// A mediator of the void session, whose `clearServices()` makes every bound provider drop
/// its service so the next get makes a new one.
public final class ServiceVoidSessionMediator: ServiceSessionMediator<ServiceVoidSession>, @unchecked Sendable {
    /// Makes a mediator of the void session.
    public init() {
        super.init(session: ServiceVoidSession())
    }

    /// Drops every service of the bound providers (`atOne` services are made again at once).
    public func clearServices() {
        updateSession(ServiceVoidSession(), remakePolicy: .clearAll)
    }
}
