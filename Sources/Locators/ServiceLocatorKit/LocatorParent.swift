/// The parent of a locator: the locator itself (for `parent`) and its storage (for lookups).
package struct LocatorParent: Sendable {
    package let locator: AnyObject & Sendable
    package let storage: LocatorStorage

    package init(locator: AnyObject & Sendable, storage: LocatorStorage) {
        self.locator = locator
        self.storage = storage
    }
}
