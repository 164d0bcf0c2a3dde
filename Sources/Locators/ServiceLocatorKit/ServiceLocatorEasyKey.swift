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
    public var storeKey: String { String(reflecting: ServiceType.self) }

    /// The slot named by `ServiceType`.
    @inlinable
    public var keyID: ServiceLocatorKeyID { ServiceLocatorKeyID(serviceType: ServiceType.self) }
}
