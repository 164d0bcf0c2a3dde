/// Makes the service of a `lazy` async provider on the first get and publishes it in the
/// provider's `OnceCell`. The first get starts an `AsyncMaking`; the gets that come while it
/// runs await the same making. A failed making leaves the factory in place: every waiter gets
/// the error, and the next get starts a new making. The factory is released once the service
/// is made.
///
/// A get of a made service does not come here: `ServiceAsyncProvider.getService()` reads the
/// cell.
@usableFromInline
final class AsyncLazySource<Service: Sendable>: Sendable {
    let cell = OnceCell<Service>()
    private let state: Locked<State>

    private struct State {
        /// The factory, until the service is made.
        var factory: (@Sendable () async throws -> Service)?
        /// The making in progress.
        var making: AsyncMaking<Service>?
    }

    init(factory: @escaping @Sendable () async throws -> Service) {
        state = Locked(State(factory: factory))
    }

    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        try await AsyncMaking.obtain(
            id: ObjectIdentifier(self),
            step: { isCancelled in
                state.withLock { state in
                    if let service = cell.value { return .found(service) }
                    if let making = state.making { return .wait(making) }
                    if isCancelled { return .cancelled }
                    guard let factory = state.factory else {
                        preconditionFailure("a lazy async provider lost its factory before publishing its service")
                    }
                    let making = AsyncMaking<Service>()
                    state.making = making
                    return .start(making, factory)
                }
            },
            finish: { [self] outcome in
                let released = state.withLock { state -> (@Sendable () async throws -> Service)? in
                    state.making = nil
                    guard case .success(let service) = outcome else { return nil }
                    cell.publish(service)
                    return state.factory.take()
                }
                withExtendedLifetime(released) {}  // the factory's captures go after the lock
            }
        )
    }

    /// Whether the factory is still held (it is released once the service is made).
    var holdsFactory: Bool { state.withLock { $0.factory != nil } }
}
