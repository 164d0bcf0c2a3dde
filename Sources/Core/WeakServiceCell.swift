/// Keeps a `weak` service: made on a get when none is alive, held weakly.
@usableFromInline
final class WeakServiceCell<Service>: @unchecked Sendable {
    // `held` is written only under both `lock` and `readLock`, and read under either one;
    // `factory` never changes.
    @usableFromInline let lock = ServiceLock()
    @usableFromInline let readLock = ServiceSpinLock()
    private let factory: () throws -> Service
    @usableFromInline @exclusivity(unchecked) var held: WeakServiceReference<Service>?

    init(factory: @escaping () throws -> Service) {
        self.factory = factory
    }

    /// The fast path, inlined so it is specialized for `Service`:
    /// try `readLock` and read the held service; anything else goes to
    /// `SingletonCreation.makeLocked`.
    @inlinable
    func get() throws(ServiceObtainError) -> Service {
        if readLock.tryLock() {
            let service = held?.load()
            readLock.unlock()
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
                // The reference to the service that died is released after `readLock`.
                var replaced = WeakServiceReference(service)
                readLock.withLock { swap(&held, &replaced) }
                withExtendedLifetime(replaced) {}
                return service
            }
        )
    }
}
