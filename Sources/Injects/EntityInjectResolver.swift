import Foundation

/// The registry of entities that `@EntityInject` injects: instances handed from one place to
/// another when an initializer cannot carry them (a screen made by a storyboard, say).
///
/// Entities are resolved by cast, newest first: the latest registration wins.
///
/// ```swift
/// let token = EntityInjectResolver.register(appSettings)           // until `token` is released
/// EntityInjectResolver.registerForFirstInject(SimplePresenterImpl()) // until injected once
/// ```
///
/// The registry is internally synchronized. Registration runs the pending injections and
/// ready handlers it satisfies on the registering thread, before it returns.
///
/// Automatic removals (`registerForFirstInject`) run on the main queue: the process must service
/// it, with `RunLoop.main`, `dispatchMain()` or the main actor (an app's main loop does). Without
/// that, such entities stay registered.
public enum EntityInjectResolver {
    static let registry: InjectRegistry = InjectRegistry(
        resolverName: "EntityInjectResolver",
        itemName: "entity",
        firstInjected: { id in DispatchQueue.main.async { removeAfterFirstInject(id) } }
    )

    static func removeAfterFirstInject(_ id: UInt64) {
        for entry in registry.remove(ids: [id]) {
            let type = Swift.type(of: entry.value)
            LogRecorder.record(ServiceInjectLogger.self) {
                $0.entityInjectResolverDidAutoRemove(entityType: type, afterInjection: true)
            }
        }
    }

    /// Registers `entity` until the returned token is released.
    public static func register<Entity>(_ entity: Entity) -> EntityInjectToken {
        EntityInjectToken(registry: registry, ids: registry.add([entity]).ids)
    }

    /// Registers several entities (the last one newest), each until its own token is released.
    ///
    /// ```swift
    /// let tokens = EntityInjectResolver.registerSome([presenter, appSettings])  // one token per entity
    /// ```
    public static func registerSome(_ entities: [Any]) -> [EntityInjectToken] {
        registry.add(entities).ids.map { EntityInjectToken(registry: registry, ids: [$0]) }
    }

    /// Registers `entity` until its first injection: it is removed at the main-loop turn after
    /// that, so every `@EntityInject` made within the same turn gets it.
    ///
    /// - Parameters:
    ///   - entity: the entity to hand to the first `@EntityInject` that asks for it.
    ///   - autoRemoveDelay: when set, the entity is also removed after these seconds if
    ///   nothing injected it by then (reported to the ``ServiceInjectLogger``s).
    public static func registerForFirstInject<Entity>(_ entity: Entity, autoRemoveDelay: TimeInterval? = nil) {
        registerForFirstInjectSome([entity], autoRemoveDelay: autoRemoveDelay)
    }

    /// Registers several entities, each until its own first injection; see
    /// `registerForFirstInject(_:autoRemoveDelay:)`.
    public static func registerForFirstInjectSome(_ entities: [Any], autoRemoveDelay: TimeInterval? = nil) {
        let ids = registry.add(entities, firstInject: true).ids
        guard let autoRemoveDelay else { return }
        DispatchQueue.main.asyncAfter(deadline: .now() + autoRemoveDelay) {
            for id in ids {
                guard let type = registry.removeIfNotInjected(id) else { continue }
                LogRecorder.record(ServiceInjectLogger.self) {
                    $0.entityInjectResolverDidAutoRemove(entityType: type, afterInjection: false)
                }
            }
        }
    }

    /// Removes the entities castable to `type`, or only the newest one when `onlyLast`.
    ///
    /// - Returns: whether an entity was removed.
    @discardableResult
    public static func remove<Entity>(_ type: Entity.Type, onlyLast: Bool = false) -> Bool {
        registry.remove(type, onlyLast: onlyLast)
    }

    /// Whether an entity castable to `type` is registered.
    public static func contains<Entity>(_ type: Entity.Type) -> Bool {
        registry.contains(type)
    }

    /// Runs `handler` once an entity castable to `type` is registered: at once when one is
    /// already (returning `nil`), else on the registering thread when one is registered.
    ///
    /// The handler does not count as an injection.
    ///
    /// - Returns: the token that keeps the handler waiting: releasing it (or `cancel()`)
    ///   unsubscribes the handler. `nil` when the handler already ran.
    public static func addReadyContainerHandler<Entity>(
        _ type: Entity.Type,
        handler: @escaping () -> Void
    ) -> EntityInjectReadyToken? {
        registry.addReadyHandler(type, handler: handler).map { EntityReadyToken(registry: registry, id: $0) }
    }

    /// Removes every entity, pending injection and ready handler, and voids the pending
    /// automatic removals. Meant for tests, to isolate one from another.
    ///
    /// Tokens of removed entities stay valid and do nothing when released.
    public static func removeAll() {
        registry.removeAll()
    }
}
