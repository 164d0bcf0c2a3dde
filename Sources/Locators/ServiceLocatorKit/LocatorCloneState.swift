/// A copy of a locator's services and parent, for a clone.
package struct LocatorCloneState {
    package let typeEntries: [ObjectIdentifier: LocatorEntry]
    package let nameEntries: [String: LocatorEntry]
    package let parent: LocatorParent?
}
