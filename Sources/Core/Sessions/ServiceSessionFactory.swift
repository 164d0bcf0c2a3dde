/// How a ``ServiceSessionFactory``'s service is made and kept within a session.
///
/// ```swift
/// struct CartFactory: ServiceSessionFactory, Sendable {
///     let mode = ServiceSessionFactoryMode.lazy  // made on the first get in each session
///     func makeService(session: User) throws -> Cart { Cart(owner: session.id) }
/// }
/// ```
public enum ServiceSessionFactoryMode: Sendable, Hashable {
    /// Made at once for every new session (and when the provider is made); by the next get
    /// when the session was updated from inside a factory.
    case atOne
    /// Made on the first get within a session.
    case lazy
    /// Made on a get within a session when none is alive, and kept only weakly.
    case weak
}

/// A session that services can be bound to, such as a signed-in user.
///
/// Two sessions with the same `key` are the same session: services of a session seen before can
/// be activated again instead of being made anew.
///
/// ```swift
/// struct User: ServiceSession {
///     let id: String
///     var key: AnyHashable { id }
/// }
/// let mediator = ServiceSessionMediator(session: User(id: "ann"))
/// ```
public protocol ServiceSession: Sendable {
    /// What identifies the session. It is kept and compared on any thread, as the session is:
    /// make it a value of a `Sendable` type (an id, a name).
    ///
    /// The mediator reads it once for each session it is given (in its `init` and in
    /// `updateSession`), outside its locks, so a getter may read the mediator. The providers
    /// compare, hash and let go of the key they were handed under their own locks: its `==`,
    /// `hash(into:)` and `deinit` must not get services of those providers. A plain value
    /// never does.
    var key: AnyHashable { get }
}

/// A factory of singletons that are remade, or deactivated and activated again, when the
/// current session of a ``ServiceSessionMediator`` changes.
///
/// The factory is kept for the provider's whole life; `many` is not a session mode. The factory
/// and its hooks are called on the thread that gets the service or updates the session, so
/// providers take a `Sendable` factory, safe providers included.
///
/// ```swift
/// struct CartFactory: ServiceSessionFactory, Sendable {
///     let mode = ServiceSessionFactoryMode.lazy
///
///     func makeService(session: User) throws -> Cart {
///         Cart(owner: session.id)
///     }
///
///     func deactivateService(_ service: Cart, session: User) -> Bool {
///         true  // keep the cart while another user is signed in
///     }
/// }
///
/// let cart = CartFactory().serviceProvider(mediator: mediator)
/// let annsCart = try cart.getService()
/// mediator.updateSession(User(id: "bob"))  // Bob gets a cart of his own
/// mediator.updateSession(User(id: "ann"))  // try cart.getService() === annsCart
/// ```
///
/// A factory belongs to no actor: the protocol refines `SendableMetatype`, so a conformance
/// isolated to an actor (a `@MainActor` factory) is refused where it is written, and in a module
/// whose default isolation is the main actor a conforming type needs no `nonisolated`.
public protocol ServiceSessionFactory: SendableMetatype {
    /// The type of service the factory makes.
    associatedtype ServiceType
    /// The type of session the factory works with.
    associatedtype SessionType: ServiceSession

    /// How the service is made within a session.
    var mode: ServiceSessionFactoryMode { get }

    /// Makes the service for `session`, or throws why it cannot.
    func makeService(session: SessionType) throws -> ServiceType

    /// Called when `session` stops being current while `service` exists. Return `true` to keep
    /// the service for that session (it is activated again when the session comes back), or
    /// `false` to drop it. The default returns `false`.
    func deactivateService(_ service: ServiceType, session: SessionType) -> Bool

    /// Called when a service kept by `deactivateService` is used again because its `session`
    /// became current again. The default does nothing.
    func activateService(_ service: ServiceType, session: SessionType)
}

extension ServiceSessionFactory {
    /// Drops the service: it is made anew if its session comes back.
    public func deactivateService(_ service: ServiceType, session: SessionType) -> Bool {
        false
    }

    /// Does nothing.
    public func activateService(_ service: ServiceType, session: SessionType) {}
}

extension ServiceSessionFactory where Self: Sendable {
    /// A provider of this factory's service bound to `mediator`'s current session.
    ///
    /// ```swift
    /// let cart = CartFactory().serviceProvider(mediator: mediator)
    /// ```
    @inlinable
    public func serviceProvider<Session>(
        mediator: ServiceSessionMediator<Session>
    ) -> ServiceProvider<ServiceType> {
        ServiceProvider(factory: self, mediator: mediator)
    }

    /// A session-bound provider whose every get is serialized by `safeThread`.
    ///
    /// ```swift
    /// let cart = CartFactory().serviceSafeProvider(mediator: mediator, safeThread: .lock)
    /// ```
    @inlinable
    public func serviceSafeProvider<Session>(
        mediator: ServiceSessionMediator<Session>,
        safeThread kind: ServiceSafeProviderKind = .default
    ) -> ServiceSafeProvider<ServiceType> {
        ServiceSafeProvider(factory: self, mediator: mediator, safeThread: kind)
    }
}
