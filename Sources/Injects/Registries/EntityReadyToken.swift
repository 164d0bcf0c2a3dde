/// The subscription of a ready handler added with `addReadyContainerHandler(_:handler:)`: keep
/// it while the handler should wait. Releasing the token (or calling `cancel()`) unsubscribes a
/// handler that has not run yet, as in ServiceInjects 3.0.
///
/// ```swift
/// var token: ServiceInjectReadyToken? = ServiceInjectResolver.addReadyContainerHandler(Services.self) {
///     showFirstScreen()
/// }
/// token = nil  // the handler will not run
/// ```
///
/// Both resolvers return this token, under the names `ServiceInjectReadyToken` and
/// `EntityInjectReadyToken`; `nil` when the handler already ran because the container or
/// entity was registered.
public final class EntityReadyToken: Sendable {
    let registry: InjectRegistry
    let id: UInt64

    init(registry: InjectRegistry, id: UInt64) {
        self.registry = registry
        self.id = id
    }

    deinit {
        registry.cancelWaiter(id)
    }

    /// Whether the handler still waits for its container or entity: it has neither started to
    /// run nor been cancelled.
    ///
    /// ```swift
    /// let token = ServiceInjectResolver.addReadyContainerHandler(Services.self) { showFirstScreen() }
    /// print(token?.isWaiting ?? false)  // true until Services is registered or the token is cancelled
    /// ```
    public var isWaiting: Bool { registry.isWaiting(id) }

    /// Unsubscribes the handler if it has not started to run (releasing the token does the same).
    ///
    /// Once `cancel()` returns, the handler does not run, also when another thread is registering
    /// its container at that moment; a handler that had already started on that thread runs to
    /// its end, so a handler that uses an object which cancels it in `deinit` captures it `weak`.
    ///
    /// ```swift
    /// let token = ServiceInjectResolver.addReadyContainerHandler(Services.self) {
    ///     showFirstScreen()
    /// }
    /// token?.cancel()  // the handler will not run
    /// ```
    public func cancel() {
        registry.cancelWaiter(id)
    }
}

/// The token of a handler waiting for a container (`ServiceInjectResolver.addReadyContainerHandler`).
///
/// ```swift
/// let token: ServiceInjectReadyToken? = ServiceInjectResolver.addReadyContainerHandler(Services.self) {
///     startServer()
/// }
/// ```
public typealias ServiceInjectReadyToken = EntityReadyToken

/// The token of a handler waiting for an entity (`EntityInjectResolver.addReadyContainerHandler`).
///
/// ```swift
/// let token: EntityInjectReadyToken? = EntityInjectResolver.addReadyContainerHandler(Settings.self) {
///     applyTheme()
/// }
/// ```
public typealias EntityInjectReadyToken = EntityReadyToken

/// The earlier name of the ready-handler token. Releasing the token now cancels its handler.
///
/// ```swift
/// // was: let token: ServiceInjectToken? = ...; and the token could be dropped
/// let token: ServiceInjectReadyToken? = ServiceInjectResolver.addReadyContainerHandler(Services.self) {
///     startServer()
/// }
/// ```
@available(
    *, deprecated, renamed: "ServiceInjectReadyToken",
    message: "renamed ServiceInjectReadyToken; releasing the token now cancels the handler: keep it"
)
public typealias ServiceInjectToken = EntityReadyToken
