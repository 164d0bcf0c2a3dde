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

    /// The `ServiceProvider<Service>` that gives the service without params (`nil` for a params
    /// service whose params are not optional), kept here so that a typed get, once it has
    /// checked `serviceTypeID`, reaches it with a plain downcast, without the metadata of the
    /// generic subclass.
    package let plainProvider: AnyObject?

    init(serviceType: Any.Type, paramsType: Any.Type?, plainProvider: AnyObject?) {
        self.serviceType = serviceType
        self.serviceTypeID = ObjectIdentifier(serviceType)
        self.paramsType = paramsType
        self.paramsTypeID = paramsType.map(ObjectIdentifier.init)
        self.plainProvider = plainProvider
    }

    /// `plainProvider` when the entry holds a service of the type whose identifier is
    /// `serviceTypeID`; `nil` otherwise.
    @inline(__always)
    final func plainProvider(serving serviceTypeID: ObjectIdentifier) -> AnyObject? {
        serviceTypeID == self.serviceTypeID ? plainProvider : nil
    }

    /// The service as `Any`, for callers that know its type only at run time; `nil` params means
    /// none.
    package func anyService(key: ServiceLocatorKeyID, params: Any?) -> Result<Any, any Error> {
        preconditionFailure("LocatorEntry is abstract")
    }
}
