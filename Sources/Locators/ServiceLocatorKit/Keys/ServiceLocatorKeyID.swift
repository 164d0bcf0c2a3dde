/// The identity of a slot in a locator: what two keys must share to name the same service.
///
/// The easy keys (``ServiceLocatorEasyKey``, ``ServiceLocatorParamsEasyKey``) and
/// `ServiceEasyLocator` name a slot by the service type; other keys name it by their `storeKey`.
/// Comparing and hashing an identity builds no string, so a get costs the same whatever the
/// number of services.
///
/// ```swift
/// let id = ServiceLocatorEasyKey<Settings>().keyID
/// id == ServiceLocatorKeyID(serviceType: Settings.self)   // true
/// id.serviceType                                         // Settings.self
/// ServiceLocatorKeyID(storeKey: "settings").serviceType  // nil
/// ```
public struct ServiceLocatorKeyID: Hashable, Sendable, CustomStringConvertible {
    /// What names the slot. Locators keep the two kinds of slots apart, so a type slot is
    /// found by the type's `ObjectIdentifier` alone.
    @usableFromInline
    enum Storage: Sendable {
        case type(Any.Type)
        case name(String)
    }

    @usableFromInline let storage: Storage

    /// The slot named by the service type `serviceType`.
    ///
    /// ```swift
    /// let id = ServiceLocatorKeyID(serviceType: Settings.self)  // the slot of the easy keys
    /// ```
    @inlinable
    public init(serviceType: Any.Type) {
        storage = .type(serviceType)
    }

    /// The slot named by the string `storeKey`.
    ///
    /// ```swift
    /// let id = ServiceLocatorKeyID(storeKey: "settings")  // the slot of a key with that storeKey
    /// ```
    @inlinable
    public init(storeKey: String) {
        storage = .name(storeKey)
    }

    /// The service type naming the slot, when the slot is named by a type.
    ///
    /// ```swift
    /// print(ServiceLocatorKeys.firstService.keyID.serviceType == FirstService.self)  // true; nil for a slot named by a string
    /// ```
    public var serviceType: Any.Type? {
        if case .type(let type) = storage { return type }
        return nil
    }

    /// The name of the slot: its `storeKey`, or the full name of its service type as messages
    /// write it (without the address Swift puts in the name of a `private` or local type).
    ///
    /// ```swift
    /// print(ServiceLocatorKeys.firstService.keyID)       // App.FirstService
    /// print(ServiceLocatorKeyID(storeKey: "settings"))  // settings
    /// ```
    public var description: String {
        switch storage {
        case .type(let type): return TypeName.of(type)
        case .name(let name): return name
        }
    }

    /// Whether `lhs` and `rhs` name the same slot.
    ///
    /// ```swift
    /// let named = ServiceLocatorKeyID(storeKey: "Settings")
    /// named == ServiceLocatorKeyID(storeKey: "Settings")        // true
    /// named == ServiceLocatorKeyID(serviceType: Settings.self)  // false: a name is not a type
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case let (.type(left), .type(right)): return ObjectIdentifier(left) == ObjectIdentifier(right)
        case let (.name(left), .name(right)): return left == right
        default: return false
        }
    }

    /// Hashes the slot's identity.
    ///
    /// ```swift
    /// var slots = Set<ServiceLocatorKeyID>()
    /// slots.insert(ServiceLocatorEasyKey<Settings>().keyID)
    /// ```
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .type(let type): hasher.combine(ObjectIdentifier(type))
        case .name(let name): hasher.combine(name)
        }
    }
}
