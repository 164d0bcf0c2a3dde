/// A params provider whose every get is serialized.
///
/// It is a ``ServiceParamsProvider``, so it can be stored and passed as one; `convert(params:)`
/// gives a ``ServiceSafeProvider`` that shares the same serialization.
///
/// ```swift
/// let labels = ServiceParamsSafeProvider<Label, Int>(safeThread: .lock) { number in
///     Label(number: number)  // never runs on two threads at once
/// }
/// let seven = try labels.getService(params: 7)
/// let eight = labels.convert(params: 8)  // a ServiceSafeProvider<Label>, serialized with `labels`
/// ```
public final class ServiceParamsSafeProvider<ServiceType, ParamsType>:
    ServiceParamsProvider<ServiceType, ParamsType>, @unchecked Sendable  // restated, as Swift asks of a subclass; it adds no state
{
    /// A safe provider of `factory`'s service.
    ///
    /// ```swift
    /// let provider = ServiceParamsSafeProvider(factory: SecondServiceFactory(), safeThread: .lock)
    /// ```
    public init<Factory: ServiceParamsFactory>(
        factory: Factory,
        safeThread kind: ServiceSafeProviderKind = .default
    ) where Factory.ServiceType == ServiceType, Factory.ParamsType == ParamsType {
        super.init(maker: ParamsMaker(factory: Self.serialized(factory.makeService(params:))), serializer: Serializer(kind: kind))
    }

    /// A safe provider that makes the service with `factory`, which is `sending` as
    /// ``ServiceSafeProvider/init(mode:safeThread:factory:)``'s is: the compiler checks that
    /// nothing else keeps what it captures, and that it belongs to no actor.
    ///
    /// ```swift
    /// let greeters = ServiceParamsSafeProvider<Greeter, String>(safeThread: .lock) { name in
    ///     Greeter(name: name)
    /// }
    /// ```
    public init(
        safeThread kind: ServiceSafeProviderKind = .default,
        factory: sending @escaping (ParamsType) throws -> ServiceType
    ) {
        super.init(maker: ParamsMaker(factory: Self.serialized(factory)), serializer: Serializer(kind: kind))
    }

    /// `factory`, which need not be `Sendable`, as the `Sendable` closure the maker keeps: this
    /// provider's serializer runs it one call at a time (see `Unchecked.swift`, "Values a
    /// closure captures").
    static func serialized(
        _ factory: @escaping (ParamsType) throws -> ServiceType
    ) -> @Sendable (ParamsType) throws -> ServiceType {
        nonisolated(unsafe) let factory = factory
        return { try factory($0) }
    }

    /// A safe provider of this service made with fixed `params`, sharing this provider's
    /// serialization.
    ///
    /// ```swift
    /// let fixed: ServiceSafeProvider<SecondService> = safeProvider.convert(params: .init(number: 0))
    /// ```
    public override func convert(params: ParamsType) -> ServiceSafeProvider<ServiceType> {
        // The superclass makes a safe provider whenever there is a serializer, as here.
        super.convert(params: params) as! ServiceSafeProvider<ServiceType>
    }

    /// Makes a service for `params` without the serialization: the factory may run concurrently.
    ///
    /// ```swift
    /// let result = safeProvider.getServiceAsResultNotSafe(params: .init(number: 1))
    /// ```
    public func getServiceAsResultNotSafe(params: ParamsType) -> Result<ServiceType, ServiceObtainError> {
        Result { () throws(ServiceObtainError) -> ServiceType in try maker.make(params) }
    }
}
