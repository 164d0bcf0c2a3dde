/// What `ServiceLocator` and `ServiceEasyLocator` share: a parent chain, a read-only regime and
/// clones. Both take these members from one implementation, and code that counts, protects,
/// chains or copies a locator of either kind can take one of these.
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
/// Adding and getting services are not part of it: a keyed locator and an easy one do them
/// differently. `setParent` needs the locator's own kind of parent, so it is called on a
/// concrete locator or through `some ServiceLocatorProtocol`, not on an
/// `any ServiceLocatorProtocol`.
public protocol ServiceLocatorProtocol: AnyObject, Sendable {
    /// The kind of locator asked for the services this one lacks: `ServiceLocator` or
    /// `ServiceEasyLocator`, whatever subclass this one is.
    associatedtype ParentLocator: ServiceLocatorProtocol

    /// The locator asked for the services this one lacks.
    var parent: ParentLocator? { get }

    /// Whether changes are refused (after `setReadOnly`).
    var readOnly: Bool { get }

    /// Whether `clone()` is refused.
    var denyClone: Bool { get }

    /// The number of services stored in this locator, its parents' not counted.
    var count: Int { get }

    /// Protects the locator from changes: from now on every add, remove and parent change is
    /// refused, leaving the locator as it is.
    ///
    /// ```swift
    /// locator.setReadOnly()  // gets take no lock from now on
    /// ```
    ///
    /// - Parameters:
    ///   - denyClone: whether `clone()` is refused too (`true` when left out).
    ///   - assertionFailure: whether a refusal also calls `assertionFailure` (which stops a
    ///     debug build; `true` when left out). A refusal is always reported to the
    ///     ``ServiceLocatorLogger``s and returned.
    ///   - file: the caller's file, named by the assertion of a refusal and in its report to the
    ///     loggers (`#fileID` when left out).
    ///   - line: the caller's line, named as `file` is (`#line` when left out).
    /// - Returns: a failure only when an earlier call set `denyClone` and this one would allow
    ///   clones again. A later call may deny clones after an earlier one allowed them.
    @discardableResult
    func setReadOnly(denyClone: Bool, assertionFailure: Bool, file: StaticString, line: UInt)
        -> Result<Void, ServiceLocatorError>

    /// Sets the locator asked for the services this one lacks.
    ///
    /// ```swift
    /// let app = ServiceEasyLocator()
    /// let screen = ServiceEasyLocator()
    /// screen.setParent(app)  // what `screen` lacks comes from `app`
    /// ```
    ///
    /// - Returns: `ServiceLocatorError.parentCycle` when the chain would loop back to this
    ///   locator, `.readOnly` when the locator is read-only; the parent is unchanged then, and
    ///   the refusal is reported to the ``ServiceLocatorLogger``s. A read-only refusal is also
    ///   asserted when `setReadOnly` asked for it, naming the caller's `file` and `line`
    ///   (`#fileID` and `#line` when left out). A loop is not: two threads that each set a
    ///   parent that is fine alone can make one together, and one of them is refused.
    @discardableResult
    func setParent(_ parent: ParentLocator?, file: StaticString, line: UInt) -> Result<Void, ServiceLocatorError>

    /// A writable locator of the same type holding the same providers (a lazy singleton made
    /// before the clone is the same instance in both) and the same parent.
    ///
    /// When `denyClone` is set, the refusal is reported (and asserted, naming the caller's `file`
    /// and `line`, `#fileID` and `#line` when left out, when `setReadOnly` asked for it), and a
    /// new, empty, writable locator is returned instead. The copy is made with the class's
    /// `init(parent: nil)`: when that makes it read-only, it cannot be filled, and it is returned
    /// as that made it, with the refusal reported as a change of a read-only locator.
    func clone(file: StaticString, line: UInt) -> Self
}

// The forms with defaults: a protocol's requirements cannot have any. Each passes every argument
// on, and a call that names them all resolves to the requirement (the locator's own member),
// which Swift ranks above an extension member of the same signature: no form calls itself.
extension ServiceLocatorProtocol {
    /// ``setReadOnly(denyClone:assertionFailure:file:line:)``, with `denyClone` and
    /// `assertionFailure` `true` unless given, naming the caller's line.
    ///
    /// ```swift
    /// locator.setReadOnly()
    /// locator.setReadOnly(denyClone: false, assertionFailure: false)
    /// ```
    @discardableResult
    public func setReadOnly(
        denyClone: Bool = true,
        assertionFailure: Bool = true,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        setReadOnly(denyClone: denyClone, assertionFailure: assertionFailure, file: file, line: line)
    }

    /// ``setParent(_:file:line:)``, naming the caller's line.
    ///
    /// ```swift
    /// screen.setParent(app)
    /// ```
    @discardableResult
    public func setParent(
        _ parent: ParentLocator?,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        setParent(parent, file: file, line: line)
    }

    /// ``clone(file:line:)``, naming the caller's line.
    ///
    /// ```swift
    /// let copy = locator.clone()
    /// ```
    public func clone(file: StaticString = #fileID, line: UInt = #line) -> Self {
        clone(file: file, line: line)
    }
}

/// Either locator class, as the storage code sees it: an object that keeps its services in a
/// `LocatorStorage`, which implements `ServiceLocatorProtocol` once for both.
package protocol StorageBackedLocator: ServiceLocatorProtocol, ServiceValidationListing
where ParentLocator: StorageBackedLocator {
    var storage: LocatorStorage { get }

    init(parent: ParentLocator?)
}

// The members both locators expose: each does what its requirement in
// `ServiceLocatorProtocol` says, where the examples are.
extension StorageBackedLocator {
    /// The locator asked for the services this one lacks, if any.
    ///
    /// ```swift
    /// print(screen.parent === app)  // true: what screen lacks, it asks app for
    /// ```
    public var parent: ParentLocator? { storage.parentLocator(as: ParentLocator.self) }

    /// Whether changes are refused (after `setReadOnly`): services can no longer be added or
    /// removed.
    ///
    /// ```swift
    /// locator.setReadOnly()
    /// print(locator.readOnly)  // true: adds, removes and parent changes are refused from now on
    /// ```
    public var readOnly: Bool { storage.isReadOnly }

    /// Whether `clone()` is refused (after `setReadOnly(denyClone: true)`).
    ///
    /// ```swift
    /// locator.setReadOnly(denyClone: false)
    /// print(locator.denyClone)  // false: clone() still gives a writable copy
    /// ```
    public var denyClone: Bool { storage.denyClone }

    /// The number of services this locator holds, without its parent's.
    ///
    /// ```swift
    /// print(screen.count)  // 0 until services are added to screen itself: app's are not counted
    /// ```
    public var count: Int { storage.count }

    /// Makes the locator read-only: later adds and removes are refused, and `clone()` too when
    /// `denyClone`. Refused only when an earlier call denied clones and this one would allow them.
    /// The requirement in ``ServiceLocatorProtocol`` says more, with an example.
    ///
    /// ```swift
    /// func finishSetup(of locator: ServiceLocator, file: StaticString, line: UInt) {
    ///     locator.setReadOnly(denyClone: true, assertionFailure: true, file: file, line: line)
    /// }
    /// ```
    @discardableResult
    public func setReadOnly(denyClone: Bool, assertionFailure: Bool, file: StaticString, line: UInt)
        -> Result<Void, ServiceLocatorError>
    {
        storage.setReadOnly(
            denyClone: denyClone, assertionFailure: assertionFailure, owner: self, at: CallSite(file: file, line: line)
        )
    }

    /// Sets the locator asked for the services this one lacks, or removes it with `nil`;
    /// refused for a read-only locator and for a parent that would make a loop. The requirement
    /// in ``ServiceLocatorProtocol`` says more, with an example.
    ///
    /// ```swift
    /// func attach(_ screen: ServiceLocator, file: StaticString, line: UInt) {
    ///     screen.setParent(app, file: file, line: line)
    /// }
    /// ```
    @discardableResult
    public func setParent(_ parent: ParentLocator?, file: StaticString, line: UInt) -> Result<Void, ServiceLocatorError> {
        storage.setParent(parent.map { LocatorParent($0) }, owner: self, at: CallSite(file: file, line: line))
    }

    /// A writable copy holding the same providers and parent; after `setReadOnly(denyClone: true)`,
    /// the refusal is reported and a new, empty, writable locator is returned instead. The
    /// requirement in ``ServiceLocatorProtocol`` says what a subclass's `init(parent:)` changes.
    ///
    /// ```swift
    /// func copy(of locator: ServiceLocator, file: StaticString, line: UInt) -> ServiceLocator {
    ///     locator.clone(file: file, line: line)
    /// }
    /// ```
    public func clone(file: StaticString, line: UInt) -> Self {
        let copy = type(of: self).init(parent: nil)  // the dynamic class: a subclass held as its base
        storage.fillClone(copy.storage, owner: self, copyOwner: copy, at: CallSite(file: file, line: line))
        return copy
    }

    /// Every entry, for `ServiceValidator` and `ServiceShutdown`.
    package var validationEntries: [(name: String, value: Any)] { storage.validationEntries }

    /// The parent, whose entries `ServiceValidator` walks too.
    package var validationParent: AnyObject? { storage.validationParent }
}
