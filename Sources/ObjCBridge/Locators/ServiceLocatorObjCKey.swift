import Foundation

/// A `ServiceLocator` key for Objective-C style callers (visible as `ServiceLocatorKey` to
/// Objective-C on Apple platforms).
///
/// Make one in Swift from a typed key, usually as a static property that Objective-C style
/// code reads:
///
/// ```swift
/// extension ServiceLocatorObjCKey {
///     static let firstService = ServiceLocatorObjCKey(FirstServiceFactory.defaultKey)
/// }
/// ```
///
/// and get the service with it:
///
/// ```swift
/// // [locator getServiceWithKey:ServiceLocatorKey.firstService]
/// let service = locatorObjC.getServiceWithKey(.firstService)
/// ```
///
/// A key made from a typed key gets its service the typed way (no `Any` round trip when no
/// params are given) and names its service type in errors. A key made from a bare `storeKey`
/// finds services added with keys whose slot is their `storeKey` (custom `ServiceLocatorKey`
/// types), whatever their type, and, as in 2.0.1, services added with an easy key when
/// `storeKey` is the name of their type (`ServiceLocatorObjCKey(storeKey: "FirstService")`).
#if canImport(ObjectiveC)
@objc(ServiceLocatorKey)
#endif
public final class ServiceLocatorObjCKey: NSObject, Sendable {
    /// The key's store key: the name of its slot.
    ///
    /// ```swift
    /// print(ServiceLocatorObjCKey.secondService.storeKey)  // "App.SecondService": the typed key's storeKey
    /// ```
    public let storeKey: String

    /// The service type of the typed key, or `nil` for a key made from a bare `storeKey`.
    ///
    /// ```swift
    /// print(ServiceLocatorObjCKey(storeKey: "FirstService").serviceType == nil)  // true: a bare store key
    /// ```
    public let serviceType: Any.Type?

    @usableFromInline let keyID: ServiceLocatorKeyID
    @usableFromInline let obtain: @Sendable (ServiceLocator, Any?) throws(ServiceObjCFailure) -> NSObject

    @usableFromInline
    init(
        storeKey: String,
        keyID: ServiceLocatorKeyID,
        serviceType: Any.Type?,
        obtain: @escaping @Sendable (ServiceLocator, Any?) throws(ServiceObjCFailure) -> NSObject
    ) {
        self.storeKey = storeKey
        self.keyID = keyID
        self.serviceType = serviceType
        self.obtain = obtain
        super.init()
    }

    /// Wraps the typed `key`; params keys included.
    ///
    /// ```swift
    /// let key = ServiceLocatorObjCKey(SecondServiceFactory.defaultKey)
    /// ```
    @inlinable
    public convenience init<Key: ServiceLocatorKey>(_ key: Key) {
        self.init(storeKey: key.storeKey, keyID: key.keyID, serviceType: Key.ServiceType.self) {
            locator, params throws(ServiceObjCFailure) -> NSObject in
            guard let params else {
                let service: Key.ServiceType
                do {
                    service = try locator.unexplainedService(key: key)
                } catch {
                    throw .locator(error, service: Key.ServiceType.self)
                }
                return try ServiceObjCFailure.object(service, as: Key.ServiceType.self)
            }
            return try Self.service(in: locator, key: key, params: params)
        }
    }

    /// The service under the typed `key` made from untyped `params`, which the locator casts.
    @usableFromInline
    static func service<Key: ServiceLocatorKey>(
        in locator: ServiceLocator,
        key: Key,
        params: Any
    ) throws(ServiceObjCFailure) -> NSObject {
        let service: Any
        do {
            service = try locator.anyService(key: key, params: params)
        } catch {
            throw .locator(error, service: Key.ServiceType.self)
        }
        return try ServiceObjCFailure.object(service, as: Key.ServiceType.self)
    }

    /// A key of the slot named `storeKey`, whatever the type of the service stored there.
    ///
    /// When no service is stored under that string, the key finds a service added with an easy
    /// key (or `Factory.defaultKey`) whose type is called `storeKey`: its full name (the easy
    /// key's `storeKey`), or its short name as 2.0.1's easy keys spelled it when only one type
    /// of the locator has that name.
    ///
    /// ```swift
    /// locator.addService(key: ServiceLocatorEasyKey<FirstService>(), service: FirstService())
    /// ServiceLocatorObjC(locator).getServiceWithKey(ServiceLocatorObjCKey(storeKey: "FirstService"))
    /// ```
    public convenience init(storeKey: String) {
        let keyID = ServiceLocatorKeyID(storeKey: storeKey)
        self.init(storeKey: storeKey, keyID: keyID, serviceType: nil) {
            locator, params throws(ServiceObjCFailure) -> NSObject in
            guard let entry = locator.storage.lookup(keyID) ?? locator.storage.lookup(typeNamed: storeKey) else {
                throw .locator(ServiceLocatorError.serviceNotFound(key: keyID, service: Any.self), service: nil)
            }
            let service: Any
            do {
                service = try entry.anyService(key: keyID, params: params).get()
            } catch {
                throw .locator(error, service: entry.serviceType)
            }
            return try ServiceObjCFailure.object(service, as: entry.serviceType)
        }
    }

    /// Keys are equal when they name the same slot.
    ///
    /// ```swift
    /// let key = ServiceLocatorObjCKey(FirstServiceFactory.defaultKey)
    /// key.isEqual(ServiceLocatorObjCKey.firstService)                // true
    /// key.isEqual(ServiceLocatorObjCKey(storeKey: "FirstService"))  // false: a name, not the type
    /// ```
    public override func isEqual(_ object: Any?) -> Bool {
        // Unwrapped before the cast, as every optional the package casts (see
        // `ServiceHolder.load()` on what the optimizer does otherwise).
        guard let object, let other = object as? ServiceLocatorObjCKey else { return false }
        return keyID == other.keyID
    }

    /// The hash of the slot the key names.
    ///
    /// ```swift
    /// let keys: Set<ServiceLocatorObjCKey> = [.secondService, ServiceLocatorObjCKey(SecondServiceFactory.defaultKey)]
    /// print(keys.count)  // 1: both name the slot of SecondService
    /// ```
    public override var hash: Int {
        keyID.hashValue
    }

    /// Names the class and the key's slot: a type as it is, a name as a string literal, so that
    /// the slot of a type and the slot named by the type's name (two slots) read differently.
    ///
    /// ```swift
    /// print(ServiceLocatorObjCKey.secondService)  // ServiceLocatorObjCKey(App.SecondService)
    /// print(ServiceLocatorObjCKey(storeKey: "App.SecondService"))  // ServiceLocatorObjCKey("App.SecondService")
    /// ```
    public override var description: String {
        keyID.serviceType == nil ? "ServiceLocatorObjCKey(\(String(reflecting: keyID.description)))" : "ServiceLocatorObjCKey(\(keyID))"
    }
}
