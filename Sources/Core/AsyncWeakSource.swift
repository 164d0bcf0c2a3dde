/// Keeps the service of a `weak` async provider while someone holds it: a get reads it under
/// the lock; when it has died (or was never made), the get starts an `AsyncMaking`, and the gets
/// that come while it runs await the same making.
///
/// A service that is not a class instance cannot be held weakly: each making's waiters share
/// it, and the next get makes a new one.
@usableFromInline
final class AsyncWeakSource<Service: Sendable>: Sendable {
    private let factory: @Sendable () async throws -> Service
    private let state = Locked(State())

    private struct State {
        /// The service last made, held weakly.
        var held: ServiceHolder<Service>?
        /// The making in progress.
        var making: AsyncMaking<Service>?
    }

    init(factory: @escaping @Sendable () async throws -> Service) {
        self.factory = factory
    }

    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        try await AsyncMaking.obtain(
            id: ObjectIdentifier(self),
            step: { isCancelled in
                state.withLock { state in
                    if let service = state.held?.load() { return .found(service) }
                    if let making = state.making { return .wait(making) }
                    if isCancelled { return .cancelled }
                    let making = AsyncMaking<Service>()
                    state.making = making
                    return .start(making, factory)
                }
            },
            finish: { [self] outcome in
                let replaced = state.withLock { state -> ServiceHolder<Service>? in
                    state.making = nil
                    guard case .success(let service) = outcome else { return nil }
                    defer { state.held = ServiceHolder(service, weakly: true) }
                    return state.held
                }
                withExtendedLifetime(replaced) {}  // released after the lock
            }
        )
    }
}
