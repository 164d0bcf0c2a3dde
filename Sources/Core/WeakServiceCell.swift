/// Keeps a `weak` service: made on a get when none is alive, held weakly.
@usableFromInline
final class WeakServiceCell<Service>: @unchecked Sendable {
    // `held` is read and written under `lock`; `factory` never changes.
    private let lock = ServiceLock()
    private let factory: () throws -> Service
    private var held: WeakServiceReference<Service>?

    init(factory: @escaping () throws -> Service) {
        self.factory = factory
    }

    @usableFromInline
    func get() throws(ServiceObtainError) -> Service {
        try SingletonCreation.obtain(
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
