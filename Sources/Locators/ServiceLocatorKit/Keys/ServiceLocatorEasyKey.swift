/// The ready-made key of a `ServiceType` service; its slot is the service type itself.
///
/// ```swift
/// enum ServiceLocatorKeys {
///     static let lazyService = ServiceLocatorEasyKey<LazyService>()
/// }
/// ```
public struct ServiceLocatorEasyKey<ServiceType>: ServiceLocatorKey {
    /// A key of the `ServiceType` service.
    ///
    /// ```swift
    /// let key = ServiceLocatorEasyKey<LazyService>()
    /// ```
    @inlinable
    public init() {}

    /// The full name of `ServiceType` (built when asked; gets use `keyID`).
    ///
    /// ```swift
    /// print(ServiceLocatorKeys.lazyService.storeKey)  // "App.LazyService": the type's full name
    /// ```
    public var storeKey: String { String(reflecting: ServiceType.self) }

    /// The slot named by `ServiceType`.
    ///
    /// ```swift
    /// print(ServiceLocatorKeys.lazyService.keyID == ServiceLocatorKeyID(serviceType: LazyService.self))  // true
    /// ```
    @inlinable
    public var keyID: ServiceLocatorKeyID { ServiceLocatorKeyID(serviceType: ServiceType.self) }
}
