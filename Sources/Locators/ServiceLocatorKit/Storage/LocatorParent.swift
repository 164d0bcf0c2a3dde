/// The parent of a locator: the locator itself (for `parent`) and its storage (for lookups).
@usableFromInline
package struct LocatorParent: Sendable {
    package let locator: AnyObject & Sendable
    @usableFromInline package let storage: LocatorStorage

    package init(locator: AnyObject & Sendable, storage: LocatorStorage) {
        self.locator = locator
        self.storage = storage
    }

    /// `locator` as the parent of another locator.
    package init(_ locator: some StorageBackedLocator) {
        self.init(locator: locator, storage: locator.storage)
    }
}
