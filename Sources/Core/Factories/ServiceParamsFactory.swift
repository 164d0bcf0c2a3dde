/// A factory of a service made from parameters; a new instance is made on every get.
///
/// To share instances, keep them in the factory (a class) and pick one from the params. Make
/// `ParamsType` optional to let locators get the service without params.
///
/// ```swift
/// struct SecondServiceFactory: ServiceParamsFactory {
///     func makeService(params: SecondServiceParams?) throws -> SecondService {
///         SecondService(number: params?.number ?? -1)
///     }
/// }
/// ```
///
/// A ``ServiceParamsProvider`` calls the factory on whichever thread gets a service, so it takes
/// a `Sendable` factory; a ``ServiceParamsSafeProvider`` takes any, and calls it one get at a time.
///
/// A factory belongs to no actor: the protocol refines `SendableMetatype`, so a conformance
/// isolated to an actor (a `@MainActor` factory) is refused where it is written, and in a module
/// whose default isolation is the main actor a conforming type needs no `nonisolated`.
public protocol ServiceParamsFactory: SendableMetatype {
    /// The type of service the factory makes.
    associatedtype ServiceType
    /// The type of the parameters a service is made from.
    associatedtype ParamsType

    /// Makes a service for `params`, or throws why it cannot.
    func makeService(params: ParamsType) throws -> ServiceType
}

extension ServiceParamsFactory where Self: Sendable {
    /// A provider that makes this factory's service from params given at each get.
    ///
    /// ```swift
    /// let provider = SecondServiceFactory().serviceProvider()
    /// let service = try provider.getService(params: .init(number: 1))
    /// ```
    public func serviceProvider() -> ServiceParamsProvider<ServiceType, ParamsType> {
        ServiceParamsProvider(factory: self)
    }

    /// A provider that makes this factory's service from fixed `params` on every get.
    ///
    /// ```swift
    /// let fixed = SecondServiceFactory().serviceProvider(params: .init(number: 1))
    /// let service = try fixed.getService()
    /// ```
    public func serviceProvider(params: ParamsType) -> ServiceProvider<ServiceType> {
        ServiceProvider(factory: self, params: params)
    }
}

extension ServiceParamsFactory {
    /// A params provider whose every get is serialized by `safeThread`.
    ///
    /// ```swift
    /// let provider = SecondServiceFactory().serviceSafeProvider(safeThread: .lock)
    /// ```
    public func serviceSafeProvider(
        safeThread kind: ServiceSafeProviderKind = .default
    ) -> ServiceParamsSafeProvider<ServiceType, ParamsType> {
        ServiceParamsSafeProvider(factory: self, safeThread: kind)
    }

    /// A provider for fixed `params` whose every get is serialized by `safeThread`.
    ///
    /// ```swift
    /// let factory = SecondServiceFactory()
    /// let fixed = factory.serviceSafeProvider(params: .init(number: 1), safeThread: .lock)
    /// ```
    public func serviceSafeProvider(
        params: ParamsType,
        safeThread kind: ServiceSafeProviderKind = .default
    ) -> ServiceSafeProvider<ServiceType> {
        ServiceSafeProvider(factory: self, params: params, safeThread: kind)
    }
}
