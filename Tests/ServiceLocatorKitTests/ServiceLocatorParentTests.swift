import Foundation
import LocatorTestSupport
import Testing
import ServiceLocatorKit
import TestSupport

@Suite("ServiceLocator: parent chains")
struct ServiceLocatorParentTests {
    @Test func missingKeyIsAskedOfTheParentChain() throws {
        let root = ServiceLocator()
        root.addService(key: Keys.first, service: FirstService(name: "root"))
        root.addService(key: Keys.params, factory: ParamsServiceFactory())
        let middle = ServiceLocator(parent: root)
        middle.addLazyService(key: Keys.lazy) { LazyService() }
        let leaf = ServiceLocator(parent: middle)
        #expect(leaf.parent === middle)
        #expect(middle.parent === root)

        #expect(try leaf.tryService(key: Keys.first).name == "root")
        #expect(try leaf.tryService(key: Keys.lazy) === middle.tryService(key: Keys.lazy))
        #expect(try leaf.tryService(key: Keys.params, params: "p").text == "p")
        #expect(leaf.getServiceProvider(key: Keys.first) === root.getServiceProvider(key: Keys.first))
        #expect(leaf.count == 0)

        let error = #expect(throws: ServiceLocatorError.self) { try leaf.tryService(key: Keys.many) }
        guard case .serviceNotFound? = error else {
            Issue.record("expected serviceNotFound, got \(String(describing: error))")
            return
        }
    }

    @Test func ownServiceHidesTheParents() throws {
        let root = ServiceLocator()
        root.addService(key: Keys.first, service: FirstService(name: "root"))
        let child = ServiceLocator(parent: root)
        child.addService(key: Keys.first, service: FirstService(name: "child"))
        #expect(try child.tryService(key: Keys.first).name == "child")
        child.removeService(key: Keys.first)
        #expect(try child.tryService(key: Keys.first).name == "root")
        // The parent's is not the child's to remove: the error says where it is.
        let refusal = storedInParentRefusal(child.removeService(key: Keys.first))
        #expect(
            refusal?.description == "Service \(String(reflecting: FirstService.self)) not removed for key '\(Keys.first.keyID)': "
                + "a parent of this locator stores it, and removeService changes only the locator it is called on; remove it "
                + "from that parent, or add another service under the key here, which this locator's gets find first"
        )
        #expect(try child.tryService(key: Keys.first).name == "root")
    }

    @Test("A remove of a service that only a grandparent stores says a parent stores it", arguments: [false, true])
    func removeOfAGrandparentsServiceSaysWhereItIs(readOnlyAncestors: Bool) throws {
        let root = ServiceLocator()
        root.addService(key: Keys.first, service: FirstService(name: "root"))
        let middle = ServiceLocator(parent: root)
        if readOnlyAncestors {
            root.setReadOnly(assertionFailure: false)
            middle.setReadOnly(assertionFailure: false)
        }
        let leaf = ServiceLocator(parent: middle)
        #expect(storedInParentRefusal(leaf.removeService(key: Keys.first)) != nil)
        #expect(try leaf.tryService(key: Keys.first).name == "root")
    }

    /// The refusal of a remove of `Keys.first` that only a parent stores, checked to say so and
    /// to name the key and its service type; `nil`, recorded as an issue, for any other outcome.
    func storedInParentRefusal(
        _ removal: Result<Void, ServiceLocatorError>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ServiceLocatorError? {
        guard case .failure(let refusal) = removal, case .storedInParent(let key, let service) = refusal else {
            Issue.record("a remove of a parent's service should say storedInParent", sourceLocation: sourceLocation)
            return nil
        }
        #expect(
            key == Keys.first.keyID && ObjectIdentifier(service) == ObjectIdentifier(FirstService.self),
            sourceLocation: sourceLocation
        )
        return refusal
    }

    @Test func readOnlyParentsAreReadToo() throws {
        let root = ServiceLocator()
        root.addService(key: Keys.first, service: FirstService(name: "root"))
        root.setReadOnly(assertionFailure: false)
        let child = ServiceLocator(parent: root)
        child.setReadOnly(assertionFailure: false)
        #expect(try child.tryService(key: Keys.first).name == "root")
        #expect(child.parent === root)
        #expect(child.getService(key: Keys.lazy) == nil)
    }

    @Test func parentCanBeSetAndCleared() throws {
        let root = ServiceLocator()
        root.addService(key: Keys.first, service: FirstService())
        let child = ServiceLocator()
        #expect(child.getService(key: Keys.first) == nil)
        #expect(child.setParent(root).failure == nil)
        #expect(child.getService(key: Keys.first) != nil)
        #expect(child.setParent(nil).failure == nil)
        #expect(child.getService(key: Keys.first) == nil)
    }

    @Test func loopingChainIsRefused() throws {
        let log = RefusalLog.shared
        let a = ServiceLocator()
        let b = ServiceLocator(parent: a)
        let c = ServiceLocator(parent: b)

        for (locator, parent) in [(a, a), (a, b), (a, c), (b, c)] {
            let refusal = locator.setParent(parent).failure
            guard case .parentCycle(let type)? = refusal else {
                Issue.record("expected parentCycle, got \(String(describing: refusal))")
                continue
            }
            #expect(same(type, ServiceLocator.self))
        }
        #expect(a.parent == nil)
        #expect(b.parent === a)
        #expect(log.errors(of: a).count == 3)
        // Gets still end.
        #expect(try withTimeLimit { c.getService(key: Keys.first) } == nil)
    }

    @Test func cloneKeepsTheParent() throws {
        let root = ServiceLocator()
        root.addService(key: Keys.first, service: FirstService(name: "root"))
        let child = ServiceLocator(parent: root)
        let copy = child.clone()
        #expect(copy.parent === root)
        #expect(try copy.tryService(key: Keys.first).name == "root")
    }

    @Test("Releasing a 100,000-deep parent chain, writable or read-only, does not overflow the stack")
    func deepChainIsReleasedWithoutRecursion() async {
        await #expect(processExitsWith: .success) {
            for readOnly in [false, true] {
                let root = ServiceLocator()
                root.addService(key: Keys.first, service: FirstService(name: "root"))
                var leaf = root
                for _ in 0..<100_000 {
                    let child = ServiceLocator(parent: leaf)
                    if readOnly { child.setReadOnly(denyClone: false, assertionFailure: false) }
                    leaf = child
                }
                guard leaf.getService(key: Keys.first)?.name == "root" else { exit(2) }
                // The chain goes when `leaf`, its last reference, goes.
            }
        }
    }
}
