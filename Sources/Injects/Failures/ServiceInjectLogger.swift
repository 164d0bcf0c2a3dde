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
    /// A container was registered with `failureIfContains: true` (the default) while a container
    /// of the same type was already registered. The new one is registered too and is resolved
    /// first. Called unless the logger implements
    /// `serviceInjectResolverContainerAlreadyRegistered(type:file:line:)`, which also gets the
    /// registration's file and line.
    func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type)

    /// The same event, with the file and line of the registration (the `file:` and `line:` of
    /// `register` or `registerSome`, the caller's `#fileID` and `#line` unless given): what a
    /// release build, which no assertion stops, has to find it by. A logger gets each second
    /// registration once: here when it implements this form (the other is not called then),
    /// else through `serviceInjectResolverContainerAlreadyRegistered(type:)`. Implement it in the
    /// class that declares the conformance: a subclass's implementation is not called.
    func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type, file: StaticString, line: UInt)

    /// An entity registered with `registerForFirstInject` was removed automatically: at the
    /// main-loop turn after its first injection (`afterInjection == true`), or because
    /// `autoRemoveDelay` passed without any injection (`false`).
    func entityInjectResolverDidAutoRemove(entityType: Any.Type, afterInjection: Bool)

    /// An entity registered with `registerForFirstInject` was removed because `delay`, its
    /// `autoRemoveDelay`, passed without any injection: the event as 3.0 reported it, so that a
    /// 3.0 logger still gets it. It comes right after
    /// `entityInjectResolverDidAutoRemove(entityType:afterInjection:)` with `false`; implement
    /// one of the two.
    func entityInjectResolverDidAutoRemove(entityType: Any.Type, delay: TimeInterval)
}

extension ServiceInjectLogger {
    /// Does nothing.
    ///
    /// ```swift
    /// final class RegistrationLog: ServiceInjectLogger {
    ///     func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type) {
    ///         print("registered twice:", type)
    ///     }
    /// }
    /// ```
    public func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type) {}

    /// Calls `serviceInjectResolverContainerAlreadyRegistered(type:)`.
    ///
    /// ```swift
    /// final class RegistrationLog: ServiceInjectLogger {
    ///     func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type, file: StaticString, line: UInt) {
    ///         print("\(file):\(line): registered twice:", type)
    ///     }
    /// }
    /// ```
    public func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type, file: StaticString, line: UInt) {
        serviceInjectResolverContainerAlreadyRegistered(type: type)
    }

    /// Does nothing.
    ///
    /// See the example of ``ServiceInjectLogger``.
    public func entityInjectResolverDidAutoRemove(entityType: Any.Type, afterInjection: Bool) {}

    /// Does nothing.
    ///
    /// ```swift
    /// final class ExpiryLog: ServiceInjectLogger {  // a 3.0 logger
    ///     func entityInjectResolverDidAutoRemove(entityType: Any.Type, delay: TimeInterval) {
    ///         print("removed", entityType, "after", delay, "s")
    ///     }
    /// }
    /// ```
    public func entityInjectResolverDidAutoRemove(entityType: Any.Type, delay: TimeInterval) {}
}
