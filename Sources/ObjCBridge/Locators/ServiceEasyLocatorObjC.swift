import Foundation

/// An `NSObject` wrapper over a `ServiceEasyLocator` for callers that think in Objective-C
/// terms (visible as `ServiceEasyLocator` to Objective-C on Apple platforms): they get services
/// by class or protocol; adding and removing services stays in Swift.
///
/// ```swift
/// let easyObjC = ServiceEasyLocatorObjC(easyLocator)
/// let first = easyObjC.getServiceWithClass(FirstService.self)                 // [locator getServiceWithClass:FirstService.class]
/// let third = easyObjC.getServiceWithProtocol((any ThirdServicing).self)      // [locator getServiceWithProtocol:@protocol(ThirdServicing)]
/// ```
///
/// A service is found under the exact type it was added as, compared by identity: the class
/// object finds a service added under that Swift class however its name is spelled (with or
/// without the module prefix, or an `@objc` name). On Linux, where there are no protocol
/// objects, the protocol is given as its metatype.
///
/// Errors are `NSError`s of `ServiceObjCError.domain`: `serviceNotFound` when the type is
/// stored neither here nor in a parent, `wrongParams`, `obtainFailure` and `notNSObject` as for
/// the provider wrappers.
#if canImport(ObjectiveC)
@objc(ServiceEasyLocator)
#endif
public final class ServiceEasyLocatorObjC: NSObject, Sendable {
    /// The wrapped locator.
    ///
    /// ```swift
    /// easyObjC.locator.addService { FirstService() }  // adding stays in Swift, on the wrapped locator
    /// ```
    public let locator: ServiceEasyLocator

    /// Wraps `locator`.
    ///
    /// ```swift
    /// let easyObjC = ServiceEasyLocatorObjC(easyLocator)
    /// ```
    public init(_ locator: ServiceEasyLocator) {
        self.locator = locator
        super.init()
    }

    private func obtain(_ serviceType: Any.Type, params: Any?) throws(ServiceObjCFailure) -> NSObject {
        let service: Any
        do {
            service = try locator.anyService(serviceType: serviceType, params: params)
        } catch {
            throw .locator(error, service: serviceType)
        }
        return try ServiceObjCFailure.object(service, as: serviceType)
    }

    private func obtain(_ serviceType: Any.Type, params: Any?, error: ServiceErrorPointer) -> Any? {
        ServiceObjCFailure.returning(error) { () throws(ServiceObjCFailure) -> NSObject in
            do throws(ServiceObjCFailure) {
                return try obtain(serviceType, params: params)
            } catch {
                throw error.explained(by: locator.storage)
            }
        }
    }

    // MARK: - By class

    /// The service added under `serviceClass`, or `nil` when it cannot be had
    /// (`[locator getServiceWithClass:FirstService.class]`).
    ///
    /// ```swift
    /// let first = easyObjC.getServiceWithClass(FirstService.self) as? FirstService
    /// ```
    #if canImport(ObjectiveC)
    @objc(getServiceWithClass:)
    #endif
    public func getServiceWithClass(_ serviceClass: AnyClass) -> Any? {
        try? obtain(serviceClass, params: nil)
    }

    /// The service added under `serviceClass`, or `nil` with the reason written to `error`
    /// (`[locator getServiceWithClass:FirstService.class error:&error]`).
    ///
    /// ```swift
    /// var error: NSError?
    /// let first = easyObjC.getServiceWithClass(FirstService.self, error: &error)
    /// ```
    #if canImport(ObjectiveC)
    @objc(getServiceWithClass:error:)
    #endif
    public func getServiceWithClass(_ serviceClass: AnyClass, error: ServiceErrorPointer) -> Any? {
        obtain(serviceClass, params: nil, error: error)
    }

    /// The service added under `serviceClass` made from `params`, or `nil` when it cannot be
    /// had (`[locator getServiceWithClass:FirstService.class params:params]`). `nil` params
    /// means none.
    ///
    /// ```swift
    /// let second = easyObjC.getServiceWithClass(SecondService.self, params: "Ann")
    /// ```
    #if canImport(ObjectiveC)
    @objc(getServiceWithClass:params:)
    #endif
    public func getServiceWithClass(_ serviceClass: AnyClass, params: Any?) -> Any? {
        try? obtain(serviceClass, params: params)
    }

    /// The service added under `serviceClass` made from `params`, or `nil` with the reason
    /// written to `error` (`[locator getServiceWithClass:FirstService.class params:params error:&error]`).
    ///
    /// ```swift
    /// var error: NSError?
    /// let second = easyObjC.getServiceWithClass(SecondService.self, params: "Ann", error: &error)
    /// ```
    #if canImport(ObjectiveC)
    @objc(getServiceWithClass:params:error:)
    #endif
    public func getServiceWithClass(_ serviceClass: AnyClass, params: Any?, error: ServiceErrorPointer) -> Any? {
        obtain(serviceClass, params: params, error: error)
    }

    // MARK: - By protocol

    /// The service added under the protocol `serviceProtocol` (a metatype such as
    /// `(any ThirdServicing).self`), or `nil` when it cannot be had
    /// (`[locator getServiceWithProtocol:@protocol(ThirdServicing)]`).
    ///
    /// ```swift
    /// let third = easyObjC.getServiceWithProtocol((any ThirdServicing).self)
    /// ```
    public func getServiceWithProtocol(_ serviceProtocol: Any.Type) -> Any? {
        try? obtain(serviceProtocol, params: nil)
    }

    /// The service added under the protocol `serviceProtocol`, or `nil` with the reason written
    /// to `error` (`[locator getServiceWithProtocol:@protocol(ThirdServicing) error:&error]`).
    ///
    /// ```swift
    /// var error: NSError?
    /// let third = easyObjC.getServiceWithProtocol((any ThirdServicing).self, error: &error)
    /// ```
    public func getServiceWithProtocol(_ serviceProtocol: Any.Type, error: ServiceErrorPointer) -> Any? {
        obtain(serviceProtocol, params: nil, error: error)
    }

    /// The service added under the protocol `serviceProtocol` made from `params`, or `nil` when
    /// it cannot be had (`[locator getServiceWithProtocol:@protocol(ThirdServicing) params:params]`).
    ///
    /// ```swift
    /// let third = easyObjC.getServiceWithProtocol((any ThirdServicing).self, params: "Ann")
    /// ```
    public func getServiceWithProtocol(_ serviceProtocol: Any.Type, params: Any?) -> Any? {
        try? obtain(serviceProtocol, params: params)
    }

    /// The service added under the protocol `serviceProtocol` made from `params`, or `nil` with
    /// the reason written to `error`
    /// (`[locator getServiceWithProtocol:@protocol(ThirdServicing) params:params error:&error]`).
    ///
    /// ```swift
    /// var error: NSError?
    /// let third = easyObjC.getServiceWithProtocol(
    ///     (any ThirdServicing).self, params: "Ann", error: &error
    /// )
    /// ```
    public func getServiceWithProtocol(_ serviceProtocol: Any.Type, params: Any?, error: ServiceErrorPointer) -> Any? {
        obtain(serviceProtocol, params: params, error: error)
    }
}
