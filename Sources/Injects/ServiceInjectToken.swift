/// The subscription of a ready handler added with `addReadyContainerHandler(_:handler:)`.
///
/// The handler stays subscribed until it runs (once) or `cancel()` is called; releasing the
/// token does not cancel it, so the token may be ignored. (This is the opposite of
/// ``EntityInjectToken``, whose release removes its entities.) Both resolvers'
/// `addReadyContainerHandler` return this token.
public final class ServiceInjectToken: Sendable {
    let registry: InjectRegistry
    let id: UInt64

    init(registry: InjectRegistry, id: UInt64) {
        self.registry = registry
        self.id = id
    }

    /// Whether the handler still waits for its container or entity.
    public var isWaiting: Bool { registry.isWaiting(id) }

    /// Unsubscribes the handler if it has not run yet.
    public func cancel() {
        registry.cancelWaiter(id)
    }
}
