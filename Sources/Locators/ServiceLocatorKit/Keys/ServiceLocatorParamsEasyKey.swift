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
    ///
    /// ```swift
    /// print(ServiceLocatorKeys.secondService.storeKey)  // "App.SecondService", as ServiceLocatorEasyKey<SecondService> has it
    /// ```
    public var storeKey: String { String(reflecting: ServiceType.self) }

    /// The slot named by `ServiceType`.
    ///
    /// ```swift
    /// print(ServiceLocatorKeys.secondService.keyID == ServiceLocatorEasyKey<SecondService>().keyID)  // true: one slot per type
    /// ```
    @inlinable
    public var keyID: ServiceLocatorKeyID { ServiceLocatorKeyID(serviceType: ServiceType.self) }
}
