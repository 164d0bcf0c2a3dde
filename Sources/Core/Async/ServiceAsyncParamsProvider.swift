/// A provider of a service made from params with an `async` making: a new service is made on
/// every get, in the task that asks and on its executor (the factory is `nonisolated(nonsending)`;
/// one that should leave the caller's actor says `@concurrent`).
///
/// ```swift
/// let reports = ServiceAsyncParamsProvider<Report, String> { title in try await Report.load(title: title) }
/// let report = try await reports.getService(params: "Q3")
/// let fixed: ServiceAsyncProvider<Report> = reports.convert(params: "Q4")
/// ```
public final class ServiceAsyncParamsProvider<ServiceType: Sendable, ParamsType: Sendable>: Sendable {
    @usableFromInline let factory: nonisolated(nonsending) @Sendable (ParamsType) async throws -> ServiceType

    /// A provider of `factory`'s service.
    ///
    /// ```swift
    /// let reports = ServiceAsyncParamsProvider(factory: ReportFactory())
    /// ```
    public convenience init<Factory: ServiceAsyncParamsFactory>(factory: Factory)
    where Factory.ServiceType == ServiceType, Factory.ParamsType == ParamsType {
        self.init(factory: factory.makeService(params:))
    }

    /// A provider that makes the service with `factory`.
    ///
    /// ```swift
    /// let reports = ServiceAsyncParamsProvider<Report, String> { title in
    ///     try await Report.load(title: title)
    /// }
    /// ```
    ///
    /// The factory runs where the get is awaited, unless it is marked `@concurrent` or, with
    /// Swift 6.3, has a capture list (`{ [database] title in ... }`), which the compiler makes
    /// `@concurrent`: both run on the global executor.
    public init(factory: nonisolated(nonsending) @escaping @Sendable (ParamsType) async throws -> ServiceType) {
        self.factory = factory
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    // These gets are always inlined where they are called, as `ServiceAsyncProvider`'s are
    // (which says why): a get the optimizer called instead could leave an actor's method running
    // off its actor after it.

    /// A service made for `params`, or the ``ServiceObtainError`` saying why it cannot be.
    ///
    /// ```swift
    /// let report = try await reports.getService(params: "Q3")
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getService(params: ParamsType) async throws(ServiceObtainError) -> ServiceType {
        try await AsyncManySource.make(id: ObjectIdentifier(self)) { try await factory(params) }
    }

    /// A service made for `params`, or the error, as a `Result`.
    ///
    /// ```swift
    /// let result = await reports.getServiceAsResult(params: "Q3")  // .success or .failure
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getServiceAsResult(params: ParamsType) async -> Result<ServiceType, ServiceObtainError> {
        do {
            return .success(try await getService(params: params))
        } catch {
            return .failure(error)
        }
    }

    /// A service made for `params`, or `nil` when it cannot be made.
    ///
    /// ```swift
    /// let report = await reports.getServiceAsOptional(params: "Q3")  // nil if it failed
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getServiceAsOptional(params: ParamsType) async -> ServiceType? {
        try? await getService(params: params)
    }

    /// A service made for `params`; when it cannot be made, stops the program with the error's
    /// `fatalMessage` at `file` and `line`.
    /// Unlike `try!`, the call takes no `try`, and the message it stops with is the error's alone.
    ///
    /// ```swift
    /// let report = await reports.getServiceOrFatal(params: "Q3")
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getServiceOrFatal(
        params: ParamsType,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async -> ServiceType {
        await getServiceAsResult(params: params).serviceOrFatal(file: file, line: line)
    }

    /// A provider of this service made with fixed `params` on every get, which counts as this
    /// provider in the cycle check.
    ///
    /// ```swift
    /// let q4: ServiceAsyncProvider<Report> = reports.convert(params: "Q4")
    /// let report = try await q4.getService()  // Report.load(title: "Q4")
    /// ```
    public func convert(params: ParamsType) -> ServiceAsyncProvider<ServiceType> {
        let factory = self.factory
        let source = AsyncManySource(countsAs: self) { try await factory(params) }
        return ServiceAsyncProvider(held: nil, source: .many(source))
    }
}

/// A get without params of a provider whose params are not optional does not compile, with a
/// message that says to pass them, as for `ServiceParamsProvider`.
///
/// ```swift
/// let reports = ServiceAsyncParamsProvider<Report, String> { title in try await Report.load(title: title) }
/// let daily = try await reports.getService(params: "daily")  // reports.getService() does not compile
/// ```
extension ServiceAsyncParamsProvider {
    /// Unavailable: this provider's params are not optional. Pass them: `getService(params:)`.
    ///
    /// ```swift
    /// let daily = try await reports.getService(params: "daily")
    /// ```
    @available(*, unavailable, message: "this provider's params are not optional: pass them, as in getService(params:)")
    public nonisolated(nonsending) func getService() async throws(ServiceObtainError) -> ServiceType { fatalError() }

    /// Unavailable: this provider's params are not optional. Pass them: `getServiceAsResult(params:)`.
    ///
    /// ```swift
    /// let result = await reports.getServiceAsResult(params: "daily")
    /// ```
    @available(*, unavailable, message: "this provider's params are not optional: pass them, as in getServiceAsResult(params:)")
    public nonisolated(nonsending) func getServiceAsResult() async -> Result<ServiceType, ServiceObtainError> { fatalError() }

    /// Unavailable: this provider's params are not optional. Pass them: `getServiceAsOptional(params:)`.
    ///
    /// ```swift
    /// let daily = await reports.getServiceAsOptional(params: "daily")
    /// ```
    @available(*, unavailable, message: "this provider's params are not optional: pass them, as in getServiceAsOptional(params:)")
    public nonisolated(nonsending) func getServiceAsOptional() async -> ServiceType? { fatalError() }

    /// Unavailable: this provider's params are not optional. Pass them: `getServiceOrFatal(params:)`.
    ///
    /// ```swift
    /// let daily = await reports.getServiceOrFatal(params: "daily")
    /// ```
    @available(*, unavailable, message: "this provider's params are not optional: pass them, as in getServiceOrFatal(params:)")
    public nonisolated(nonsending) func getServiceOrFatal(file: StaticString = #fileID, line: UInt = #line) async -> ServiceType {
        fatalError()
    }
}

/// A provider whose params are optional gets its service without params too, for `nil`, as
/// `ServiceParamsProvider` does.
///
/// ```swift
/// let reports = ServiceAsyncParamsProvider<Report, String?> { title in try await Report.load(title: title) }
/// let latest = try await reports.getService()  // Report.load(title: nil)
/// ```
extension ServiceAsyncParamsProvider where ParamsType: ExpressibleByNilLiteral {
    /// A service made for `nil` params, or the ``ServiceObtainError`` saying why it cannot be.
    ///
    /// ```swift
    /// let latest = try await reports.getService()  // made for nil params
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getService() async throws(ServiceObtainError) -> ServiceType {
        try await getService(params: nil)
    }

    /// A service made for `nil` params, or the error, as a `Result`.
    ///
    /// ```swift
    /// let result = await reports.getServiceAsResult()  // made for nil params
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getServiceAsResult() async -> Result<ServiceType, ServiceObtainError> {
        await getServiceAsResult(params: nil)
    }

    /// A service made for `nil` params, or `nil` when it cannot be made.
    ///
    /// ```swift
    /// let latest = await reports.getServiceAsOptional()  // made for nil params; nil if it failed
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getServiceAsOptional() async -> ServiceType? {
        await getServiceAsOptional(params: nil)
    }

    /// A service made for `nil` params; when it cannot be made, stops the program with the
    /// error's `fatalMessage` at `file` and `line`.
    ///
    /// ```swift
    /// let latest = await reports.getServiceOrFatal()  // made for nil params
    /// ```
    @inlinable @inline(__always)
    public nonisolated(nonsending) func getServiceOrFatal(file: StaticString = #fileID, line: UInt = #line) async -> ServiceType {
        await getServiceOrFatal(params: nil, file: file, line: line)
    }
}
