/// Receives the events of service providers. Register it with ``Logger/register()``.
///
/// Each event has a default that does nothing; implement those you want:
///
/// ```swift
/// final class FailurePrinter: ProvidersLogger {
///     func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
///         print("could not get \(type): \(error)")
///     }
/// }
/// FailurePrinter().register()
/// ```
public protocol ProvidersLogger: Logger {
    /// A get of a `type` service failed: its factory threw, or the get was refused (a dependency
    /// cycle, params of another type than its factory's, a session of another type, a scoped
    /// service with no scope current or in a closed scope, a singleton that would keep a scoped
    /// service, a provider shut down).
    ///
    /// Reported once, by the provider where the failure started; the providers that obtained it
    /// as a dependency only add themselves to the error's path, after the report: for a
    /// dependency cycle, `type` is the service the cycle came back to; for a captive dependency,
    /// the scoped service (the message names the singleton). The error the failed get returns
    /// has the whole path. A `CancellationError` that a factory throws while the get's task is
    /// cancelled is not a failure, and is not reported. A session of another type is reported
    /// when the session changes, not on every get.
    func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError)

    /// A `type` service was requested through an Objective-C style wrapper, but it is not an
    /// `NSObject`, so it cannot be handed out there.
    func serviceProviderObjCNotSupport(type: Any.Type)

    /// Services of `scope`, which `withServiceScope` closed when its body ended, did not close
    /// cleanly: `report` lists them with their errors.
    func serviceScopeCloseFailure(scope: ServiceScope, report: ServiceCloseReport)

    /// A scope labelled `label` (empty for a scope made without one) was released without a
    /// `close()`, holding services that close: `services`, the types their providers declare,
    /// one for each making, in the order the makings ended. Their `close()` is never called.
    /// A scope that made no service that closes reports nothing. `withServiceScope` always
    /// closes its scope; a scope made with `ServiceScope(label:)` must be closed by the code
    /// that made it, on every path, also when the response it serves is dropped unwritten.
    ///
    /// ```swift
    /// final class UnclosedScopes: ProvidersLogger {
    ///     func serviceScopeNotClosed(label: String, services: [Any.Type]) {
    ///         print("the scope \"\(label)\" was released without a close; never closed: \(services)")
    ///     }
    /// }
    /// ```
    func serviceScopeNotClosed(label: String, services: [Any.Type])
}

extension ProvidersLogger {
    /// Does nothing.
    public func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {}

    /// Does nothing.
    public func serviceProviderObjCNotSupport(type: Any.Type) {}

    /// Does nothing.
    public func serviceScopeCloseFailure(scope: ServiceScope, report: ServiceCloseReport) {}

    /// Does nothing.
    public func serviceScopeNotClosed(label: String, services: [Any.Type]) {}
}
