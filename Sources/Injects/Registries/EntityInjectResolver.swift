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
/// ready handlers it satisfies on the registering thread, before it returns. Inside
/// `withIsolatedInjectRegistries`, every call works with the registry of that scope.
///
/// Automatic removals (`registerForFirstInject`) run on the main queue: the process must service
/// it, with `RunLoop.main`, `dispatchMain()` or the main actor (an app's main loop does). Without
/// that, such entities stay registered.
public enum EntityInjectResolver {
    /// The registry of the current scope: the process's, or that of the innermost
    /// `withIsolatedInjectRegistries` scope of the current task.
    @usableFromInline
    static var registry: InjectRegistry {
        InjectRegistries.withCurrent { $0.entities }
    }

    /// The newest registered entity castable to `type`, boxed, for a wrapper injected when it
    /// is made (an entity registered for its first injection only is marked injected); `nil`
    /// when none is registered. See `InjectRegistry.newestBox(_:box:)`.
    @inlinable
    static func newest<Entity>(_ type: Entity.Type) -> InjectBox<Entity>? {
        InjectBox.newest(in: newestBox)
    }

    /// The box of the newest entity of the type `type` names, in the current registry.
    @usableFromInline
    static func newestBox(_ type: ObjectIdentifier, box: (Any) -> AnyObject?) -> AnyObject? {
        InjectRegistries.withCurrent { $0.entities.newestBox(type, box: box) }
    }

    /// Removes the first-inject entry `id` from `registry` at the next main-loop turn.
    static func removeAtNextMainLoopTurn(_ id: UInt64, from registry: InjectRegistry) {
        DispatchQueue.main.async {
            for entry in registry.remove(ids: [id]) {
                let type = Swift.type(of: entry.value)
                LogRecorder.record(ServiceInjectLogger.self) {
                    $0.entityInjectResolverDidAutoRemove(entityType: type, afterInjection: true)
                }
            }
        }
    }

    /// Registers `entity` until the returned token is released.
    ///
    /// ```swift
    /// let token = EntityInjectResolver.register(appSettings)
    /// ```
    public static func register<Entity>(_ entity: Entity) -> EntityInjectToken {
        let registry = Self.registry
        return EntityInjectToken(registry: registry, ids: registry.add([entity]).ids)
    }

    /// Registers several entities (the last one newest), each until its own token is released.
    ///
    /// ```swift
    /// tokens = EntityInjectResolver.registerSome([presenter, appSettings])  // one token per entity
    /// ```
    ///
    /// Keep the tokens in a stored property: an optimized build may release a local array,
    /// `let` or `var`, after the last read of its contents, not at the end of its scope, and
    /// its tokens with it, even when the code changes the array further on (use
    /// `withExtendedLifetime(tokens) { }` for a local one).
    public static func registerSome(_ entities: [Any]) -> [EntityInjectToken] {
        let registry = Self.registry
        return registry.add(entities).ids.map { EntityInjectToken(registry: registry, ids: [$0]) }
    }

    /// Registers `entity` until its first injection: it is removed at the main-loop turn after
    /// that, so every `@EntityInject` made within the same turn of the main thread gets it. Off
    /// the main actor, code runs beside that turn, which may remove the entity at any moment after
    /// its first injection: there, use `register(_:)` and release the token instead.
    ///
    /// ```swift
    /// EntityInjectResolver.registerForFirstInject(SimplePresenterImpl(), autoRemoveDelay: 10)
    /// ```
    ///
    /// - Parameters:
    ///   - entity: the entity to hand to the first `@EntityInject` that asks for it.
    ///   - autoRemoveDelay: when set, the entity is also removed after these seconds if
    ///   nothing injected it by then (reported to the ``ServiceInjectLogger``s). Zero or a
    ///   negative delay removes it at the next main-loop turn; `.infinity` or `.nan`, never.
    public static func registerForFirstInject<Entity>(_ entity: Entity, autoRemoveDelay: TimeInterval? = nil) {
        registerForFirstInjectSome([entity], autoRemoveDelay: autoRemoveDelay)
    }

    /// Registers several entities, each until its own first injection; see
    /// `registerForFirstInject(_:autoRemoveDelay:)`.
    ///
    /// ```swift
    /// EntityInjectResolver.registerForFirstInjectSome([SimplePresenterImpl(), appSettings])
    /// ```
    public static func registerForFirstInjectSome(_ entities: [Any], autoRemoveDelay: TimeInterval? = nil) {
        let registry = Self.registry
        let ids = registry.add(entities, firstInject: true).ids
        guard let autoRemoveDelay else { return }
        DispatchQueue.main.asyncAfter(deadline: .now() + autoRemoveDelay) {
            for id in ids {
                guard let type = registry.removeIfNotInjected(id) else { continue }
                LogRecorder.record(ServiceInjectLogger.self) {
                    $0.entityInjectResolverDidAutoRemove(entityType: type, afterInjection: false)
                    $0.entityInjectResolverDidAutoRemove(entityType: type, delay: autoRemoveDelay)
                }
            }
        }
    }

    /// Removes the entities castable to `type`, or only the newest one when `onlyLast`.
    ///
    /// ```swift
    /// EntityInjectResolver.remove(SimplePresenter.self, onlyLast: true)
    /// ```
    ///
    /// - Returns: whether an entity was removed.
    @discardableResult
    public static func remove<Entity>(_ type: Entity.Type, onlyLast: Bool = false) -> Bool {
        registry.remove(type, onlyLast: onlyLast)
    }

    /// Whether an entity castable to `type` is registered.
    ///
    /// ```swift
    /// let registered = EntityInjectResolver.contains(AppSettings.self)
    /// ```
    public static func contains<Entity>(_ type: Entity.Type) -> Bool {
        registry.contains(type)
    }

    /// Runs `handler` once an entity castable to `type` is registered: at once when one is
    /// already (returning `nil`), else on the registering thread when one is registered.
    ///
    /// ```swift
    /// let token = EntityInjectResolver.addReadyContainerHandler(AppSettings.self) {
    ///     applyTheme()
    /// }
    /// ```
    ///
    /// The handler does not count as an injection.
    ///
    /// - Returns: the token that keeps the handler waiting: releasing it (or `cancel()`)
    ///   unsubscribes the handler. `nil` when the handler already ran.
    public static func addReadyContainerHandler<Entity>(
        _ type: Entity.Type,
        handler: @escaping () -> Void
    ) -> EntityInjectReadyToken? {
        let registry = Self.registry
        return registry.addReadyHandler(type, handler: handler).map { EntityReadyToken(registry: registry, id: $0) }
    }

    /// Removes every entity, pending injection and ready handler (also one that a registration
    /// is about to run, as cancelling its token does), and voids the pending automatic removals.
    /// Inside `withIsolatedInjectRegistries`, it empties the scope's registry only. Tests that
    /// run in parallel isolate their registries instead.
    ///
    /// ```swift
    /// EntityInjectResolver.removeAll()
    /// ```
    ///
    /// Tokens of removed entities stay valid and do nothing when released.
    public static func removeAll() {
        registry.removeAll()
    }
}
