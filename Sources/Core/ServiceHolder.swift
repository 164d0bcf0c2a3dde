/// A kept service, held strongly or weakly.
@usableFromInline
enum ServiceHolder<Service> {
    case strong(Service)
    case weak(WeakObject)

    /// Holds `service` strongly, or weakly when `weakly` and it is a class instance; `nil` when
    /// it should be held weakly but cannot be (a value is then not kept at all).
    @inlinable
    init?(_ service: Service, weakly: Bool) {
        guard weakly else {
            self = .strong(service)
            return
        }
        let boxed: Any = service
        guard type(of: boxed) is AnyClass else { return nil }
        self = .weak(WeakObject(boxed as AnyObject))
    }

    /// The service, if it is still alive.
    @inlinable
    func load() -> Service? {
        switch self {
        case .strong(let service): return service
        case .weak(let reference):
            // Unwrapped before the cast: swiftc -O (Swift 6.3) miscompiles a generic `as?` of a
            // nil `AnyObject?` specialized to a class type into a call of
            // `swift_dynamicCastClass` on a null pointer, which crashes once the object died.
            guard let object = reference.object else { return nil }
            return object as? Service
        }
    }

    /// Whether the service is still alive (always, when held strongly).
    @inlinable
    var isAlive: Bool {
        switch self {
        case .strong: return true
        case .weak(let reference): return reference.object != nil
        }
    }
}

/// A weak reference to a service's object.
@usableFromInline
final class WeakObject: @unchecked Sendable {  // `object` never changes but for the runtime zeroing it
    @usableFromInline weak let object: AnyObject?

    @inlinable
    init(_ object: AnyObject) {
        self.object = object
    }
}
