/// A weak reference to a service of any type whose instance is a class object.
///
/// Swift can only hold `AnyObject` weakly, so the reference keeps two things: the object,
/// weakly, and the service value's bits, without retaining them. `load()` first takes a strong
/// reference to the object; only while that is held are the bits copied out as a `Service`,
/// so the copy never sees a freed object and no dynamic cast is needed.
@usableFromInline
final class WeakServiceReference<Service> {
    // Written only in `init`, so no access can conflict with another.
    @usableFromInline @exclusivity(unchecked) weak var object: AnyObject?
    @usableFromInline let bits: UnsafeMutableRawPointer

    /// `nil` when `service` is not a class instance (it cannot be held weakly).
    @usableFromInline
    init?(_ service: Service) {
        let boxed: Any = service
        guard type(of: boxed) is AnyClass else { return nil }
        object = boxed as AnyObject
        bits = .allocate(
            byteCount: MemoryLayout<Service>.size,
            alignment: MemoryLayout<Service>.alignment
        )
        withUnsafeBytes(of: service) { raw in
            bits.copyMemory(from: raw.baseAddress!, byteCount: raw.count)
        }
    }

    deinit {
        // The bits were never retained, so they are freed without being deinitialized.
        bits.deallocate()
    }

    /// The service if it is still alive.
    @inlinable
    func load() -> Service? {
        guard let object else { return nil }
        if Service.self is AnyObject.Type {
            // A class type (decided when specialized): the service is the object itself, so
            // the strong reference just loaded is handed out as is.
            return unsafeBitCast(object, to: Service.self)
        }
        let service = bits.load(as: Service.self)
        // Keeps `object` alive until the copy above has retained the service.
        _fixLifetime(object)
        return service
    }
}

/// A kept service, held strongly or weakly.
@usableFromInline
enum ServiceHolder<Service> {
    case strong(Service)
    case weak(WeakServiceReference<Service>)

    /// Holds `service` strongly, or weakly when `weakly` and it is a class instance; `nil` when
    /// it should be held weakly but cannot be (a value type is then not kept at all).
    @inlinable
    init?(_ service: Service, weakly: Bool) {
        if !weakly {
            self = .strong(service)
        } else if let reference = WeakServiceReference(service) {
            self = .weak(reference)
        } else {
            return nil
        }
    }

    @inlinable
    func load() -> Service? {
        switch self {
        case .strong(let service): return service
        case .weak(let reference): return reference.load()
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
