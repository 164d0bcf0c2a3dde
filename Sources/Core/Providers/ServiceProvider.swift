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
///
/// A provider is `Sendable` whatever its service: its own state is synchronized, and it is how
/// a container hands services to any thread. Its factory is called on any thread, so it must be
/// `Sendable` too (the compiler checks it). The service it keeps (instance, `atOne`, `lazy`,
/// `weak`, session) is the same instance for every thread that gets it: make such a service
/// `Sendable`, or keep it on the main actor with a ``ServiceMainActorProvider``.
public class ServiceProvider<ServiceType>: @unchecked Sendable {  // non-final, which Swift never checks; its lets are `Sendable`
    // Immutable.

    /// The service of an instance or `atOne` provider, which its `source` holds too: kept here
    /// so that a get reads it without going through the source.
    @usableFromInline let held: HeldService<ServiceType>?
    /// The service of a `lazy` provider, once made: its `LazySource`, which publishes it, kept
    /// here so that a get reads it without going through the source.
    @usableFromInline let lazy: LazySource<ServiceType?>?
    /// Where every other get goes: `lazy` before the service is made, `weak`, `many`, `scoped`,
    /// session, safe, recorded (`ServiceGraphRecorder`), or the error of an `atOne` factory.
    @usableFromInline let source: ServiceSource<ServiceType>

    /// A provider of a service handed in, never recorded: the provider a locator makes for a
    /// service it kept without one, when something asks for it. A locator's service counts as
    /// handed in before every making (`init(keptByLocator:)` says why).
    package convenience init(instance service: ServiceType) {
        self.init(heldIn: .holdsService(HeldService(service, since: 0)))
    }

    /// A provider of a service a locator was handed (`addService(_:)`), recorded as
    /// `init(holding:)` says. It counts as handed in before every making, so that a shutdown
    /// never closes it, as it never closes the ones a locator keeps without a provider: the
    /// locator keeps no time for those.
    @inlinable
    package convenience init(keptByLocator service: ServiceType) {
        self.init(holding: service, handedInAt: 0)
    }

    /// A provider that holds the service `source` holds: handed in (`.holdsService`), or made by
    /// an `atOne` factory (`.madeAtOne`).
    @usableFromInline
    init(heldIn source: ServiceSource<ServiceType>) {
        held = source.held
        self.source = source
        lazy = nil
    }

    /// A provider of `source` alone.
    @inlinable
    init(only source: ServiceSource<ServiceType>) {
        held = nil
        self.source = source
        if case .lazy(let lazySource) = source {
            lazy = lazySource
        } else {
            lazy = nil
        }
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    /// A provider of `source` alone; while this thread records (a validation builds its
    /// container, or a graph recorder runs), a recorded one (`RecordedSource`), under `node`
    /// when one is given.
    @inlinable
    convenience init(source: ServiceSource<ServiceType>, node: RecordingNode? = nil) {
        self.init(only: Self.madeNow(source, node: node))
    }

    /// A provider that holds `service`, recorded as `init(source:node:)` says: a recorded
    /// provider holds its service in its source, so that every get reaches the source.
    /// `madeAt` is when an `atOne` factory's making of it ended (`MakingClock`); `nil` for a
    /// service handed in (now, or at `handedInAt`), which a shutdown leaves alone. Inlinable, so
    /// that the making of a provider of an instance is specialized where it is written, as it was
    /// before recording (`locator/register a service` counts it).
    @inlinable
    convenience init(
        holding service: ServiceType,
        node: RecordingNode? = nil,
        madeAt: UInt64? = nil,
        handedInAt: UInt64? = nil
    ) {
        let held = HeldService(service, since: madeAt ?? handedInAt ?? MakingClock.tick())
        let source: ServiceSource<ServiceType> = madeAt == nil ? .holdsService(held) : .madeAtOne(held)
        if let node = node ?? GetRecording.nodeForNewProvider() {
            self.init(only: Self.recorded(source, node: node))
        } else {
            self.init(heldIn: source)
        }
    }

    /// `source` for a provider made now: recorded under `node` (or a new node) while this
    /// thread records.
    @inlinable @inline(__always)
    static func madeNow(_ source: ServiceSource<ServiceType>, node: RecordingNode?) -> ServiceSource<ServiceType> {
        guard let node = node ?? GetRecording.nodeForNewProvider() else { return source }
        return recorded(source, node: node)
    }

    /// `source`, recorded under `node`. Out of line: a recorded source asks for metadata that
    /// the making of a plain provider does without.
    @usableFromInline @inline(never)
    static func recorded(_ source: ServiceSource<ServiceType>, node: RecordingNode) -> ServiceSource<ServiceType> {
        .recorded(RecordedSource(node: node, source: source))
    }

    /// A provider that makes the service with `factory` as `mode` says; an `atOne` service is
    /// made here. Inlinable, so that the generic sources it allocates are made in code
    /// specialized for the service type (`LazySource.init` says why).
    @inlinable
    convenience init(made mode: ServiceFactoryMode, by factory: @escaping @Sendable () throws -> ServiceType) {
        switch mode {
        case .atOne:
            let node = GetRecording.nodeForNewProvider()
            switch ThreadContext.withKeeper(SingletonKeeper(ServiceType.self, .atOne), { GetRecording.makeAtOne(node, factory) }) {
            case .success(let service): self.init(holding: service, node: node, madeAt: MakingClock.tick())
            case .failure(let error): self.init(source: .failed(FailedSource(error)), node: node)
            }
        case .lazy:
            self.init(source: .lazy(LazySource(factory: factory)))
        case .weak:
            self.init(source: .weak(WeakSource(factory: factory)))
        case .many:
            self.init(source: .many(ManySource(factory: factory)))
        case .scoped:
            self.init(source: .scoped(ScopedSource(factory: factory)))
        }
    }

    /// A provider that always gives `service` (the equivalent of an `atOne` factory).
    ///
    /// ```swift
    /// let settingsProvider = ServiceProvider(Settings())
    /// ```
    @inlinable
    public convenience init(_ service: ServiceType) {
        self.init(holding: service)
    }

    /// A provider of `factory`'s service, made and kept as its `mode` says.
    ///
    /// ```swift
    /// let provider = ServiceProvider(factory: LazyServiceFactory())
    /// ```
    @inlinable
    public convenience init<Factory: ServiceFactory & Sendable>(factory: Factory)
    where Factory.ServiceType == ServiceType {
        self.init(made: factory.mode, by: factory.makeService)
    }

    /// A provider of `factory`'s service that reports at once when an `atOne` factory fails.
    ///
    /// ```swift
    /// let provider = try ServiceProvider(tryFactory: SingletonServiceFactory())
    /// ```
    ///
    /// - Throws: for an `atOne` factory, the error of making the service; other modes report
    ///   their errors on get.
    @inlinable
    public convenience init<Factory: ServiceFactory & Sendable>(tryFactory factory: Factory) throws(ServiceObtainError)
    where Factory.ServiceType == ServiceType {
        self.init(made: factory.mode, by: factory.makeService)
        try validateAtOneError()
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
    public convenience init<Factory: ServiceFactory & Sendable>(castingFactory factory: Factory)
        throws(ServiceObtainError)
    {
        self.init(made: factory.mode, by: Self.casting(factory))
        try validateAtOneError()
    }

    /// A closure making `factory`'s service cast to `ServiceType`.
    static func casting<Factory: ServiceFactory & Sendable>(_ factory: Factory) -> @Sendable () throws -> ServiceType {
        { try cast(factory.makeService()) }
    }

    /// `made` as a `ServiceType`; a service that does not cast fails with
    /// `ServiceFactoryError.invalidFactory`.
    static func cast<Made>(_ made: Made) throws -> ServiceType {
        guard let service = made as? ServiceType else {
            throw ServiceFactoryError.invalidFactory(expected: ServiceType.self, made: type(of: made as Any))
        }
        return service
    }

    /// A provider that makes the service with a params `factory` and fixed `params` on every get.
    ///
    /// ```swift
    /// let provider = ServiceProvider(factory: SecondServiceFactory(), params: .init(number: 1))
    /// ```
    public convenience init<Factory: ServiceParamsFactory & Sendable>(factory: Factory, params: Factory.ParamsType)
    where Factory.ServiceType == ServiceType {
        // The params are handed to every call of the factory, on any thread, as a kept service
        // is; captured as they are (see `Unchecked.swift`, "Values a closure captures").
        nonisolated(unsafe) let params = params
        self.init(source: .many(ManySource { try factory.makeService(params: params) }))
    }

    /// A provider whose singleton belongs to the current session of `mediator`.
    ///
    /// ```swift
    /// let cart = ServiceProvider(factory: CartFactory(), mediator: mediator)
    /// ```
    ///
    /// When the mediator's session is not a `Factory.SessionType`, gets fail with
    /// `ServiceFactoryError.wrongSession` until the session changes to one that is.
    @inlinable
    public convenience init<Factory: ServiceSessionFactory & Sendable, Session>(
        factory: Factory,
        mediator: ServiceSessionMediator<Session>
    ) where Factory.ServiceType == ServiceType {
        self.init(source: .session(SessionServiceCell(factory: factory, mediator: mediator)))
    }

    /// A provider that makes the service with `factory`, kept as `mode` says.
    ///
    /// ```swift
    /// let provider = ServiceProvider<Settings>(mode: .lazy) { try Settings.load() }
    /// ```
    @inlinable
    public convenience init(mode: ServiceFactoryMode, factory: @escaping @Sendable () throws -> ServiceType) {
        self.init(made: mode, by: factory)
    }

    /// The service, or the ``ServiceObtainError`` saying why it cannot be had.
    ///
    /// ```swift
    /// do {
    ///     let settings = try settingsProvider.getService()
    /// } catch {
    ///     print(error)  // the service that failed, and why
    /// }
    /// ```
    ///
    /// An instance or `atOne` service is a stored read; a made `lazy` one, an acquire load and
    /// a read (both inlined where the get is written); anything else is its source's get,
    /// compiled once per service type. Each also makes one relaxed load, to see whether a
    /// validation or a graph recorder runs, which then records the get.
    @inlinable @inline(__always)
    public final func getService() throws(ServiceObtainError) -> ServiceType {
        if let service = readyService {
            if GetRecording.isOn, !recordReadyGet() {
                throw shutDownError()
            }
            return service
        }
        return try source.get()
    }

    // The slow path of a get of the service held ready, while a validation or a graph recorder
    // runs or once a container was shut down. A get of any other state checks and records in
    // `ServiceSource.get()`.
    //
    // Neither function throws: the get written in the caller's code makes one call that may
    // throw (`source.get()`), not two. Swift 6.3.1 crashed while optimizing top-level code that
    // mixed a plain `throws` call with gets that made two ("swifterror value can only be loaded
    // and stored from, or as a swifterror argument!"); Tests/Fixtures/TopLevelRelease is such a
    // file, which `.ci/top-level-release` builds optimized. The instruction counts are the same
    // as with a throwing check.

    /// The error of a get of this provider's service once it was shut down.
    @usableFromInline @inline(never)
    final func shutDownError() -> ServiceObtainError {
        ShutdownRegistry.shutDownError(ServiceType.self)
    }

    /// Records a get of the service held ready under the identity of the provider's makings
    /// (its own, for a provider that holds its service); `false`, recording nothing, when this
    /// provider was shut down.
    @usableFromInline @inline(never)
    final func recordReadyGet() -> Bool {
        if ShutdownRegistry.isShutDown(ObjectIdentifier(source.shutdownKey ?? self)) {
            return false
        }
        GetRecording.recordGet(of: source.recordingIdentity ?? ObjectIdentifier(self), service: ServiceType.self)
        return true
    }

    /// Whether this provider makes one service per `ServiceScope` (`scoped`, safe or not).
    @inlinable
    package final var isScoped: Bool {
        switch source {
        case .scoped: true
        case .safe, .recorded: isScopedBehindItsSource
        case .holdsService, .madeAtOne, .lazy, .weak, .many, .session, .failed: false
        }
    }

    /// Whether a safe or recorded provider's source makes one service per `ServiceScope`.
    @usableFromInline
    final var isScopedBehindItsSource: Bool {
        source.graphMode.mode == .scoped
    }

    /// The service when it is held ready (an instance, an `atOne` service or a made `lazy` one):
    /// reading it runs nothing else (a get of it also records the get while `GetRecording.isOn`).
    @inlinable @inline(__always)
    package final var readyService: ServiceType? {
        // Chained rather than bound with `if let`, which would retain the cell around the read.
        lazy?.value ?? held?.service
    }

    /// The service or the error, as a `Result`.
    ///
    /// ```swift
    /// let result = settingsProvider.getServiceAsResult()  // .success(settings) or .failure(error)
    /// ```
    @inlinable
    public final func getServiceAsResult() -> Result<ServiceType, ServiceObtainError> {
        Result { () throws(ServiceObtainError) -> ServiceType in try getService() }
    }

    /// The service, or `nil` when it cannot be had.
    ///
    /// ```swift
    /// guard let settings = settingsProvider.getServiceAsOptional() else { return }
    /// ```
    @inlinable @inline(__always)
    public final func getServiceAsOptional() -> ServiceType? {
        try? getService()
    }

    /// The service; when it cannot be had, stops the program with the error's `fatalMessage`
    /// at `file` and `line`.
    /// Unlike `try!`, the call takes no `try`, and the message it stops with is the error's alone.
    ///
    /// ```swift
    /// let settings = settingsProvider.getServiceOrFatal()
    /// ```
    @inlinable
    public final func getServiceOrFatal(file: StaticString = #fileID, line: UInt = #line) -> ServiceType {
        getServiceAsResult().serviceOrFatal(file: file, line: line)
    }

    /// Throws the error an `atOne` factory failed with, so that a container can check its
    /// services when it is set up; does nothing for other providers.
    ///
    /// ```swift
    /// let singleton = SingletonServiceFactory().serviceProvider()  // atOne: made here
    /// try singleton.validateAtOneError()  // throws what its factory threw, if it did
    /// ```
    public final func validateAtOneError() throws(ServiceObtainError) {
        if let error = source.atOneError {
            throw error
        }
    }
}
