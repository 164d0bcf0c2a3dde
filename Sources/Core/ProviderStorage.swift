/// How a `ServiceProvider` gets its service; the case is fixed when the provider is made.
@usableFromInline
enum ProviderStorage<Service> {
    /// An instance given to the provider, or made by an `atOne` factory.
    case ready(Service)
    /// The error of an `atOne` factory, returned on every get.
    case failed(ServiceObtainError)
    case lazy(LazyServiceCell<Service>)
    case weak(WeakServiceCell<Service>)
    case many(ManyServiceMaker<Service>)
    case session(SessionServiceCell<Service>)
    case safe(SafeServiceCell<Service>)

    /// The storage for a factory closure in `mode`; an `atOne` service is made here.
    static func make(mode: ServiceFactoryMode, factory: @escaping () throws -> Service) -> Self {
        switch mode {
        case .atOne:
            do throws(ServiceObtainError) {
                return .ready(try ServiceMaking.make(Service.self, factory))
            } catch {
                return .failed(error)
            }
        case .lazy:
            return .lazy(LazyServiceCell(factory: factory))
        case .weak:
            return .weak(WeakServiceCell(factory: factory))
        case .many:
            return .many(ManyServiceMaker(factory: factory))
        }
    }

    /// The storage for a factory closure in `mode`, or the error its `atOne` service failed with.
    static func makeChecked(mode: ServiceFactoryMode, factory: @escaping () throws -> Service) throws(ServiceObtainError)
        -> Self
    {
        let storage = make(mode: mode, factory: factory)
        if let error = storage.atOneError {
            throw error
        }
        return storage
    }

    /// A closure making `factory`'s service cast to `Service`; a service that does not cast fails
    /// with `ServiceFactoryError.invalidFactory`.
    static func casting<Factory: ServiceFactory>(_ factory: Factory) -> () throws -> Service {
        {
            let made = try factory.makeService()
            guard let service = made as? Service else {
                throw ServiceFactoryError.invalidFactory(expected: Service.self, made: type(of: made as Any))
            }
            return service
        }
    }

    @inlinable
    func get() throws(ServiceObtainError) -> Service {
        switch self {
        case .ready(let service): return service
        case .failed(let error): throw error
        case .lazy(let cell): return try cell.get()
        case .weak(let cell): return try cell.get()
        case .many(let maker): return try maker.get()
        case .session(let cell): return try cell.get()
        case .safe(let cell): return try cell.get()
        }
    }

    /// The same get, but past the serialization of a safe provider.
    func getNotSafe() throws(ServiceObtainError) -> Service {
        if case .safe(let cell) = self {
            return try cell.inner.getNotSafe()
        }
        return try get()
    }

    /// The kept error of an `atOne` service, if it failed.
    var atOneError: ServiceObtainError? {
        switch self {
        case .failed(let error): return error
        case .safe(let cell): return cell.inner.atOneError
        case .session(let cell): return cell.atOneError
        default: return nil
        }
    }
}
