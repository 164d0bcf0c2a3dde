/// A service stored in a locator. Immutable; the typed subclasses keep the providers.
///
/// A get checks `serviceTypeID` (and `paramsTypeID`) against the requested types and then
/// downcasts without a dynamic cast: no `Any` round trip on the typed paths.
package class LocatorEntry: @unchecked Sendable {
    // Immutable.
    package let serviceType: Any.Type
    package let serviceTypeID: ObjectIdentifier
    package let paramsType: Any.Type?
    package let paramsTypeID: ObjectIdentifier?

    init(serviceType: Any.Type, paramsType: Any.Type?) {
        self.serviceType = serviceType
        self.serviceTypeID = ObjectIdentifier(serviceType)
        self.paramsType = paramsType
        self.paramsTypeID = paramsType.map(ObjectIdentifier.init)
    }

    /// The service as `Any`, for callers that know its type only at run time; `nil` params means
    /// none.
    package func anyService(key: ServiceLocatorKeyID, params: Any?) -> Result<Any, any Error> {
        preconditionFailure("LocatorEntry is abstract")
    }
}
