/// Makes the service of a `lazy` provider on the first get and publishes it in the provider's
/// `OnceCell`; a failed making leaves everything as it was, and the next get tries again. The
/// factory is released once the service is made.
///
/// A get of a made service does not come here: `ServiceProvider.getService()` reads the cell.
@usableFromInline
final class LazySource<Service>: @unchecked Sendable {  // the rest is in `state`
    @usableFromInline let cell: OnceCell<Service>
    @usableFromInline let state: Locked<State>

    @usableFromInline
    struct State {
        /// The factory, until the service is made.
        @usableFromInline var factory: (() throws -> Service)?
        /// The making in progress.
        @usableFromInline var making: Making?

        @inlinable
        init(factory: @escaping () throws -> Service) {
            self.factory = factory
        }
    }

    // Inlinable, like the other sources' initializers: made where the provider is written, the
    // generic types it allocates (this source, its cell, its lock) have their metadata looked up
    // once per call site instead of on every provider made.
    @inlinable
    init(factory: @escaping () throws -> Service) {
        self.cell = OnceCell()
        self.state = Locked(State(factory: factory))
    }

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        if let service = cell.value {
            return service
        }
        var released: (() throws -> Service)?
        defer { withExtendedLifetime(released) {} }  // the factory's captures go after the lock
        return try SingletonMaking.obtain(
            id: ObjectIdentifier(self),
            step: { making in
                state.withLock { state -> MakingStep<Service, () throws -> Service> in
                    if let service = cell.value { return .found(service) }
                    if let other = state.making { return .wait(other) }
                    guard let factory = state.factory else {
                        preconditionFailure("a lazy provider lost its factory before publishing its service")
                    }
                    state.making = making
                    return .make(factory)
                }
            },
            make: { factory in ServiceMaking.result(Service.self, factory) },
            finish: { _, made in
                state.withLock { state in
                    state.making = nil
                    if case .success(let service) = made {
                        cell.publish(service)
                        released = state.factory.take()
                    }
                }
                return made
            }
        )
    }

    /// Whether the factory is still held (it is released once the service is made).
    var holdsFactory: Bool { state.withLock { $0.factory != nil } }
}
