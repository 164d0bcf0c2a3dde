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
    /// chain would loop), or a shared set-up; `error` says which. Called unless the logger
    /// implements `serviceLocatorRefused(_:error:file:line:)`, which also gets the call's file
    /// and line.
    func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError)

    /// The same event, with the file and line of the call that was refused (the `file:` and
    /// `line:` of the change, the caller's `#fileID` and `#line` unless given): what a release
    /// build, which no assertion stops, has to find it by. A logger gets each refusal once:
    /// here when it implements this form (the other is not called then), else through
    /// `serviceLocatorRefused(_:error:)`. Implement it in the class that declares the conformance:
    /// a subclass's implementation is not called.
    func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError, file: StaticString, line: UInt)
}

extension ServiceLocatorLogger {
    /// Does nothing.
    ///
    /// See the example of ``ServiceLocatorLogger``.
    public func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError) {}

    /// Calls `serviceLocatorRefused(_:error:)`.
    ///
    /// ```swift
    /// final class RefusalLog: ServiceLocatorLogger {
    ///     func serviceLocatorRefused(
    ///         _ locator: AnyObject & Sendable, error: ServiceLocatorError, file: StaticString, line: UInt
    ///     ) {
    ///         print("\(file):\(line): \(error)")  // "App/Setup.swift:12: ... is read-only: refused to add ..."
    ///     }
    /// }
    /// ```
    public func serviceLocatorRefused(
        _ locator: AnyObject & Sendable,
        error: ServiceLocatorError,
        file: StaticString,
        line: UInt
    ) {
        serviceLocatorRefused(locator, error: error)
    }
}
