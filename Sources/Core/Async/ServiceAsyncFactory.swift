/// A factory of a service whose making is `async`: opening a database, fetching a
/// configuration. Its provider is a ``ServiceAsyncProvider``.
///
/// ```swift
/// struct DatabaseFactory: ServiceAsyncFactory {
///     let mode: ServiceFactoryMode = .lazy
///     func makeService() async throws -> Database {
///         try await Database.open(path: "app.sqlite")
///     }
/// }
/// let database = DatabaseFactory().serviceAsyncProvider()
/// ```
///
/// The factory is called from whichever task gets the service (and, for `atOne`, `lazy` and
/// `weak`, from a task of the provider's own), so it is `Sendable`, and so is its service,
/// which every waiting task receives. `makeService()` is `nonisolated(nonsending)`, and a
/// conforming type's plain `async` method takes that on: a `many` factory runs on the executor
/// of the code that awaits the get (the main actor's, say), with no hop. Mark the method
/// `@concurrent` to run it on the global executor instead. A type isolated to the main actor
/// marks it `@MainActor` too: the requirement's isolation wins over the type's.
public protocol ServiceAsyncFactory: Sendable {
    /// The type of service the factory makes.
    associatedtype ServiceType: Sendable

    /// How the provider makes and keeps the service.
    var mode: ServiceFactoryMode { get }

    /// Makes the service, or throws why it cannot.
    nonisolated(nonsending) func makeService() async throws -> ServiceType
}

/// A factory of a service made from params with an `async` making; a new service is made on
/// every get. Its provider is a ``ServiceAsyncParamsProvider``.
///
/// ```swift
/// struct ReportFactory: ServiceAsyncParamsFactory {
///     func makeService(params: String) async throws -> Report {
///         try await Report.load(title: params)
///     }
/// }
/// ```
///
/// `makeService(params:)` is `nonisolated(nonsending)`, and a conforming type's plain `async`
/// method takes that on: it runs on the executor of the code that awaits the get. Mark the
/// method `@concurrent` to run it on the global executor instead, or `@MainActor` in a type
/// isolated to the main actor (the requirement's isolation wins over the type's).
public protocol ServiceAsyncParamsFactory: Sendable {
    /// The type of service the factory makes.
    associatedtype ServiceType: Sendable
    /// The type of the parameters a service is made from.
    associatedtype ParamsType: Sendable

    /// Makes a service for `params`, or throws why it cannot.
    nonisolated(nonsending) func makeService(params: ParamsType) async throws -> ServiceType
}

extension ServiceAsyncFactory {
    /// A provider of this factory's service (`ServiceAsyncProvider(factory: self)`).
    ///
    /// ```swift
    /// let database = DatabaseFactory().serviceAsyncProvider()
    /// let connection = try await database.getService()
    /// ```
    public func serviceAsyncProvider() -> ServiceAsyncProvider<ServiceType> {
        ServiceAsyncProvider(factory: self)
    }
}

extension ServiceAsyncParamsFactory {
    /// A provider that makes this factory's service from params given at each get.
    ///
    /// ```swift
    /// let reports = ReportFactory().serviceAsyncProvider()
    /// let report = try await reports.getService(params: "Q3")
    /// ```
    public func serviceAsyncProvider() -> ServiceAsyncParamsProvider<ServiceType, ParamsType> {
        ServiceAsyncParamsProvider(factory: self)
    }
}

/// An async factory as a provider keeps it: run on the executor of the code that calls it,
/// unless it is `@concurrent` (see `ServiceAsyncFactory`).
@usableFromInline
typealias AsyncFactory<Service> = nonisolated(nonsending) @Sendable () async throws -> Service
