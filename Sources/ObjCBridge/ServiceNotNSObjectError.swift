import Foundation

/// The cause of a `ServiceObjCErrorCode.notNSObject` error: the provider gave a service, but it
/// is not an `NSObject`, so an Objective-C style caller cannot receive it.
///
/// Services are handed out when `as? NSObject` succeeds: `NSObject` subclasses, and values
/// Foundation bridges (`String` to `NSString`, numbers to `NSNumber`, arrays, dictionaries).
/// Structs, enums and classes that do not inherit from `NSObject` are refused.
///
/// ```swift
/// var error: NSError?
/// if provider.getServiceAndReturnError(&error) == nil, let error,
///     let cause = error.userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError
/// {
///     print(cause)  // "Service App.Settings cannot be handed to an Objective-C style caller: ..."
/// }
/// ```
public struct ServiceNotNSObjectError: Error, LocalizedError, CustomStringConvertible, Sendable {
    /// The service type of the provider (or locator key) asked for.
    public let service: Any.Type

    /// The type of the value that was obtained.
    public let obtainedType: Any.Type

    /// Makes the error for a `service` provider that gave a value of `obtainedType`.
    public init(service: Any.Type, obtainedType: Any.Type) {
        self.service = service
        self.obtainedType = obtainedType
    }

    /// A sentence naming the service and the type that is not an `NSObject`, and what to do.
    public var description: String {
        let name = TypeName.of(service)
        let obtained = TypeName.of(obtainedType)
        let what = name == obtained ? "it" : "it is a \(obtained), which"
        return "Service \(name) cannot be handed to an Objective-C style caller: \(what) is not an NSObject; "
            + "make \(obtained) a subclass of NSObject, or provide an NSObject that wraps it"
    }

    /// The same text as `description`.
    public var errorDescription: String? { description }
}
