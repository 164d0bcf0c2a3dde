/// A copy of a locator's services and parent, for a clone.
package struct LocatorCloneState {
    package let entries: [ServiceLocatorKeyID: LocatorEntry]
    package let parent: LocatorParent?
}
