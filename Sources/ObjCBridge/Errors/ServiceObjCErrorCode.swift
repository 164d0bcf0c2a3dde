/// The codes of the `NSError`s the Objective-C style wrappers give, all in the
/// `ServiceObjCError.domain` domain.
///
/// ```swift
/// var error: NSError?
/// let service = locatorObjC.getServiceWithKey(.firstService, error: &error)
/// if let error, ServiceObjCError.code(of: error) == .serviceNotFound {
///     // nothing is stored under the key
/// }
/// ```
#if canImport(ObjectiveC)
@objc(ServiceErrorCode)
#endif
public enum ServiceObjCErrorCode: Int, Sendable, CaseIterable {
    /// The provider failed to obtain the service: its factory (or a dependency's) threw, its
    /// session has the wrong type, or a dependency cycle was found. The underlying error is the
    /// `ServiceObtainError`.
    case obtainFailure = 1

    /// The service was obtained, but it is not an `NSObject` (nor bridges to one, as `String`
    /// does to `NSString`), or it is `nil`, so it cannot be handed out. The underlying error is
    /// a ``ServiceNotNSObjectError``.
    case notNSObject = 2

    /// A locator has no service under the key, class or protocol asked for. The underlying
    /// error is the locator's error.
    case serviceNotFound = 3

    /// The params given are not of the type the service is made from. The underlying error is
    /// the `ServiceObtainError` (or the locator's error) saying which type was expected.
    case wrongParams = 4
}
