/// Holds an app's shared ("singleton") locator: set up once, then read from any thread.
///
/// It replaces the `static var shared` of the 1.x locator and of the 2.x subclass pattern,
/// which Swift 6 refuses as unsynchronized global state:
///
/// ```swift
/// enum AppLocator {
///     static let shared = SharedServiceLocator<ServiceEasyLocator>()  // was: static var shared
/// }
///
/// AppLocator.shared.setup(ServiceEasyLocator())
/// let service: FirstService = try AppLocator.shared.tryLocator().tryService()
/// ```
///
/// A subclass of a locator can be `Locator` too, as in 2.x; Swift then asks it to restate
/// its superclass's unchecked conformance to `Sendable` (the locators guide shows one).
public final class SharedServiceLocator<Locator: AnyObject & Sendable>: Sendable {
    private let state = Locked(State())

    private struct State {
        var current: Locator?
        var locked = false
        var assertOnRefusal = true
    }

    /// A holder with no locator set up.
    ///
    /// ```swift
    /// let shared = SharedServiceLocator<ServiceEasyLocator>()  // kept in a `static let`
    /// ```
    public init() {}

    /// The shared locator, or `nil` before `setup`.
    ///
    /// ```swift
    /// let current = AppLocator.shared.locator  // nil before setup(_:); tryLocator() throws then
    /// ```
    public var locator: Locator? { state.withLock { $0.current } }

    /// Whether the shared locator may no longer be replaced.
    ///
    /// ```swift
    /// AppLocator.shared.setup(ServiceEasyLocator(), readOnlySharedAfter: false)
    /// print(AppLocator.shared.readOnly)  // false: a later setup(_:) may replace the locator
    /// ```
    public var readOnly: Bool { state.withLock { $0.locked } }

    /// The shared locator.
    ///
    /// ```swift
    /// let locator = try AppLocator.shared.tryLocator()
    /// ```
    ///
    /// - Throws: `ServiceLocatorError.sharedRequireSetup` before `setup`.
    public func tryLocator() throws(ServiceLocatorError) -> Locator {
        guard let locator else {
            throw .sharedRequireSetup(locator: Locator.self)
        }
        return locator
    }

    /// Makes `locator` the shared one.
    ///
    /// ```swift
    /// AppLocator.shared.setup(ServiceEasyLocator())  // a later setup is refused
    /// ```
    ///
    /// - Parameters:
    ///   - locator: the locator to share.
    ///   - readOnlySharedAfter: whether a later `setup` is refused.
    ///   - assertionFailure: whether such a refusal of a later `setup` also calls
    ///     `assertionFailure`. Like `readOnlySharedAfter`, it counts when this setup succeeds;
    ///     a refused call's own flags change nothing.
    ///   - file: the caller's file, named by the assertion of a refusal and in its report to the
    ///     loggers.
    ///   - line: the caller's line, named as `file` is.
    /// - Returns: `ServiceLocatorError.sharedReadOnly` when an earlier setup forbade it (the
    ///   shared locator is unchanged then; the refusal is also reported to the
    ///   ``ServiceLocatorLogger``s).
    @discardableResult
    public func setup(
        _ locator: Locator,
        readOnlySharedAfter: Bool = true,
        assertionFailure: Bool = true,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        var replaced: Locator?
        let refusedAssert: Bool? = state.withLock { state in
            if state.locked { return state.assertOnRefusal }
            replaced = state.current
            state.current = locator
            state.locked = readOnlySharedAfter
            state.assertOnRefusal = assertionFailure
            return nil
        }
        // The locator replaced goes here, after the lock: its services' deinits may use this one.
        withExtendedLifetime(replaced) {}
        guard let assert = refusedAssert else { return .success(()) }
        let site = CallSite(file: file, line: line)
        return LocatorStorage.refuse(.sharedReadOnly(locator: Locator.self), owner: self, assert: assert, at: site)
    }
}
