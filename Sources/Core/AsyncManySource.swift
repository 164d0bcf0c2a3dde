/// Makes the service of a `many` async provider anew on every get, in the task that asks: the
/// factory sees that task's cancellation, and its other awaits are that task's.
@usableFromInline
final class AsyncManySource<Service: Sendable>: Sendable {
    private let factory: @Sendable () async throws -> Service
    /// What the cycle check tracks: this source, or the params provider whose params it binds.
    private let id: ObjectIdentifier?

    init(id: ObjectIdentifier? = nil, factory: @escaping @Sendable () async throws -> Service) {
        self.factory = factory
        self.id = id
    }

    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        try await Self.make(id: id ?? ObjectIdentifier(self), factory).get()
    }

    /// Runs `factory` in the current task with `id` being obtained.
    static func make(
        id: ObjectIdentifier,
        _ factory: () async throws -> Service
    ) async -> Result<Service, ServiceObtainError> {
        let context = TaskContext.current
        if let cycle = context.cycle(at: id, Service.self) {
            return .failure(cycle)
        }
        return await TaskContext.with(context.entering(id)) {
            await ServiceMaking.asyncResult(Service.self, factory)
        }
    }
}
