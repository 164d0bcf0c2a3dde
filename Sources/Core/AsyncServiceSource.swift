/// Where an async provider gets a service it does not hold ready: one case per kind, each
/// kind's get in a file of its own (`AsyncAtOneSource`, `AsyncLazySource`, `AsyncWeakSource`,
/// `AsyncManySource`), or the synchronous provider it wraps.
@usableFromInline
enum AsyncServiceSource<Service: Sendable>: Sendable {
    /// An instance, which the provider holds itself.
    case holdsService
    case atOne(AsyncAtOneSource<Service>)
    case lazy(AsyncLazySource<Service>)
    case weak(AsyncWeakSource<Service>)
    case many(AsyncManySource<Service>)
    case sync(ServiceProvider<Service>)

    /// The source of a provider that makes its service with `factory` as `mode` says.
    init(mode: ServiceFactoryMode, factory: @escaping @Sendable () async throws -> Service) {
        switch mode {
        case .atOne: self = .atOne(AsyncAtOneSource(factory: factory))
        case .lazy: self = .lazy(AsyncLazySource(factory: factory))
        case .weak: self = .weak(AsyncWeakSource(factory: factory))
        case .many: self = .many(AsyncManySource(factory: factory))
        }
    }

    /// The cell where a made singleton is published, for the provider's ready read.
    var cell: OnceCell<Service>? {
        switch self {
        case .atOne(let source): return source.cell
        case .lazy(let source): return source.cell
        case .sync(let provider): return provider.lazy
        case .holdsService, .weak, .many: return nil
        }
    }

    /// The service, or why it cannot be had.
    @usableFromInline
    nonisolated(nonsending) func get() async throws(ServiceObtainError) -> Service {
        switch self {
        case .holdsService: preconditionFailure("an async provider that holds its service has no other source")
        case .atOne(let source): return try await source.get()
        case .lazy(let source): return try await source.get()
        case .weak(let source): return try await source.get()
        case .many(let source): return try await source.get()
        case .sync(let provider): return try provider.getService()
        }
    }
}
