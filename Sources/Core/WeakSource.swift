/// Keeps the service of a `weak` provider while someone holds it: a get reads it under the
/// lock; when it has died (or was never made), the get makes a new one.
///
/// A service that is not a class instance cannot be held weakly: it is made on every get.
@usableFromInline
final class WeakSource<Service>: @unchecked Sendable {  // the rest is in `state`
    @usableFromInline let factory: () throws -> Service
    @usableFromInline let state = Locked(State())

    @usableFromInline
    struct State {
        /// The service last made, held weakly.
        @usableFromInline var held: ServiceHolder<Service>?
        /// The making in progress.
        @usableFromInline var making: Making?

        @inlinable
        init() {}
    }

    @inlinable
    init(factory: @escaping () throws -> Service) {
        self.factory = factory
    }

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        if let service = state.withLock({ $0.held?.load() }) {
            return service
        }
        var replaced: ServiceHolder<Service>?
        defer { withExtendedLifetime(replaced) {} }  // released after the lock
        return try SingletonMaking.obtain(
            id: ObjectIdentifier(self),
            step: { making in
                state.withLock { state -> MakingStep<Service, Void> in
                    if let service = state.held?.load() { return .found(service) }
                    if let other = state.making { return .wait(other) }
                    state.making = making
                    return .make(())
                }
            },
            make: { ServiceMaking.result(Service.self, factory) },
            finish: { _, made in
                state.withLock { state in
                    state.making = nil
                    if case .success(let service) = made {
                        replaced = state.held
                        state.held = ServiceHolder(service, weakly: true)
                    }
                }
                return made
            }
        )
    }
}
