/// Receives the events of locators. Register it with `register()`.
///
/// ```swift
/// final class LocatorLog: ServiceLocatorLogger {
///     func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError) {
///         print(error)
///     }
/// }
/// LocatorLog().register()
/// ```
public protocol ServiceLocatorLogger: Logger {
    /// `locator` refused a change (it is read-only), a clone (it denies clones), a parent (the
    /// chain would loop), or a shared set-up; `error` says which.
    func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError)
}

extension ServiceLocatorLogger {
    /// Does nothing.
    ///
    /// See the example of ``ServiceLocatorLogger``.
    public func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError) {}
}
