import Synchronization

/// Keeps a `lazy` service: made once on first get, then read with one acquire load.
@usableFromInline
final class LazyServiceCell<Service>: @unchecked Sendable {
    // `value` is written once, under `lock`, before `ready` is set with release ordering; it is
    // read only after `ready` was seen set with acquire ordering. `factory` is used under `lock`.
    @usableFromInline let ready = Atomic<Bool>(false)
    @usableFromInline let value: UnsafeMutablePointer<Service>
    private let lock = ServiceLock()
    private var factory: (() throws -> Service)?

    init(factory: @escaping () throws -> Service) {
        self.factory = factory
        self.value = .allocate(capacity: 1)
    }

    deinit {
        if ready.load(ordering: .acquiring) {
            value.deinitialize(count: 1)
        }
        value.deallocate()
    }

    @inlinable
    func get() throws(ServiceObtainError) -> Service {
        if ready.load(ordering: .acquiring) {
            return value.pointee
        }
        return try makeOnce()
    }

    @usableFromInline
    func makeOnce() throws(ServiceObtainError) -> Service {
        try SingletonCreation.makeLocked(
            id: ObjectIdentifier(self),
            lock: lock,
            cached: { ready.load(ordering: .relaxed) ? value.pointee : nil },
            create: { () throws(ServiceObtainError) -> Service in
                guard let factory else {
                    preconditionFailure("a lazy provider lost its factory before making its service")
                }
                let service = try ServiceMaking.make(Service.self, factory)
                value.initialize(to: service)
                ready.store(true, ordering: .releasing)
                self.factory = nil
                return service
            }
        )
    }

    /// Whether the factory is still held (it is released after the service is made).
    var holdsFactory: Bool { lock.withLock { factory != nil } }
}
