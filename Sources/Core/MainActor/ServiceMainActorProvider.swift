import Foundation

/// A provider of a service that belongs to the main actor: it is made on the main actor and got
/// there, and code elsewhere must `await` it. The compiler checks both, since the provider
/// itself is isolated to the main actor.
///
/// ```swift
/// @MainActor let viewModels = ProfileViewModelFactory().serviceMainActorProvider()  // a global, outside main.swift
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
/// The modes are those of ``ServiceProvider`` but `scoped`, whose gets fail with
/// `ServiceFactoryError.scopedOnMainActor`; the main actor runs one get at a time, so a
/// `lazy` or `weak` service is made once without any lock. A factory that gets its own service
/// again fails with `ServiceFactoryError.dependencyCycle`, and the factory of a singleton
/// (`atOne`, `lazy`, `weak`) that gets a scoped service fails with
/// `ServiceFactoryError.captiveDependency`, as that of any singleton does.
///
/// A provider of a closure can be made anywhere, so that a container built off the main actor
/// may hold one: only its gets run on the main actor. An `atOne` service is made at once when
/// the provider is made on the main actor, and at its first get otherwise.
@MainActor
public final class ServiceMainActorProvider<ServiceType> {
    // The mode and the factory never change, and are `Sendable`: any thread may make a provider.
    let mode: ServiceFactoryMode
    private let factory: (@MainActor () throws -> ServiceType)?
    // Unchecked for exclusivity: see `Unchecked.swift`.
    @usableFromInline @exclusivity(unchecked) var state: State = .unmade

    @usableFromInline
    enum State {
        /// Nothing made yet; for `many`, nothing is ever kept.
        case unmade
        case ready(ServiceType)
        /// The error of an `atOne` factory, kept for every get.
        case failed(ServiceObtainError)
        /// The last service of a `weak` provider, while it lives.
        case weak(ServiceHolder<ServiceType>)
    }

    /// A provider that always gives `service`.
    ///
    /// ```swift
    /// let settingsModel = ServiceMainActorProvider(SettingsViewModel())
    /// ```
    public init(_ service: ServiceType) {
        mode = .atOne
        factory = nil
        state = .ready(service)
    }

    /// A provider of `factory`'s service, made and kept as its `mode` says.
    ///
    /// ```swift
    /// let viewModels = ServiceMainActorProvider(factory: ProfileViewModelFactory())
    /// ```
    public convenience init<Factory: ServiceMainActorFactory>(factory: Factory)
    where Factory.ServiceType == ServiceType {
        self.init(mode: factory.mode) { try factory.makeService() }
    }

    /// A provider that makes the service with `factory` on the main actor, kept as `mode` says.
    /// It can be made on any thread: an `atOne` service is made here when this runs on the main
    /// actor, and at the first get otherwise.
    ///
    /// ```swift
    /// let settingsModel = ServiceMainActorProvider(mode: .lazy) { SettingsViewModel() }
    /// ```
    public nonisolated init(mode: ServiceFactoryMode, factory: @escaping @MainActor () throws -> ServiceType) {
        self.mode = mode
        self.factory = factory
        if mode == .atOne, MainQueue.isCurrent {
            MainActor.assumeIsolated {
                _ = getServiceAsResult()
            }
        }
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    /// The service, or the ``ServiceObtainError`` saying why it cannot be had.
    ///
    /// ```swift
    /// let model = try viewModels.getService()  // on the main actor: no await
    /// ```
    @inlinable
    public func getService() throws(ServiceObtainError) -> ServiceType {
        // Inlinable, so that a get of a made or held service is compiled for its service type in
        // the caller's code: a load of the state and a `switch`. Out of line, the get ran generic
        // code that looked up the metadata of the state's type on every call (`core/main-actor
        // get (made)`: 2,912 instructions, against 104 for the stored reference read; now 144).
        if !GetRecording.isOn {
            switch state {
            case .ready(let service):
                return service
            case .weak(let held):
                if let service = held.load() {
                    return service
                }
            case .unmade, .failed:
                break
            }
        }
        return try obtain()
    }

    /// The get that found no service ready (or runs while a validation or a recorder does):
    /// records it, throws a kept error, or makes the service.
    @usableFromInline
    func obtain() throws(ServiceObtainError) -> ServiceType {
        if GetRecording.isOn {
            try ShutdownRegistry.check(self, ServiceType.self)
            GetRecording.recordGet(of: ObjectIdentifier(self), service: ServiceType.self)
        }
        switch state {
        case .ready(let service):
            return service
        case .failed(let error):
            throw error
        case .weak(let held):
            if let service = held.load() {
                return service
            }
        case .unmade:
            break
        }
        guard let factory else {
            preconditionFailure("a provider of an instance has no factory")
        }
        guard mode != .scoped else {
            throw .refused(ServiceType.self, .scopedOnMainActor(service: ServiceType.self))
        }
        switch make(factory) {
        case .success(let service):
            switch mode {
            case .atOne, .lazy: state = .ready(service)
            case .weak: state = ServiceHolder(service, weakly: true, madeAt: 0).map(State.weak) ?? .unmade
            case .many, .scoped: break
            }
            return service
        case .failure(let error):
            if mode == .atOne {
                state = .failed(error)
            }
            throw error
        }
    }

    /// The service or the error, as a `Result`.
    ///
    /// ```swift
    /// let result = viewModels.getServiceAsResult()  // on the main actor
    /// ```
    @inlinable
    public func getServiceAsResult() -> Result<ServiceType, ServiceObtainError> {
        Result { () throws(ServiceObtainError) -> ServiceType in try getService() }
    }

    /// The service, or `nil` when it cannot be had.
    ///
    /// ```swift
    /// let model = viewModels.getServiceAsOptional()  // on the main actor; nil if it failed
    /// ```
    @inlinable
    public func getServiceAsOptional() -> ServiceType? {
        try? getService()
    }

    /// The service; when it cannot be had, stops the program with the error's `fatalMessage`
    /// at `file` and `line`.
    ///
    /// ```swift
    /// let model = viewModels.getServiceOrFatal()  // on the main actor
    /// ```
    @inlinable
    public func getServiceOrFatal(file: StaticString = #fileID, line: UInt = #line) -> ServiceType {
        getServiceAsResult().serviceOrFatal(file: file, line: line)
    }

    /// Runs `factory` marked as obtaining this provider on the thread, so that a factory that
    /// asks for this service again fails as a cycle; the making of a singleton (`atOne`, `lazy`,
    /// `weak`) is also this thread's innermost `SingletonKeeper`, so that a scoped get it makes
    /// fails as a captive dependency, as it does for every other singleton.
    private func make(_ factory: () throws -> ServiceType) -> Result<ServiceType, ServiceObtainError> {
        guard let kind = keeperKind else {
            return makeMarked(factory)
        }
        return ThreadContext.withKeeper(SingletonKeeper(ServiceType.self, kind)) { makeMarked(factory) }
    }

    /// How this provider keeps its service, when it is a singleton.
    private var keeperKind: SingletonKeeper.Kind? {
        switch mode {
        case .atOne: .mainActorAtOne
        case .lazy: .mainActorLazy
        case .weak: .mainActorWeak
        case .many, .scoped: nil
        }
    }

    private func makeMarked(_ factory: () throws -> ServiceType) -> Result<ServiceType, ServiceObtainError> {
        Result { () throws(ServiceObtainError) -> ServiceType in
            try ThreadContext.withEntered(ObjectIdentifier(self), service: ServiceType.self) {
                () throws(ServiceObtainError) -> ServiceType in
                try FactoryCall.make(ServiceType.self, factory)
            }
        }
    }
}
