/// The ready-made key of a `ServiceType` service got with `ParamsType` params; its slot is the
/// service type, the same as `ServiceLocatorEasyKey<ServiceType>`'s.
///
/// ```swift
/// enum ServiceLocatorKeys {
///     static let secondService = ServiceLocatorParamsEasyKey<SecondService, SecondServiceParams?>()
/// }
/// ```
public struct ServiceLocatorParamsEasyKey<ServiceType, ParamsType>: ServiceLocatorParamsKey {
    /// A key of the `ServiceType` service got with `ParamsType` params.
    ///
    /// ```swift
    /// let key = ServiceLocatorParamsEasyKey<SecondService, SecondServiceParams?>()
    /// ```
    @inlinable
    public init() {}

    /// The full name of `ServiceType` (built when asked; gets use `keyID`).
    public var storeKey: String { String(reflecting: ServiceType.self) }

    /// The slot named by `ServiceType`.
    @inlinable
    public var keyID: ServiceLocatorKeyID { ServiceLocatorKeyID(serviceType: ServiceType.self) }
}
