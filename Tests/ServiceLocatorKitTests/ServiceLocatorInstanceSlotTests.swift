import LocatorTestSupport
import ServiceContainerKit
import Testing
@testable import ServiceLocatorKit

/// A class instance added under its own type is kept in its slot as it is, with no provider,
/// while nothing in the process records gets (`GetRecording.isOn`). A validation or a graph
/// recorder running anywhere in the process, or a container shut down in it, turns that off,
/// and the other tests of this process run validations side by side with these: so what this
/// suite checks runs in a process of its own, where none of them has run. Elsewhere the same
/// gets pass through a provider and give the same services, which these tests tell apart.
@Suite("ServiceLocator: instances kept in their slots, in a process that records nothing")
struct ServiceLocatorInstanceSlotTests {
    @Test("An instance is kept in its slot, got as it is, and handed out in one provider, which a clone shares")
    func keptInstance() async {
        await #expect(processExitsWith: .success) { try ServiceLocatorInstanceSlotTests.keptInstanceInItsOwnProcess() }
    }

    /// A locator that keeps `service` in its slot, checked; in a process where nothing records.
    static func locator(keeping service: FirstService) throws -> ServiceLocator {
        try #require(!GetRecording.isOn)
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: service)
        #expect(locator.storage.slotObject(Keys.first.keyID)?.isInstance == true)
        #expect(locator.storage.slotObject(Keys.first.keyID)?.object === service)
        return locator
    }

    static func keptInstanceInItsOwnProcess() throws {
        let service = FirstService(name: "kept")
        let locator = try locator(keeping: service)
        // A get hands out the instance itself, which it takes for exactly its own class only.
        #expect(LocatorStorage.instance(service, as: FirstService.self) === service)
        #expect(LocatorStorage.instance(service, as: (any FirstServicing).self) == nil)
        #expect(locator.getService(key: Keys.first) === service)
        #expect(try locator.tryService(key: Keys.first) === service)

        // A provider is made at the first ask, and the same one is handed out at every later ask,
        // as it would be of a stored provider; the slot keeps the instance.
        let provider = try #require(locator.getServiceProvider(key: Keys.first))
        #expect(provider.getServiceAsOptional() === service)
        #expect(locator.getServiceProvider(key: Keys.first) === provider)
        #expect(locator.storage.slotObject(Keys.first.keyID)?.isInstance == true)

        // A clone holds that provider in its slot.
        let clone = locator.clone()
        #expect(clone.storage.slotObject(Keys.first.keyID)?.isInstance == false)
        #expect(clone.storage.slotObject(Keys.first.keyID)?.object === provider)
        #expect(clone.getService(key: Keys.first) === service)

        // Another instance in the slot gets a provider of its own.
        let replacement = FirstService(name: "replacement")
        locator.addService(key: Keys.first, service: replacement)
        #expect(locator.storage.slotObject(Keys.first.keyID)?.object === replacement)
        let second = try #require(locator.getServiceProvider(key: Keys.first))
        #expect(second !== provider)
        #expect(second.getServiceAsOptional() === replacement)
        #expect(clone.getService(key: Keys.first) === service)

        // Kept in a provider instead: an instance under a protocol's key or under a string key,
        // and a value that is no class instance.
        let named = NamedKey<FirstService>(storeKey: "named")
        let number = ServiceLocatorEasyKey<Int>()
        locator.addService(key: Keys.firstProtocol, service: service)
        locator.addService(key: named, service: service)
        locator.addService(key: number, service: 42)
        for keyID in [Keys.firstProtocol.keyID, named.keyID, number.keyID] {
            #expect(locator.storage.slotObject(keyID)?.isInstance == false, "key: \(keyID)")
        }
        #expect(locator.getService(key: Keys.firstProtocol) === service)
        #expect(locator.getService(key: named) === service)
        #expect(locator.getService(key: number) == 42)
        #expect(!GetRecording.isOn)
    }

    @Test("A read-only locator's instance is handed out in one provider too, and found by its type's names")
    func readOnlyAndByName() async {
        await #expect(processExitsWith: .success) { try ServiceLocatorInstanceSlotTests.readOnlyAndByNameInItsOwnProcess() }
    }

    static func readOnlyAndByNameInItsOwnProcess() throws {
        let service = FirstService(name: "frozen")
        let locator = try locator(keeping: service)
        locator.setReadOnly(assertionFailure: false)
        #expect(locator.storage.slotObject(Keys.first.keyID)?.isInstance == true)
        #expect(locator.getService(key: Keys.first) === service)
        let provider = try #require(locator.getServiceProvider(key: Keys.first))
        #expect(provider.getServiceAsOptional() === service)
        #expect(locator.getServiceProvider(key: Keys.first) === provider)

        // A store key alone (an Objective-C style get) finds the slot by its type's full name,
        // or by its short name when no other type of the locator has it; through a child too.
        let child = ServiceLocator(parent: locator)
        for name in [String(reflecting: FirstService.self), "FirstService"] {
            #expect(child.storage.lookup(typeNamed: name)?.storedProvider === provider, "name: \(name)")
        }
        #expect(child.storage.lookup(typeNamed: "NoSuchService") == nil)
        #expect(!GetRecording.isOn)
    }
}
