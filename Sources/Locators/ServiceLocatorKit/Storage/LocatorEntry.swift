/// What a locator's slot holds: a ``ServiceProvider`` (a service got without params), or a
/// `ParamsServiceEntry` (a params provider).
///
/// A typed get casts the slot's object to the `ServiceProvider` it wants, one class cast, as a
/// lookup in an `[ObjectIdentifier: AnyObject]` dictionary would; callers that know the service
/// type only at run time (the Objective-C style wrappers, error messages) go through this
/// protocol.
package protocol LocatorEntry: AnyObject, Sendable {
    /// The type of the service.
    var serviceType: Any.Type { get }
    /// The type of its params; `nil` when it takes none.
    var paramsType: Any.Type? { get }
    /// The provider of the service without params: the provider itself, the params provider
    /// converted with `nil` params when they are optional, or `nil`.
    var plainProvider: AnyObject? { get }
    /// The provider stored: the provider itself, or the params provider.
    var storedProvider: AnyObject { get }
    /// The service as `Any`; `nil` params means none.
    func anyService(key: ServiceLocatorKeyID, params: Any?) -> Result<Any, any Error>
    /// The type of the service held ready (an instance, an `atOne` service or a made `lazy`
    /// one), which may be a subtype of `serviceType`, read without making anything; `nil` for
    /// every other entry. Only a miss's error asks for it (`LocatorStorage.implementation(of:missing:)`).
    var readyServiceType: Any.Type? { get }
}

extension ServiceProvider: LocatorEntry {
    package var serviceType: Any.Type { ServiceType.self }
    package var paramsType: Any.Type? { nil }
    package var plainProvider: AnyObject? { self }
    package var storedProvider: AnyObject { self }
    package var readyServiceType: Any.Type? { readyService.map { type(of: $0 as Any) } }

    package func anyService(key: ServiceLocatorKeyID, params: Any?) -> Result<Any, any Error> {
        guard let params else {
            return getServiceAsResult().map { $0 }.mapError { $0 }
        }
        return .failure(
            ServiceLocatorError.wrongParams(key: key, service: ServiceType.self, expected: nil, received: type(of: params))
        )
    }
}
