import Foundation

/// The cause of a `ServiceObjCErrorCode.notNSObject` error: the provider gave a service, but it
/// is not an `NSObject`, so an Objective-C style caller cannot receive it.
///
/// Services are handed out when `as? NSObject` succeeds: `NSObject` subclasses, and values
/// Foundation bridges (`String` to `NSString`, numbers to `NSNumber`, arrays, dictionaries).
/// Structs, enums and classes that do not inherit from `NSObject` are refused, and so is an
/// optional service that is `nil` (``isNil``): such a caller would take `nil` for a failure
/// without an error.
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
    ///
    /// ```swift
    /// let cause = error.userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError
    /// let asked = cause.map { "\($0.service)" } ?? "another error"  // the provider's service type
    /// ```
    public let service: Any.Type

    /// The type of the value that was obtained: of the value inside it, for an optional that
    /// holds one; the optional's own type (`Optional<Settings>`) for one that is `nil`
    /// (``isNil``).
    ///
    /// ```swift
    /// if let cause = error.userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError, !cause.isNil {
    ///     print(cause.obtainedType)  // the type to make a subclass of NSObject, or to wrap in one
    /// }
    /// ```
    public let obtainedType: Any.Type

    /// Whether the value obtained was `nil`: an optional service that was absent.
    ///
    /// ```swift
    /// if let cause = error.userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError, cause.isNil {
    ///     print("the provider of \(cause.service) gave nil")
    /// }
    /// ```
    public let isNil: Bool

    /// Makes the error for a `service` provider that gave a value of `obtainedType`, or `nil`
    /// when `isNil`.
    ///
    /// ```swift
    /// let error = ServiceNotNSObjectError(service: Settings.self, obtainedType: Settings.self)
    /// ```
    public init(service: Any.Type, obtainedType: Any.Type, isNil: Bool = false) {
        self.service = service
        self.obtainedType = obtainedType
        self.isNil = isNil
    }

    /// A sentence naming the service and the type that is not an `NSObject` (or saying that the
    /// service was `nil`), and what to do.
    ///
    /// ```swift
    /// let cause = ServiceNotNSObjectError(service: Settings.self, obtainedType: Settings.self)
    /// print(cause)  // "Service App.Settings cannot be handed to an Objective-C style caller: it is not ..."
    /// ```
    public var description: String {
        let name = TypeName.of(service)
        if isNil {
            return "Service \(name) cannot be handed to an Objective-C style caller: the provider gave nil, "
                + "which such a caller takes for a failure; make the factory return an object, or throw an error "
                + "that says why there is none"
        }
        let obtained = TypeName.of(obtainedType)
        let what = name == obtained ? "it" : "it is of type \(obtained), which"
        // A class can become a subclass of NSObject; a struct, an enum or a tuple can only be wrapped.
        let fix =
            obtainedType is AnyObject.Type
            ? "make \(obtained) a subclass of NSObject, or provide an NSObject that wraps it"
            : "provide an NSObject subclass that wraps it"
        return "Service \(name) cannot be handed to an Objective-C style caller: \(what) is not an NSObject; \(fix)"
    }

    /// The same text as `description`.
    ///
    /// ```swift
    /// let cause = ServiceNotNSObjectError(service: Settings.self, obtainedType: Settings.self, isNil: true)
    /// print(cause.errorDescription ?? "")  // "Service App.Settings cannot be handed ...: the provider gave nil, ..."
    /// ```
    public var errorDescription: String? { description }
}
