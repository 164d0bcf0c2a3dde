/// A provider whose every get is serialized, `many` factories with mutable state included (a
/// get of a service already made only reads it).
///
/// It is a ``ServiceProvider``, so it can be stored and passed as one. It is also the provider
/// that takes a factory (type or closure) that is not `Sendable`, such as a class that counts
/// its calls in a `var`: the serialization is what makes calling it from several threads safe.
/// Keep such a factory's state to the factory; the compiler does not check it for you.
///
/// ```swift
/// let provider: ServiceProvider<FirstService> = FirstServiceFactory().serviceSafeProvider(safeThread: .lock)
/// ```
public final class ServiceSafeProvider<ServiceType>:
    ServiceProvider<ServiceType>, @unchecked Sendable  // restated, as Swift asks of a subclass; its let is `Sendable`
{
    /// The provider whose gets are serialized.
    let unserialized: ServiceProvider<ServiceType>

    // The designated init deliberately does not override one of the superclass: a subclass that
    // overrides all of its superclass's designated inits inherits the convenience inits, and
    // those would make unserialized providers.
    @usableFromInline
    init(serializing inner: ServiceProvider<ServiceType>, by serializer: Serializer) {
        unserialized = inner
        super.init(only: Self.madeNow(.safe(SafeSource(serializer: serializer, inner: inner)), node: nil))
    }

    @usableFromInline
    convenience init(serializing inner: ServiceProvider<ServiceType>, kind: ServiceSafeProviderKind) {
        self.init(serializing: inner, by: Serializer(kind: kind))
    }

    /// `factory`, which need not be `Sendable`, as the `Sendable` closure the inner provider's
    /// source keeps: this provider's serializer runs it one call at a time (see `Unchecked.swift`,
    /// "Values a closure captures").
    static func serialized(_ factory: @escaping () throws -> ServiceType) -> @Sendable () throws -> ServiceType {
        nonisolated(unsafe) let factory = factory
        return { try factory() }
    }

    /// A safe provider that always gives `service` (the equivalent of an `atOne` factory).
    ///
    /// ```swift
    /// let settings = ServiceSafeProvider(AppSettings())
    /// ```
    public convenience init(_ service: ServiceType, safeThread kind: ServiceSafeProviderKind = .default) {
        self.init(serializing: ServiceProvider(service), kind: kind)
    }

    /// A safe provider of `factory`'s service.
    ///
    /// ```swift
    /// let safeSettingsProvider = ServiceSafeProvider(factory: SettingsFactory(), safeThread: .lock)
    /// ```
    public convenience init<Factory: ServiceFactory>(
        factory: Factory,
        safeThread kind: ServiceSafeProviderKind = .default
    ) where Factory.ServiceType == ServiceType {
        self.init(serializing: ServiceProvider(made: factory.mode, by: Self.serialized(factory.makeService)), kind: kind)
    }

    /// A safe provider of `factory`'s service that reports at once when an `atOne` factory fails.
    ///
    /// ```swift
    /// let provider = try ServiceSafeProvider(tryFactory: SingletonServiceFactory(), safeThread: .semaphore)
    /// ```
    ///
    /// - Throws: for an `atOne` factory, the error of making the service; other modes report
    ///   their errors on get.
    public convenience init<Factory: ServiceFactory>(
        tryFactory factory: Factory,
        safeThread kind: ServiceSafeProviderKind = .default
    ) throws(ServiceObtainError) where Factory.ServiceType == ServiceType {
        let inner = ServiceProvider(made: factory.mode, by: Self.serialized(factory.makeService))
        try inner.validateAtOneError()
        self.init(serializing: inner, kind: kind)
    }

    /// A safe provider of a factory whose service type may differ from `ServiceType`; each made
    /// service is cast as `ServiceProvider(castingFactory:)` does.
    ///
    /// ```swift
    /// let shapes = try ServiceSafeProvider<any Shape>(
    ///     castingFactory: CircleFactory(),
    ///     safeThread: .lock
    /// )
    /// ```
    ///
    /// - Throws: for an `atOne` factory, the error of making the service (or of the cast).
    public convenience init<Factory: ServiceFactory>(
        castingFactory factory: Factory,
        safeThread kind: ServiceSafeProviderKind = .default
    ) throws(ServiceObtainError) {
        let inner = ServiceProvider<ServiceType>(
            made: factory.mode,
            by: Self.serialized { try ServiceProvider.cast(factory.makeService()) }
        )
        try inner.validateAtOneError()
        self.init(serializing: inner, kind: kind)
    }

    /// A safe provider made with a params `factory` and fixed `params`.
    ///
    /// ```swift
    /// let fixed = ServiceSafeProvider(
    ///     factory: SecondServiceFactory(),
    ///     params: .init(number: 1),
    ///     safeThread: .lock
    /// )
    /// ```
    public convenience init<Factory: ServiceParamsFactory>(
        factory: Factory,
        params: Factory.ParamsType,
        safeThread kind: ServiceSafeProviderKind = .default
    ) where Factory.ServiceType == ServiceType {
        let inner = ServiceProvider(source: .many(ManySource(factory: Self.serialized { try factory.makeService(params: params) })))
        self.init(serializing: inner, kind: kind)
    }

    /// A safe provider whose singleton belongs to the current session of `mediator`.
    ///
    /// ```swift
    /// let factory = CartFactory()
    /// let cart = ServiceSafeProvider(factory: factory, mediator: mediator, safeThread: .lock)
    /// ```
    @inlinable
    public convenience init<Factory: ServiceSessionFactory & Sendable, Session>(
        factory: Factory,
        mediator: ServiceSessionMediator<Session>,
        safeThread kind: ServiceSafeProviderKind = .default
    ) where Factory.ServiceType == ServiceType {
        self.init(serializing: ServiceProvider(factory: factory, mediator: mediator), kind: kind)
    }

    /// A safe provider that makes the service with `factory`, kept as `mode` says.
    ///
    /// The factory need not be `Sendable`, but it is `sending`: the provider calls it on
    /// whichever thread gets the service, one call at a time, so the compiler checks that nothing
    /// else keeps what it captures, and it belongs to no actor. A closure written in main-actor
    /// code that touches main-actor state is refused ("main actor-isolated ... can not be
    /// referenced from a nonisolated context"); such a service goes to a
    /// ``ServiceMainActorProvider``.
    ///
    /// ```swift
    /// func makeNumbers() -> ServiceSafeProvider<Int> {
    ///     let counter = Counter()  // not `Sendable`: only the provider uses it from here on
    ///     return ServiceSafeProvider<Int>(mode: .many) { counter.next() }
    /// }
    /// ```
    ///
    /// (A `let` of a script's top-level code, such as `main.swift`'s, belongs to the main actor,
    /// so such a factory is written in a function, as here.)
    public convenience init(
        mode: ServiceFactoryMode,
        safeThread kind: ServiceSafeProviderKind = .default,
        factory: sending @escaping () throws -> ServiceType
    ) {
        self.init(serializing: ServiceProvider(made: mode, by: Self.serialized(factory)), kind: kind)
    }

    /// Gets the service without the serialization, as a plain provider would: `lazy`, `weak`
    /// and session services are still made once, but a `many` factory may run concurrently.
    ///
    /// ```swift
    /// let result = safeSettingsProvider.getServiceAsResultNotSafe()  // not serialized
    /// ```
    public func getServiceAsResultNotSafe() -> Result<ServiceType, ServiceObtainError> {
        unserialized.getServiceAsResult()
    }
}
