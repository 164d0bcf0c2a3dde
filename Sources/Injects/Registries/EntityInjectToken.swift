/// Keeps entities registered in ``EntityInjectResolver``: when the token is released (or
/// `remove()` is called), its entities are removed at once.
///
/// ```swift
/// let token = EntityInjectResolver.register(appSettings)
/// ```
public final class EntityInjectToken: Sendable {
    let registry: InjectRegistry
    let ids: [UInt64]

    init(registry: InjectRegistry, ids: [UInt64]) {
        self.registry = registry
        self.ids = ids
    }

    deinit {
        registry.remove(ids: ids)
    }

    /// Removes the token's entities now (releasing the token does the same).
    ///
    /// ```swift
    /// let token = EntityInjectResolver.register(appSettings)
    /// token.remove()
    /// ```
    public func remove() {
        registry.remove(ids: ids)
    }
}
