/// The source of an `atOne` async provider: its one making starts when the provider is made,
/// and every get awaits that result. A made service is published in the provider's `OnceCell`,
/// where gets read it; an error is kept and returned by every get.
@usableFromInline
final class AsyncAtOneSource<Service: Sendable>: Sendable {
    let cell = OnceCell<Service>()
    private let making = AsyncMaking<Service>()

    init(factory: @escaping @Sendable () async throws -> Service) {
        making.start(
            for: ObjectIdentifier(self),
            in: TaskContext.current,
            make: { await ServiceMaking.asyncResult(Service.self, factory) },
            finish: { [cell] outcome in
                if case .success(let service) = outcome {
                    cell.publish(service)
                }
            }
        )
    }

    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        let context = TaskContext.current
        if let cycle = context.cycle(at: ObjectIdentifier(self), Service.self) {
            throw cycle
        }
        return try await making.wait(in: context).get()
    }
}
