/// A cell whose value comes from the newest `Source` in a registry: a container's provider or
/// service, or an entity or one of its fields.
final class RegistryInjectCell<Source, Value>: InjectCell<Value>, @unchecked Sendable {
    // Immutable; the mutable state is InjectCell's, guarded by its lock.
    let registry: InjectRegistry
    let make: (Source) -> Value

    init(registry: InjectRegistry, site: InjectSite, make: @escaping (Source) -> Value) {
        self.registry = registry
        self.make = make
        super.init(site: site)
    }

    /// Injects now when a `Source` is registered, else as soon as one is (unless `lazy`).
    ///
    /// - Returns: the value when it was injected now.
    func start(lazy: Bool) -> Value? {
        lazy ? nil : injectNowOrWait(from: registry, Source.self, make: make)
    }

    override func obtainAtFirstRead() -> Value {
        make(registry.resolve(Source.self, orCrashAt: site))
    }
}
