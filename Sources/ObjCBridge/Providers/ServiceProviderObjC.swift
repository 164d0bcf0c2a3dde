import Foundation

/// An `NSObject` wrapper over a `ServiceProvider` for callers that think in Objective-C terms
/// (visible as `ServiceProvider` to Objective-C on Apple platforms).
///
/// Make it in Swift from any provider, safe and session providers included; callers get the
/// service with the methods spelled as the Objective-C selectors:
///
/// ```swift
/// let providerObjC = ServiceProviderObjC(FirstServiceFactory().serviceProvider())
/// let service = providerObjC.getService() as? FirstService         // [provider getService]
/// var error: NSError?
/// let other = providerObjC.getServiceAndReturnError(&error)        // [provider getServiceAndReturnError:&error]
/// ```
///
/// A service is handed out when it is an `NSObject` (or bridges to one, as `String` does to
/// `NSString`); any other service is refused with a `ServiceObjCErrorCode.notNSObject` error
/// and reported to the `ProvidersLogger`s. A successful get costs the provider's get plus that
/// cast.
#if canImport(ObjectiveC)
@objc(ServiceProvider)
#endif
public final class ServiceProviderObjC: NSObject, Sendable {
    @usableFromInline let obtain: @Sendable () throws(ServiceObjCFailure) -> NSObject
    private let swiftProvider: any AnyObject & Sendable

    /// The service type of the wrapped provider.
    ///
    /// ```swift
    /// print(providerObjC.serviceType)  // ProfileService
    /// ```
    public let serviceType: Any.Type

    @usableFromInline
    init(
        provider: any AnyObject & Sendable,
        serviceType: Any.Type,
        obtain: @escaping @Sendable () throws(ServiceObjCFailure) -> NSObject
    ) {
        self.swiftProvider = provider
        self.serviceType = serviceType
        self.obtain = obtain
        super.init()
    }

    /// Wraps `provider`, whose services are checked to be `NSObject`s on each get.
    ///
    /// ```swift
    /// let providerObjC = ServiceProviderObjC(FirstServiceFactory().serviceProvider())
    /// ```
    @inlinable
    public convenience init<ServiceType>(_ provider: ServiceProvider<ServiceType>) {
        self.init(provider: provider, serviceType: ServiceType.self) { () throws(ServiceObjCFailure) -> NSObject in
            let service: ServiceType
            do throws(ServiceObtainError) {
                service = try provider.getService()
            } catch {
                throw .obtain(error)
            }
            return try ServiceObjCFailure.object(service, as: ServiceType.self)
        }
    }

    /// Wraps `provider`, whose services are `NSObject`s.
    ///
    /// ```swift
    /// let providerObjC = ServiceProviderObjC(services.profile)  // ProfileService is an NSObject
    /// ```
    @inlinable
    public convenience init<ServiceType: NSObject>(_ provider: ServiceProvider<ServiceType>) {
        self.init(provider: provider, serviceType: ServiceType.self) { () throws(ServiceObjCFailure) -> NSObject in
            do throws(ServiceObtainError) {
                return try provider.getService()
            } catch {
                throw .obtain(error)
            }
        }
    }

    /// Wraps the provider of `provider`'s service made with fixed `params`
    /// (`provider.convert(params:)`).
    ///
    /// ```swift
    /// let providerObjC = ServiceProviderObjC(services.imageLoader, params: "https://img")
    /// ```
    @inlinable
    public convenience init<ServiceType, ParamsType>(
        _ provider: ServiceParamsProvider<ServiceType, ParamsType>,
        params: ParamsType
    ) {
        self.init(provider.convert(params: params))
    }

    /// The wrapped provider as a `ServiceProvider<ServiceType>`, or `nil` when it provides
    /// another type.
    ///
    /// ```swift
    /// let provider: ServiceProvider<FirstService>? = providerObjC.provider()
    /// ```
    public func provider<ServiceType>(of type: ServiceType.Type = ServiceType.self) -> ServiceProvider<ServiceType>? {
        swiftProvider as? ServiceProvider<ServiceType>
    }

    /// The service, or `nil` when it cannot be had (`[provider getService]`).
    ///
    /// ```swift
    /// let service = providerObjC.getService() as? FirstService
    /// ```
    #if canImport(ObjectiveC)
    @objc(getService)
    #endif
    public func getService() -> Any? {
        do {
            return try obtain()
        } catch {
            return nil
        }
    }

    /// The service; when it cannot be had, stops the program with a message naming the
    /// service and the cause, at the caller's `file` and `line` (`[provider getServiceOrFatal]`).
    ///
    /// ```swift
    /// let profile = providerObjC.getServiceOrFatal() as! ProfileService
    /// ```
    public func getServiceOrFatal(file: StaticString = #fileID, line: UInt = #line) -> Any {
        do {
            return try obtain()
        } catch {
            error.stop(file: file, line: line)
        }
    }

    #if canImport(ObjectiveC)
    /// `getServiceOrFatal()` for Objective-C callers, which pass no file or line; Swift code
    /// calls `getServiceOrFatal()`.
    ///
    /// ```swift
    /// // [provider getServiceOrFatal]; Swift code writes:
    /// let service = providerObjC.getServiceOrFatal() as! FirstService
    /// ```
    @available(swift, obsoleted: 1)
    @objc(getServiceOrFatal)
    public func objcGetServiceOrFatal() -> Any {
        getServiceOrFatal()
    }
    #endif

    /// The service, or `nil` with the reason written to `error`
    /// (`[provider getServiceAndReturnError:&error]`).
    ///
    /// ```swift
    /// var error: NSError?
    /// let service = providerObjC.getServiceAndReturnError(&error)
    /// ```
    ///
    /// - Parameter error: receives the `NSError` (domain `ServiceObjCError.domain`) on failure,
    ///   and `nil` on success; may itself be `nil`.
    #if canImport(ObjectiveC)
    @objc(getServiceAndReturnError:)
    #endif
    public func getServiceAndReturnError(_ error: ServiceErrorPointer) -> Any? {
        ServiceObjCFailure.returning(error) { () throws(ServiceObjCFailure) -> NSObject in
            try obtain()
        }
    }

    /// Names the class and the service type.
    ///
    /// ```swift
    /// print(providerObjC)  // ServiceProviderObjC<App.ProfileService>
    /// ```
    public override var description: String {
        "ServiceProviderObjC<\(TypeName.of(serviceType))>"
    }
}
