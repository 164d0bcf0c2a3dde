import Foundation

/// The domain and `userInfo` keys of the `NSError`s the Objective-C style wrappers give.
///
/// Every such error has:
/// - `domain` == `ServiceObjCError.domain`, `code` == a ``ServiceObjCErrorCode`` raw value;
/// - `NSLocalizedDescriptionKey`: the Swift error's message, naming the service type and the
///   cause (for obtain failures, the `ServiceObtainError.fatalMessage`);
/// - `NSUnderlyingErrorKey`: the original Swift error, unchanged;
/// - `ServiceObjCError.serviceTypeKey`: the name of the service type that was asked for (absent
///   only when a locator key made from a bare `storeKey` found nothing).
///
/// ```swift
/// var error: NSError?
/// if provider.getServiceAndReturnError(&error) == nil, let error {
///     let code = ServiceObjCError.code(of: error)  // .obtainFailure, .notNSObject, ...
///     let cause = error.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError
/// }
/// ```
public enum ServiceObjCError {
    /// The domain of every `NSError` the wrappers give: `"ServiceContainerKitObjC.ServiceError"`.
    ///
    /// ```swift
    /// if error.domain == ServiceObjCError.domain {
    ///     print("a wrapper's error:", error.localizedDescription)
    /// }
    /// ```
    public static let domain = "ServiceContainerKitObjC.ServiceError"

    /// The `userInfo` key of the full name of the service type that was asked for (a `String`;
    /// absent when the type is not known, as for a missing `ServiceLocatorObjCKey(storeKey:)`).
    ///
    /// ```swift
    /// let serviceName = error.userInfo[ServiceObjCError.serviceTypeKey] as? String  // "App.ProfileService"
    /// ```
    public static let serviceTypeKey = "ServiceContainerKitObjC.ServiceType"

    /// The code of `error` when it is one of the wrappers' errors, otherwise `nil`.
    ///
    /// ```swift
    /// let notFound = ServiceObjCError.code(of: error) == .serviceNotFound
    /// ```
    public static func code(of error: NSError) -> ServiceObjCErrorCode? {
        guard error.domain == domain else { return nil }
        return ServiceObjCErrorCode(rawValue: error.code)
    }

    /// An error of the wrappers' domain with `code`, describing `underlying` for a `service`.
    static func make(code: ServiceObjCErrorCode, service: Any.Type?, underlying: any Error, message: String)
        -> NSError
    {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message, NSUnderlyingErrorKey: underlying]
        if let service {
            userInfo[serviceTypeKey] = TypeName.of(service)
        }
        return NSError(domain: domain, code: code.rawValue, userInfo: userInfo)
    }
}
