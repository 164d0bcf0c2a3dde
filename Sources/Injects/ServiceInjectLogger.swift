import Foundation

/// Receives the events of ServiceInjects. Adopt it and call `register()`.
///
/// ```swift
/// final class InjectLog: ServiceInjectLogger {
///     func entityInjectResolverDidAutoRemove(entityType: Any.Type, afterInjection: Bool) {
///         print("removed", entityType, afterInjection)
///     }
/// }
/// InjectLog().register()
/// ```
public protocol ServiceInjectLogger: Logger {
    /// A container was registered with `failureIfContains` while a container of the same type
    /// was already registered. The new one is registered too and is resolved first.
    func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type)

    /// An entity registered with `registerForFirstInject` was removed automatically: at the
    /// main-loop turn after its first injection (`afterInjection == true`), or because
    /// `autoRemoveDelay` passed without any injection (`false`).
    func entityInjectResolverDidAutoRemove(entityType: Any.Type, afterInjection: Bool)
}

extension ServiceInjectLogger {
    /// Does nothing.
    public func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type) {}

    /// Does nothing.
    public func entityInjectResolverDidAutoRemove(entityType: Any.Type, afterInjection: Bool) {}
}
