import LocatorTestSupport
import Testing
@testable import ServiceLocatorKit

/// Slots named by a type and slots named by a string are kept apart: they never clash, and
/// both are found in the locator, its parents, and clones, read-only or not.
@Suite("ServiceLocator: type and string slots")
struct ServiceLocatorSlotTests {
    /// A string key whose `storeKey` is the very name the easy key's type has.
    static let sameText = NamedKey<FirstService>(storeKey: String(reflecting: FirstService.self))

    @Test func typeSlotAndStringSlotOfTheSameTextAreDistinct() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService(name: "type"))
        locator.addService(key: Self.sameText, service: FirstService(name: "string"))
        #expect(Keys.first.storeKey == Self.sameText.storeKey)
        #expect(locator.count == 2)
        #expect(locator.getService(key: Keys.first)?.name == "type")
        #expect(locator.getService(key: Self.sameText)?.name == "string")

        #expect(locator.removeService(key: Keys.first).failure == nil)
        #expect(locator.count == 1)
        #expect(locator.getService(key: Keys.first) == nil)
        #expect(locator.getService(key: Self.sameText)?.name == "string")
    }

    @Test(arguments: [false, true])
    func bothKindsAreFoundInAGrandparent(readOnly: Bool) throws {
        let root = ServiceLocator()
        let firstProvider = ServiceProvider(FirstService(name: "type"))
        root.addService(key: Keys.first, provider: firstProvider)
        root.addService(key: Self.sameText, service: FirstService(name: "string"))
        let child = ServiceLocator(parent: ServiceLocator(parent: root))
        if readOnly {
            for locator in [root, child.parent!, child] { locator.setReadOnly(assertionFailure: false) }
        }
        #expect(child.readOnly == readOnly)
        #expect(child.getService(key: Keys.first)?.name == "type")
        #expect(child.getServiceProvider(key: Keys.first) === firstProvider)
        #expect(child.getService(key: Self.sameText)?.name == "string")
        #expect(try child.tryService(key: Keys.first).name == "type")
        #expect(child.getService(key: Keys.lazy) == nil)
    }

    @Test func theNearestSlotWinsEvenOfAnotherType() throws {
        let root = ServiceLocator()
        root.addService(key: Self.sameText, service: FirstService(name: "string"))
        let middle = ServiceLocator(parent: root)
        middle.addService(key: NamedKey<LazyService>(storeKey: Self.sameText.storeKey), service: LazyService())
        let child = ServiceLocator(parent: middle)
        #expect(child.getService(key: Self.sameText) == nil)
        #expect(child.getServiceProvider(key: Self.sameText) == nil)
        let error = #expect(throws: ServiceLocatorError.self) { try child.tryService(key: Self.sameText) }
        guard case .serviceNotFound(_, _, _?)? = error else {
            Issue.record("expected serviceNotFound naming the stored type, got \(String(describing: error))")
            return
        }
    }

    /// A key of a protocol whose `keyID` names the slot of a type that adopts it.
    struct ProtocolKeyOfTheTypeSlot: ServiceLocatorKey {
        typealias ServiceType = any FirstServicing
        var storeKey: String { "unused" }
        var keyID: ServiceLocatorKeyID { ServiceLocatorKeyID(serviceType: FirstService.self) }
    }

    @Test("A key of another type than its slot's gets nothing, however the slot holds its service")
    func keyOfAProtocolOnATypeSlot() {
        let instance = ServiceLocator()
        instance.addService(key: Keys.first, service: FirstService(name: "instance"))
        let provider = ServiceLocator()
        provider.addService(key: Keys.first, provider: ServiceProvider(FirstService(name: "provider")))
        for locator in [instance, provider] {
            #expect(locator.getService(key: ProtocolKeyOfTheTypeSlot()) == nil)
            #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: ProtocolKeyOfTheTypeSlot()) }
            #expect(locator.getService(key: Keys.first) != nil)
        }
    }

    @Test func cloneKeepsBothKinds() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService(name: "type"))
        locator.addService(key: Self.sameText, service: FirstService(name: "string"))
        let copy = locator.clone()
        #expect(copy.count == 2)
        #expect(copy.getService(key: Keys.first)?.name == "type")
        #expect(copy.getService(key: Self.sameText)?.name == "string")
    }
}
