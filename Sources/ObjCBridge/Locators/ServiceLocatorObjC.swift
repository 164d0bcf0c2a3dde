import Foundation

/// An `NSObject` wrapper over a `ServiceLocator` for callers that think in Objective-C terms
/// (visible as `ServiceLocator` to Objective-C on Apple platforms): they get services with
/// `ServiceLocatorObjCKey`s; adding and removing services stays in Swift.
///
/// ```swift
/// let locatorObjC = ServiceLocatorObjC(locator)
/// let first = locatorObjC.getServiceWithKey(.firstService)                  // [locator getServiceWithKey:ServiceLocatorKey.firstService]
/// var error: NSError?
/// let second = locatorObjC.getServiceWithKey(.secondService, error: &error) // [locator getServiceWithKey:... error:&error]
/// ```
///
/// Errors are `NSError`s of `ServiceObjCError.domain`: `serviceNotFound` when nothing of the
/// key's type is stored under the key (here or in a parent), `wrongParams`, `obtainFailure`
/// and `notNSObject` as for the provider wrappers.
#if canImport(ObjectiveC)
@objc(ServiceLocator)
#endif
public final class ServiceLocatorObjC: NSObject, Sendable {
    /// The wrapped locator.
    ///
    /// ```swift
    /// let key = ServiceLocatorEasyKey<FirstService>()
    /// locatorObjC.locator.addService(key: key, service: FirstService())  // adding stays in Swift
    /// ```
    public let locator: ServiceLocator

    /// Wraps `locator`.
    ///
    /// ```swift
    /// let locatorObjC = ServiceLocatorObjC(locator)
    /// ```
    public init(_ locator: ServiceLocator) {
        self.locator = locator
        super.init()
    }

    /// The service under `key`, or `nil` when it cannot be had
    /// (`[locator getServiceWithKey:key]`).
    ///
    /// ```swift
    /// let first = locatorObjC.getServiceWithKey(.firstService) as? FirstService
    /// ```
    #if canImport(ObjectiveC)
    @objc(getServiceWithKey:)
    #endif
    public func getServiceWithKey(_ key: ServiceLocatorObjCKey) -> Any? {
        try? key.obtain(locator, nil)
    }

    /// The service under `key`, or `nil` with the reason written to `error`
    /// (`[locator getServiceWithKey:key error:&error]`); `error` is set to `nil` on success.
    ///
    /// ```swift
    /// var error: NSError?
    /// let first = locatorObjC.getServiceWithKey(.firstService, error: &error)
    /// ```
    #if canImport(ObjectiveC)
    @objc(getServiceWithKey:error:)
    #endif
    public func getServiceWithKey(_ key: ServiceLocatorObjCKey, error: ServiceErrorPointer) -> Any? {
        getServiceWithKey(key, params: nil, error: error)
    }

    /// The service under `key` made from `params`, or `nil` when it cannot be had
    /// (`[locator getServiceWithKey:key params:params]`). `nil` params means none.
    ///
    /// ```swift
    /// let second = locatorObjC.getServiceWithKey(.secondService, params: "Ann")
    /// ```
    #if canImport(ObjectiveC)
    @objc(getServiceWithKey:params:)
    #endif
    public func getServiceWithKey(_ key: ServiceLocatorObjCKey, params: Any?) -> Any? {
        try? key.obtain(locator, params)
    }

    /// The service under `key` made from `params`, or `nil` with the reason written to `error`
    /// (`[locator getServiceWithKey:key params:params error:&error]`); `error` is set to `nil`
    /// on success.
    ///
    /// ```swift
    /// var error: NSError?
    /// let second = locatorObjC.getServiceWithKey(.secondService, params: "Ann", error: &error)
    /// ```
    #if canImport(ObjectiveC)
    @objc(getServiceWithKey:params:error:)
    #endif
    public func getServiceWithKey(_ key: ServiceLocatorObjCKey, params: Any?, error: ServiceErrorPointer) -> Any? {
        ServiceObjCFailure.returning(error) { () throws(ServiceObjCFailure) -> NSObject in
            do throws(ServiceObjCFailure) {
                return try key.obtain(locator, params)
            } catch {
                throw error.explained(by: locator.storage)
            }
        }
    }
}
