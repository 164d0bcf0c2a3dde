/// What `ServiceLocator` and `ServiceEasyLocator` share: a parent chain, a read-only regime and
/// clones, written once here for both, and for the subclasses an app makes of them. Code that
/// sets up or protects a locator of either kind can take one of these.
///
/// ```swift
/// func finishSetup(of locator: some ServiceLocatorProtocol) {
///     locator.setReadOnly(denyClone: false)
/// }
///
/// let locator = ServiceEasyLocator()
/// locator.addService { ThirdService() }
/// finishSetup(of: locator)
/// let copy = locator.clone()  // writable, with the same services
/// ```
///
/// Only the package's two locators conform: `locatorStorage` is the one a locator's initializer
/// makes, and it has no public API.
public protocol ServiceLocatorProtocol: AnyObject, Sendable {
    /// The kind of locator asked for the services this one lacks: `ServiceLocator` or
    /// `ServiceEasyLocator`, whatever subclass this one is.
    associatedtype ParentLocator: ServiceLocatorProtocol

    /// The locator's services and state.
    var locatorStorage: LocatorStorage { get }

    /// A new, empty, writable locator that asks `parent` for the services it lacks.
    init(parent: ParentLocator?)
}

extension ServiceLocatorProtocol {
    /// The locator asked for the services this one lacks.
    public var parent: ParentLocator? { locatorStorage.parentLocator(as: ParentLocator.self) }

    /// Whether changes are refused (after `setReadOnly`).
    public var readOnly: Bool { locatorStorage.isReadOnly }

    /// Whether `clone()` is refused.
    public var denyClone: Bool { locatorStorage.denyClone }

    /// The number of services stored in this locator, its parents' not counted.
    public var count: Int { locatorStorage.count }

    /// Protects the locator from changes: from now on every add, remove and parent change is
    /// refused, leaving the locator as it is.
    ///
    /// ```swift
    /// locator.setReadOnly()  // gets take no lock from now on
    /// ```
    ///
    /// - Parameters:
    ///   - denyClone: whether `clone()` is refused too.
    ///   - assertionFailure: whether a refusal also calls `assertionFailure` (which stops a
    ///     debug build). A refusal is always reported to the ``ServiceLocatorLogger``s and returned.
    ///   - file: the caller's file, named by the assertion of a refusal.
    ///   - line: the caller's line, named by the assertion of a refusal.
    /// - Returns: a failure only when an earlier call set `denyClone` and this one would allow
    ///   clones again. A later call may deny clones after an earlier one allowed them.
    @discardableResult
    public func setReadOnly(
        denyClone: Bool = true,
        assertionFailure: Bool = true,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        locatorStorage.setReadOnly(
            denyClone: denyClone, assertionFailure: assertionFailure, owner: self, at: CallSite(file: file, line: line)
        )
    }

    /// Sets the locator asked for the services this one lacks.
    ///
    /// ```swift
    /// let screen = ServiceEasyLocator()
    /// screen.setParent(app)  // what `screen` lacks comes from `app`
    /// ```
    ///
    /// - Returns: `ServiceLocatorError.parentCycle` when the chain would loop back to this
    ///   locator, `.readOnly` when the locator is read-only; the parent is unchanged then. The
    ///   assertion of a refusal names the caller's `file` and `line`.
    @discardableResult
    public func setParent(
        _ parent: ParentLocator?,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        locatorStorage.setParent(parent.map { LocatorParent($0) }, owner: self, at: CallSite(file: file, line: line))
    }

    /// A writable locator of the same type holding the same providers (a lazy singleton made
    /// before the clone is the same instance in both) and the same parent.
    ///
    /// When `denyClone` is set, the refusal is reported (and asserted, naming the caller's `file`
    /// and `line`, when `setReadOnly` asked for it), and a new, empty, writable locator is
    /// returned instead.
    public func clone(file: StaticString = #fileID, line: UInt = #line) -> Self {
        let copy = Self(parent: nil)
        locatorStorage.fillClone(copy.locatorStorage, owner: self, copyOwner: copy, at: CallSite(file: file, line: line))
        return copy
    }

    /// Every entry, for `ServiceValidator` and `ServiceShutdown` (`ServiceValidationListing`).
    package var validationEntries: [(name: String, value: Any)] { locatorStorage.validationEntries }

    /// The parent, whose entries `ServiceValidator` walks too (`ServiceValidationListing`).
    package var validationParent: AnyObject? { locatorStorage.validationParent }
}
