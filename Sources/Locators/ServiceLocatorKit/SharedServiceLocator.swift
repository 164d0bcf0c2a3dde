/// Holds an app's shared ("singleton") locator: set up once, then read from any thread.
///
/// It replaces the `static var shared` of the 1.x locator and of the 2.x subclass pattern,
/// which Swift 6 refuses as unsynchronized global state:
///
/// ```swift
/// final class AppServiceLocator: ServiceEasyLocator, @unchecked Sendable {
///     static let holder = SharedServiceLocator<AppServiceLocator>()
///     static var shared: AppServiceLocator? { holder.locator }
/// }
///
/// AppServiceLocator.holder.setup(locator)
/// let service: FirstService = try AppServiceLocator.holder.tryLocator().tryService()
/// ```
public final class SharedServiceLocator<Locator: AnyObject & Sendable>: @unchecked Sendable {
    // `current`, `locked` and `assertOnRefusal` are guarded by `lock`.
    private let lock = ServiceLock()
    private var current: Locator?
    private var locked = false
    private var assertOnRefusal = true

    /// A holder with no locator set up.
    public init() {}

    /// The shared locator, or `nil` before `setup`.
    public var locator: Locator? { lock.withLock { current } }

    /// Whether the shared locator may no longer be replaced.
    public var readOnly: Bool { lock.withLock { locked } }

    /// The shared locator.
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
    /// - Parameters:
    ///   - locator: the locator to share.
    ///   - readOnlySharedAfter: whether a later `setup` is refused.
    ///   - assertionFailure: whether such a refusal also calls `assertionFailure`.
    /// - Returns: `ServiceLocatorError.sharedReadOnly` when an earlier setup forbade it (the
    ///   shared locator is unchanged then; the refusal is also reported to the
    ///   ``ServiceLocatorLogger``s).
    @discardableResult
    public func setup(_ locator: Locator, readOnlySharedAfter: Bool = true, assertionFailure: Bool = true)
        -> Result<Void, ServiceLocatorError>
    {
        let refusedAssert: Bool? = lock.withLock {
            if locked { return assertOnRefusal }
            current = locator
            locked = readOnlySharedAfter
            assertOnRefusal = assertionFailure
            return nil
        }
        guard let assert = refusedAssert else { return .success(()) }
        return LocatorStorage.refuse(.sharedReadOnly(locator: Locator.self), owner: self, assert: assert)
    }
}
