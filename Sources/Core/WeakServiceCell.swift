/// Keeps a `weak` service: made on a get when none is alive, held weakly.
@usableFromInline
final class WeakServiceCell<Service>: @unchecked Sendable {
    // `held` is read and written under `lock`; `factory` never changes.
    @usableFromInline let lock = ServiceLock()
    private let factory: () throws -> Service
    @usableFromInline @exclusivity(unchecked) var held: WeakServiceReference<Service>?

    init(factory: @escaping () throws -> Service) {
        self.factory = factory
    }

    /// The fast path, inlined so it is specialized for `Service`:
    /// try the lock and read the held service; anything else goes to `SingletonCreation.makeLocked`.
    @inlinable
    func get() throws(ServiceObtainError) -> Service {
        if lock.tryLock() {
            let service = held?.load()
            lock.unlock()
            if let service { return service }
        }
        return try make()
    }

    @usableFromInline
    func make() throws(ServiceObtainError) -> Service {
        try SingletonCreation.makeLocked(
            id: ObjectIdentifier(self),
            lock: lock,
            cached: { held?.load() },
            create: { () throws(ServiceObtainError) -> Service in
                let service = try ServiceMaking.make(Service.self, factory)
                held = WeakServiceReference(service)
                return service
            }
        )
    }
}
