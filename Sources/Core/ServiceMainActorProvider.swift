/// A provider of a service that belongs to the main actor: it is made on the main actor and got
/// there, and code elsewhere must `await` it. The compiler checks both, since the provider
/// itself is isolated to the main actor.
///
/// ```swift
/// let viewModels = ProfileViewModelFactory().serviceMainActorProvider()
///
/// @MainActor func showProfile() throws {
///     let model = try viewModels.getService()  // on the main actor: no await
/// }
///
/// func prefetchProfile() async throws {
///     let model = try await viewModels.getService()  // elsewhere: hops to the main actor
/// }
/// ```
///
/// The provider is `Sendable` whatever its service, as every main-actor type is: it can sit in
/// a container shared by any thread. A service that is not `Sendable` stays on the main actor:
/// the compiler refuses to hand it to code elsewhere.
///
/// The modes are those of ``ServiceProvider``; the main actor runs one get at a time, so a
/// `lazy` or `weak` service is made once without any lock. A factory that gets its own service
/// again fails with `ServiceFactoryError.dependencyCycle`.
@MainActor
public final class ServiceMainActorProvider<ServiceType> {
    private var state: State

    private enum State {
        case ready(ServiceType)
        case failed(ServiceObtainError)
        case lazy(() throws -> ServiceType)
        case weak(() throws -> ServiceType, ServiceHolder<ServiceType>?)
        case many(() throws -> ServiceType)
    }

    /// A provider that always gives `service`.
    public init(_ service: ServiceType) {
        state = .ready(service)
    }

    /// A provider of `factory`'s service, made and kept as its `mode` says.
    public convenience init<Factory: ServiceMainActorFactory>(factory: Factory)
    where Factory.ServiceType == ServiceType {
        self.init(mode: factory.mode) { try factory.makeService() }
    }

    /// A provider that makes the service with `factory` on the main actor, kept as `mode` says;
    /// an `atOne` service is made here.
    ///
    /// ```swift
    /// let settingsModel = ServiceMainActorProvider(mode: .lazy) { SettingsViewModel() }
    /// ```
    public init(mode: ServiceFactoryMode, factory: @escaping @MainActor () throws -> ServiceType) {
        switch mode {
        case .atOne:
            state = .many(factory)
            switch make(factory) {
            case .success(let service): state = .ready(service)
            case .failure(let error): state = .failed(error)
            }
        case .lazy: state = .lazy(factory)
        case .weak: state = .weak(factory, nil)
        case .many: state = .many(factory)
        }
    }

    /// The service, or the ``ServiceObtainError`` saying why it cannot be had.
    public func getService() throws(ServiceObtainError) -> ServiceType {
        switch state {
        case .ready(let service):
            return service
        case .failed(let error):
            throw error
        case .lazy(let factory):
            let service = try make(factory).get()
            state = .ready(service)
            return service
        case .weak(let factory, let held):
            if let service = held?.load() {
                return service
            }
            let service = try make(factory).get()
            state = .weak(factory, ServiceHolder(service, weakly: true))
            return service
        case .many(let factory):
            return try make(factory).get()
        }
    }

    /// The service or the error, as a `Result`.
    public func getServiceAsResult() -> Result<ServiceType, ServiceObtainError> {
        Result { () throws(ServiceObtainError) -> ServiceType in try getService() }
    }

    /// The service, or `nil` when it cannot be had.
    public func getServiceAsOptional() -> ServiceType? {
        try? getService()
    }

    /// The service; when it cannot be had, stops the program with the error's `fatalMessage`
    /// at `file` and `line`.
    public func getServiceOrFatal(file: StaticString = #file, line: UInt = #line) -> ServiceType {
        do {
            return try getService()
        } catch {
            fatalError(error.fatalMessage, file: file, line: line)
        }
    }

    /// Runs `factory` marked as obtaining this provider on the thread, so that a factory that
    /// asks for this service again fails as a cycle.
    private func make(_ factory: () throws -> ServiceType) -> Result<ServiceType, ServiceObtainError> {
        Result { () throws(ServiceObtainError) -> ServiceType in
            try ThreadContext.withEntered(ObjectIdentifier(self), service: ServiceType.self) {
                () throws(ServiceObtainError) -> ServiceType in
                try ServiceMaking.make(ServiceType.self, factory)
            }
        }
    }
}
