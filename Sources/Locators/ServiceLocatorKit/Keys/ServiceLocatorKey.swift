/// A key of a service in a ``ServiceLocator``: it names the slot and carries the service's type.
///
/// ```swift
/// struct FirstServiceLocatorKey: ServiceLocatorKey {
///     typealias ServiceType = FirstService
///     let isShared: Bool
///     var storeKey: String { isShared ? "FirstService.shared" : "FirstService" }
/// }
/// ```
///
/// Keys are `Sendable`, so they can be kept in `static let` constants.
public protocol ServiceLocatorKey: Sendable {
    /// The type of the service stored under the key (often a protocol).
    associatedtype ServiceType

    /// The unique name of the key's slot.
    var storeKey: String { get }

    /// The identity of the key's slot; by default made from `storeKey`.
    var keyID: ServiceLocatorKeyID { get }
}

extension ServiceLocatorKey {
    /// The slot named by `storeKey`.
    ///
    /// ```swift
    /// struct SettingsKey: ServiceLocatorKey { typealias ServiceType = Settings; let storeKey = "settings" }
    /// print(SettingsKey().keyID == ServiceLocatorKeyID(storeKey: "settings"))  // true: the slot of its storeKey
    /// ```
    public var keyID: ServiceLocatorKeyID { ServiceLocatorKeyID(storeKey: storeKey) }
}
