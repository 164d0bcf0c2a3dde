/// A factory of a service without parameters, the recommended way to describe how a service
/// is made.
///
/// ```swift
/// struct SingletonServiceFactory: ServiceFactory {
///     let mode: ServiceFactoryMode = .atOne
///     func makeService() throws -> SingletonService {
///         return SingletonServiceImpl()
///     }
/// }
/// ```
///
/// A ``ServiceProvider`` calls `makeService()` on whichever thread gets the service, so it takes
/// a factory that is `Sendable` (a struct of `Sendable` properties is, as it is). A factory with
/// mutable state goes to a ``ServiceSafeProvider`` (`serviceSafeProvider()`), which calls it one
/// get at a time.
///
/// A factory belongs to no actor: the protocol refines `SendableMetatype`, so a conformance
/// isolated to an actor (a `@MainActor` factory) is refused where it is written, and in a module
/// whose default isolation is the main actor a conforming type needs no `nonisolated`.
public protocol ServiceFactory: SendableMetatype {
    /// The type of service the factory makes; often a protocol the service conforms to.
    associatedtype ServiceType

    /// How the provider makes and keeps the service.
    var mode: ServiceFactoryMode { get }

    /// Makes the service, or throws why it cannot.
    func makeService() throws -> ServiceType
}

extension ServiceFactory where Self: Sendable {
    /// A provider of this factory's service (`ServiceProvider(factory: self)`).
    ///
    /// ```swift
    /// let singleton = SingletonServiceFactory().serviceProvider()
    /// ```
    public func serviceProvider() -> ServiceProvider<ServiceType> {
        ServiceProvider(factory: self)
    }
}

extension ServiceFactory {
    /// A provider of this factory's service whose every get is serialized by `safeThread`.
    ///
    /// ```swift
    /// let settingsProvider = SettingsFactory().serviceSafeProvider(safeThread: .lock)
    /// ```
    public func serviceSafeProvider(
        safeThread kind: ServiceSafeProviderKind = .default
    ) -> ServiceSafeProvider<ServiceType> {
        ServiceSafeProvider(factory: self, safeThread: kind)
    }
}
