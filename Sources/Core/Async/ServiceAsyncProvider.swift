/// A provider of a service whose making is `async`; every get is awaited.
///
/// ```swift
/// let database = ServiceAsyncProvider<Database>(mode: .lazy) {
///     try await Database.open(path: "app.sqlite")
/// }
/// let connection = try await database.getService()
/// ```
///
/// - `atOne`: the making starts when the provider is made; every get awaits that one result,
///   and an error is kept for every get.
/// - `lazy`: made once, on the first get, however many tasks await it at the same moment; a
///   failed making gives its error to every waiting task, and the next get tries again.
/// - `weak`: made once while somebody holds it, the same way.
/// - `many`: made anew on every get, in the task that asks and on its executor (the factory is
///   `nonisolated(nonsending)`; one that should leave the caller's actor says `@concurrent`).
///
/// Waiting tasks suspend; no thread is blocked while a service is made. A singleton is made in
/// a task of the provider's own, so cancelling the task that started the making does not fail
/// the others: a get whose task is cancelled while it waits (or before) returns at once with a
/// ``ServiceObtainError`` whose `error` is a `CancellationError`, and the making goes on for
/// the others (a `lazy` service made for nobody is kept for the next get). A service that is
/// ready is returned even to a cancelled task. A `many` factory runs in the caller's task and
/// sees its cancellation itself.
///
/// Async providers that await each other in a cycle fail with
/// `ServiceFactoryError.dependencyCycle` instead of suspending for ever.
///
/// The service is `Sendable`: every waiting task gets the same instance.
public final class ServiceAsyncProvider<ServiceType: Sendable>: Sendable {
    /// The service of an instance provider, which its `source` holds too (`HeldService` says
    /// why it is not an optional of the service type).
    @usableFromInline let held: HeldService<ServiceType>?
    /// The service of an `atOne` or `lazy` provider, once made.
    @usableFromInline let ready: OnceCell<ServiceType?>?
    /// Where every other get goes.
    @usableFromInline let source: AsyncServiceSource<ServiceType>

    init(held: HeldService<ServiceType>?, source: AsyncServiceSource<ServiceType>) {
        self.held = held
        self.source = source
        ready = source.cell
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    /// A provider that always gives `service`.
    ///
    /// ```swift
    /// let settings = ServiceAsyncProvider(Settings())
    /// ```
    @_disfavoredOverload  // a synchronous provider passed here is wrapped by `init(_ provider:)`
    public convenience init(_ service: ServiceType) {
        let held = HeldService(service, since: MakingClock.tick())
        self.init(held: held, source: .holdsService(held))
    }

    /// A provider of `factory`'s service, made and kept as its `mode` says.
    ///
    /// ```swift
    /// let database = ServiceAsyncProvider(factory: DatabaseFactory())
    /// ```
    public convenience init<Factory: ServiceAsyncFactory>(factory: Factory)
    where Factory.ServiceType == ServiceType {
        self.init(mode: factory.mode, factory: factory.makeService)
    }

    /// A provider that makes the service with `factory`, kept as `mode` says; an `atOne`
    /// making starts here.
    ///
    /// ```swift
    /// let settings = ServiceAsyncProvider<Settings>(mode: .lazy) { try await Settings.fetch() }
    /// ```
    ///
    /// A `many` factory runs where the get is awaited; a singleton's, in a task of its own. A
    /// closure marked `@concurrent` runs on the global executor, and so does, with Swift 6.3, a
    /// closure with a capture list (`{ [database] in ... }`), which the compiler makes
    /// `@concurrent`: capture without a list to keep a `many` factory where the get is awaited.
    public convenience init(
        mode: ServiceFactoryMode,
        factory: nonisolated(nonsending) @escaping @Sendable () async throws -> ServiceType
    ) {
        self.init(held: nil, source: AsyncServiceSource(mode: mode, factory: factory))
    }

    /// A provider that gets its service from a synchronous `provider`, for a container whose
    /// callers await every service.
    ///
    /// ```swift
    /// let settings = ServiceAsyncProvider(settingsProvider)  // a ServiceProvider<Settings>
    /// let current = try await settings.getService()
    /// ```
    ///
    /// A get calls `provider.getService()`: a service that another thread is making is waited
    /// for as a synchronous provider waits, on the caller's thread. A service `provider` holds
    /// (an instance, or a made `atOne` one) is read here directly, and refused once `provider` is
    /// shut down; a shutdown of this provider shuts `provider` down too, and closes the `atOne`
    /// service it made.
    public convenience init(_ provider: ServiceProvider<ServiceType>) {
        self.init(held: provider.held, source: .sync(provider))
    }

    /// The service, or the ``ServiceObtainError`` saying why it cannot be had.
    ///
    /// ```swift
    /// let connection = try await database.getService()  // on the caller's executor
    /// ```
    ///
    /// A service held ready (an instance, or a made `atOne` or `lazy` one) is read without
    /// suspending; anything else is its source's get.
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getService() async throws(ServiceObtainError) -> ServiceType {
        if GetRecording.isOn {
            return try await recordedGet()
        }
        return try await unrecordedGet()
    }

    /// The get itself: the service held ready, or the source's get.
    @inlinable @inline(__always)
    nonisolated(nonsending) func unrecordedGet() async throws(ServiceObtainError) -> ServiceType {
        if let service = ready?.value ?? held?.service {
            return service
        }
        return try await source.get()
    }

    /// The slow path of a get, on while a validation or a graph recorder runs, or once a
    /// container was shut down in this process: refused when this provider was shut down, and
    /// recorded when something records.
    @usableFromInline @inline(never)
    nonisolated(nonsending) func recordedGet() async throws(ServiceObtainError) -> ServiceType {
        try checkGet()
        if case .sync(let provider) = source {
            // The wrapped provider records its own gets, a read of a service held ready included.
            return try provider.getService()
        }
        guard GetRecording.isRecording else {
            return try await unrecordedGet()
        }
        return try await GetRecording.recordAsync(of: source.recordingIdentity ?? ObjectIdentifier(self), service: ServiceType.self) {
            () async throws(ServiceObtainError) -> ServiceType in
            try await unrecordedGet()
        }
    }

    /// Fails the get when this provider was shut down (`ServiceShutdown`): the slow path of a
    /// get, on once a container was shut down in this process.
    @usableFromInline @inline(never)
    func checkGet() throws(ServiceObtainError) {
        try ShutdownRegistry.check(self, ServiceType.self)
        // A wrapped provider's service read here directly is refused as the provider refuses it.
        if case .sync(let provider) = source {
            try ShutdownRegistry.check(provider.shutdownKey, ServiceType.self)
        }
    }

    // This get and the two after it are always inlined where they are called, as `getService()`
    // is. Where the optimizer of Swift 6.3(.1) chose to call one of them instead (a method that
    // awaits one twice), it dropped the calling actor method's hop to its executor before the
    // call, and a get that returned without suspending left the method's code running off the
    // actor. Inlined, the method's own code has a path that reads a ready service without a
    // call, so the optimizer keeps the hop (`CallerExecutorTests`).

    /// The service or the error, as a `Result`.
    ///
    /// ```swift
    /// let result = await database.getServiceAsResult()  // .success(connection) or .failure(error)
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getServiceAsResult() async -> Result<ServiceType, ServiceObtainError> {
        do {
            return .success(try await getService())
        } catch {
            return .failure(error)
        }
    }

    /// The service, or `nil` when it cannot be had.
    ///
    /// ```swift
    /// guard let connection = await database.getServiceAsOptional() else { return }
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getServiceAsOptional() async -> ServiceType? {
        try? await getService()
    }

    /// The service; when it cannot be had, stops the program with the error's `fatalMessage` at
    /// `file` and `line`.
    /// Unlike `try!`, the call takes no `try`, and the message it stops with is the error's alone.
    ///
    /// ```swift
    /// let connection = await database.getServiceOrFatal()
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getServiceOrFatal(file: StaticString = #fileID, line: UInt = #line) async -> ServiceType {
        await getServiceAsResult().serviceOrFatal(file: file, line: line)
    }
}
