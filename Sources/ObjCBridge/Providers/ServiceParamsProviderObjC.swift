import Foundation

/// An `NSObject` wrapper over a `ServiceParamsProvider` for callers that think in Objective-C
/// terms (visible as `ServiceParamsProvider` to Objective-C on Apple platforms).
///
/// Params come untyped, as Objective-C has them: params that are not the provider's
/// `ParamsType` give a `ServiceObjCErrorCode.wrongParams` error, and `nil` stands for `nil`
/// when `ParamsType` is optional.
///
/// ```swift
/// let paramsObjC = ServiceParamsProviderObjC(GreeterFactory().serviceProvider())
/// let greeter = paramsObjC.getServiceWithParams("Ann") as? Greeter   // [provider getServiceWithParams:@"Ann"]
/// ```
///
/// A service that is not an `NSObject` is refused as `ServiceProviderObjC` does.
#if canImport(ObjectiveC)
@objc(ServiceParamsProvider)
#endif
public final class ServiceParamsProviderObjC: NSObject, Sendable {
    @usableFromInline let obtain: @Sendable (Any?) throws(ServiceObjCFailure) -> NSObject
    private let swiftProvider: any AnyObject & Sendable

    /// The service type of the wrapped provider.
    ///
    /// ```swift
    /// print(paramsObjC.serviceType == ImageLoader.self)  // true
    /// ```
    public let serviceType: Any.Type

    /// The params type of the wrapped provider.
    ///
    /// ```swift
    /// print(paramsObjC.paramsType == String.self)  // true: other params give a wrongParams error
    /// ```
    public let paramsType: Any.Type

    @usableFromInline
    init(
        provider: any AnyObject & Sendable,
        serviceType: Any.Type,
        paramsType: Any.Type,
        obtain: @escaping @Sendable (Any?) throws(ServiceObjCFailure) -> NSObject
    ) {
        self.swiftProvider = provider
        self.serviceType = serviceType
        self.paramsType = paramsType
        self.obtain = obtain
        super.init()
    }

    /// Wraps `provider`, safe params providers included.
    ///
    /// ```swift
    /// let paramsObjC = ServiceParamsProviderObjC(services.greeter)
    /// ```
    @inlinable
    public convenience init<ServiceType, ParamsType>(_ provider: ServiceParamsProvider<ServiceType, ParamsType>) {
        self.init(provider: provider, serviceType: ServiceType.self, paramsType: ParamsType.self) {
            (params: Any?) throws(ServiceObjCFailure) -> NSObject in
            let service = try Self.service(of: provider, params: params)
            return try ServiceObjCFailure.object(service, as: ServiceType.self)
        }
    }

    /// Wraps `provider`, whose services are `NSObject`s.
    ///
    /// ```swift
    /// let paramsObjC = ServiceParamsProviderObjC(services.imageLoader)  // ImageLoader is an NSObject
    /// ```
    @inlinable
    public convenience init<ServiceType: NSObject, ParamsType>(
        _ provider: ServiceParamsProvider<ServiceType, ParamsType>
    ) {
        self.init(provider: provider, serviceType: ServiceType.self, paramsType: ParamsType.self) {
            (params: Any?) throws(ServiceObjCFailure) -> NSObject in
            try Self.service(of: provider, params: params)
        }
    }

    /// Gets the service for untyped `params`, read as the provider reads them
    /// (`getServiceAsResult(untypedParams:)`, specialized for the caller's types).
    @inlinable
    static func service<ServiceType, ParamsType>(
        of provider: ServiceParamsProvider<ServiceType, ParamsType>,
        params: Any?
    ) throws(ServiceObjCFailure) -> ServiceType {
        switch provider.getServiceAsResult(untypedParams: params) {
        case .success(let service): return service
        case .failure(let error): throw .obtain(error)
        }
    }

    /// The wrapped provider as a `ServiceParamsProvider<ServiceType, ParamsType>`, or `nil`
    /// when its types differ.
    ///
    /// ```swift
    /// let provider: ServiceParamsProvider<Greeter, String>? = paramsObjC.provider()
    /// ```
    public func provider<ServiceType, ParamsType>(
        of type: ServiceType.Type = ServiceType.self,
        params: ParamsType.Type = ParamsType.self
    ) -> ServiceParamsProvider<ServiceType, ParamsType>? {
        swiftProvider as? ServiceParamsProvider<ServiceType, ParamsType>
    }

    /// A service made for `params`, or `nil` when it cannot be made
    /// (`[provider getServiceWithParams:params]`).
    ///
    /// ```swift
    /// let loader = paramsObjC.getServiceWithParams("https://img") as? ImageLoader
    /// ```
    #if canImport(ObjectiveC)
    @objc(getServiceWithParams:)
    #endif
    public func getServiceWithParams(_ params: Any?) -> Any? {
        do {
            return try obtain(params)
        } catch {
            return nil
        }
    }

    /// A service made for `params`; when it cannot be made, stops the program with a message
    /// naming the service and the cause, at the caller's `file` and `line`
    /// (`[provider getServiceOrFatalWithParams:params]`).
    ///
    /// ```swift
    /// let loader = paramsObjC.getServiceOrFatalWithParams("https://img") as! ImageLoader
    /// ```
    public func getServiceOrFatalWithParams(_ params: Any?, file: StaticString = #fileID, line: UInt = #line) -> Any {
        do {
            return try obtain(params)
        } catch {
            error.stop(file: file, line: line)
        }
    }

    #if canImport(ObjectiveC)
    /// `getServiceOrFatalWithParams(_:)` for Objective-C callers, which pass no file or line;
    /// Swift code calls `getServiceOrFatalWithParams(_:)`.
    ///
    /// ```swift
    /// // [provider getServiceOrFatalWithParams:@"https://img"]; Swift code writes:
    /// let loader = paramsObjC.getServiceOrFatalWithParams("https://img") as! ImageLoader
    /// ```
    @available(swift, obsoleted: 1)
    @objc(getServiceOrFatalWithParams:)
    public func objcGetServiceOrFatalWithParams(_ params: Any?) -> Any {
        getServiceOrFatalWithParams(params)
    }
    #endif

    /// A service made for `params`, or `nil` with the reason written to `error`
    /// (`[provider getServiceWithParams:params andReturnError:&error]`).
    ///
    /// ```swift
    /// var error: NSError?
    /// let loader = paramsObjC.getServiceWithParams("https://img", andReturnError: &error)
    /// ```
    ///
    /// - Parameters:
    ///   - params: the params to make the service with.
    ///   - error: receives the `NSError` (domain `ServiceObjCError.domain`) on failure,
    ///   and `nil` on success; may itself be `nil`.
    #if canImport(ObjectiveC)
    @objc(getServiceWithParams:andReturnError:)
    #endif
    public func getServiceWithParams(_ params: Any?, andReturnError error: ServiceErrorPointer) -> Any? {
        ServiceObjCFailure.returning(error) { () throws(ServiceObjCFailure) -> NSObject in
            try obtain(params)
        }
    }

    /// Names the class, the service type and the params type.
    ///
    /// ```swift
    /// print(paramsObjC)  // ServiceParamsProviderObjC<App.ImageLoader, Swift.String>
    /// ```
    public override var description: String {
        "ServiceParamsProviderObjC<\(TypeName.of(serviceType)), \(TypeName.of(paramsType))>"
    }
}
