/// A wrapper over a service that hides how it is made: at once, on first use, while used, or
/// anew each time. Store providers in your container and get services from them.
///
/// ```swift
/// let provider = LazyServiceFactory().serviceProvider()
/// let service = try provider.getService()
/// ```
///
/// Providers are thread-safe: `lazy`, `weak` and session services are made at most once even
/// when many threads ask at the same moment, and a dependency cycle fails with a
/// ``ServiceObtainError`` instead of hanging. A `many` factory is called concurrently; use a
/// ``ServiceSafeProvider`` to serialize a factory with mutable state.
public class ServiceProvider<ServiceType>: @unchecked Sendable {
    // Immutable; every case of `storage` synchronizes itself.
    @usableFromInline let storage: ProviderStorage<ServiceType>
    /// The maker of a `.many` storage, kept beside it so that a get reaches the maker through a
    /// stored reference: a get inlined into its caller then costs about what the factory call
    /// costs, where switching over the storage there would copy it (a retain and a release).
    @usableFromInline let maker: ManyServiceMaker<ServiceType>?

    @usableFromInline
    init(storage: ProviderStorage<ServiceType>) {
        self.storage = storage
        if case .many(let maker) = storage {
            self.maker = maker
        } else {
            self.maker = nil
        }
    }

    /// A provider that always gives `service` (the equivalent of an `atOne` factory).
    public convenience init(_ service: ServiceType) {
        self.init(storage: .ready(service))
    }

    /// A provider of `factory`'s service, made and kept as its `mode` says.
    public convenience init<Factory: ServiceFactory>(factory: Factory) where Factory.ServiceType == ServiceType {
        self.init(storage: .make(mode: factory.mode, factory: factory.makeService))
    }

    /// A provider of `factory`'s service that reports at once when an `atOne` factory fails.
    ///
    /// ```swift
    /// let provider = try ServiceProvider(tryFactory: SingletonServiceFactory())
    /// ```
    ///
    /// - Throws: for an `atOne` factory, the error of making the service; other modes report
    ///   their errors on get.
    public convenience init<Factory: ServiceFactory>(tryFactory factory: Factory) throws(ServiceObtainError)
    where Factory.ServiceType == ServiceType {
        self.init(storage: try .makeChecked(mode: factory.mode, factory: factory.makeService))
    }

    /// A provider of a factory whose service type may differ from `ServiceType`, such as a
    /// factory of an implementation for a provider of its protocol.
    ///
    /// ```swift
    /// let shapes = try ServiceProvider<any Shape>(castingFactory: CircleFactory())
    /// ```
    ///
    /// Each made service is cast to `ServiceType`; one that does not cast fails with
    /// `ServiceFactoryError.invalidFactory`.
    ///
    /// - Throws: for an `atOne` factory, the error of making the service (or of the cast);
    ///   other modes report their errors on get.
    public convenience init<Factory: ServiceFactory>(castingFactory factory: Factory) throws(ServiceObtainError) {
        self.init(storage: try .makeChecked(mode: factory.mode, factory: ProviderStorage.casting(factory)))
    }

    /// A provider that makes the service with a params `factory` and fixed `params` on every get.
    public convenience init<Factory: ServiceParamsFactory>(factory: Factory, params: Factory.ParamsType)
    where Factory.ServiceType == ServiceType {
        self.init(storage: .many(ManyServiceMaker { try factory.makeService(params: params) }))
    }

    /// A provider whose singleton belongs to the current session of `mediator`.
    ///
    /// When the mediator's session is not a `Factory.SessionType`, gets fail with
    /// `ServiceFactoryError.wrongSession` until the session changes to one that is.
    @inlinable
    public convenience init<Factory: ServiceSessionFactory, Session>(
        factory: Factory,
        mediator: ServiceSessionMediator<Session>
    ) where Factory.ServiceType == ServiceType {
        self.init(storage: .session(SessionServiceCell(factory: factory, mediator: mediator)))
    }

    /// A provider that makes the service with `factory`, kept as `mode` says.
    ///
    /// ```swift
    /// let provider = ServiceProvider<Settings>(mode: .lazy) { try Settings.load() }
    /// ```
    public convenience init(mode: ServiceFactoryMode, factory: @escaping () throws -> ServiceType) {
        self.init(storage: .make(mode: mode, factory: factory))
    }

    /// The service, or the ``ServiceObtainError`` saying why it cannot be had.
    @inlinable @inline(__always)
    public final func getService() throws(ServiceObtainError) -> ServiceType {
        // Not `if let`: that binding would be a copy, a retain and a release per get.
        if maker != nil {
            return try maker!.get()
        }
        return try storage.get()
    }

    /// The service or the error, as a `Result`.
    @inlinable
    public final func getServiceAsResult() -> Result<ServiceType, ServiceObtainError> {
        Result { () throws(ServiceObtainError) -> ServiceType in try getService() }
    }

    /// The service, or `nil` when it cannot be had.
    @inlinable
    public final func getServiceAsOptional() -> ServiceType? {
        try? getService()
    }

    /// The service; when it cannot be had, stops the program with the error's `fatalMessage`
    /// at `file` and `line`. Prefer it to `try!`, which loses the cause.
    @inlinable
    public final func getServiceOrFatal(file: StaticString = #file, line: UInt = #line) -> ServiceType {
        do {
            return try getService()
        } catch {
            fatalError(error.fatalMessage, file: file, line: line)
        }
    }

    /// Throws the error an `atOne` factory failed with, so that a container can check its
    /// services when it is set up; does nothing for other providers.
    public final func validateAtOneError() throws(ServiceObtainError) {
        if let error = storage.atOneError {
            throw error
        }
    }
}
