import LocatorTestSupport
import Testing
import ServiceEasyLocatorKit

/// A locator an app subclasses, as the seeds' shared-instance example does.
private final class AppEasyLocator: ServiceEasyLocator, @unchecked Sendable {}

/// The same for the keyed locator.
private final class AppKeyedLocator: ServiceLocator, @unchecked Sendable {}

/// Finishes the set-up of a locator of either kind through the protocol both share, as an app's
/// own code would: what it reads back is the locator's own state.
private func finishSetup<Locator: ServiceLocatorProtocol>(
    of locator: Locator,
    parent: Locator.ParentLocator
) -> (count: Int, parentIsSet: Bool, readOnly: Bool, refusal: ServiceLocatorError?, clone: Locator) {
    locator.setParent(parent)
    locator.setReadOnly(denyClone: false, assertionFailure: false)
    let refusal: ServiceLocatorError?
    if case .failure(let error) = locator.setParent(nil, file: "App/Setup.swift", line: 7) {
        refusal = error
    } else {
        refusal = nil
    }
    return (locator.count, locator.parent === parent, locator.readOnly, refusal, locator.clone())
}

@Suite("ServiceLocatorProtocol: what both locators share")
struct ServiceLocatorProtocolTests {
    @Test("A keyed locator set up through the protocol keeps its services, parent and state")
    func keyedLocator() throws {
        let parent = ServiceLocator()
        let key = ServiceLocatorEasyKey<SharedService>()
        let shared = SharedService()
        parent.addService(key: key, service: shared)
        let locator = ServiceLocator()
        locator.addService(key: ServiceLocatorEasyKey<LazyService>(), service: LazyService())

        let result = finishSetup(of: locator, parent: parent)

        #expect(result.count == 1)
        #expect(result.parentIsSet)
        #expect(result.readOnly)
        #expect(result.refusal?.description == ServiceLocatorError.readOnly(locator: ServiceLocator.self, change: "set parent").description)
        #expect(locator.parent === parent)
        #expect(try result.clone.tryService(key: key) === shared)
        #expect(!result.clone.readOnly)
    }

    @Test("A subclass of the easy locator clones as itself, with the same providers")
    func easyLocatorSubclass() throws {
        let parent = ServiceEasyLocator()
        let shared = SharedService()
        parent.addService(shared)
        let locator = AppEasyLocator()
        locator.addLazyService { LazyService() }
        let first: LazyService = try locator.tryService()

        let result = finishSetup(of: locator, parent: parent)

        #expect(result.count == 1)
        #expect(result.parentIsSet)
        #expect(result.readOnly)
        #expect(result.refusal?.description == ServiceLocatorError.readOnly(locator: AppEasyLocator.self, change: "set parent").description)
        let clone: AppEasyLocator = result.clone
        #expect(try clone.tryService(serviceType: LazyService.self) === first)
        #expect(try clone.tryService(serviceType: SharedService.self) === shared)
        #expect(clone.parent === parent)
    }

    @Test("A subclass held as its base class clones as itself, also when the clone is refused", arguments: [false, true])
    func subclassHeldAsBase(denyClone: Bool) throws {
        let locator: ServiceEasyLocator = AppEasyLocator()
        locator.addService(SharedService())
        locator.setReadOnly(denyClone: denyClone, assertionFailure: false)
        let clone = locator.clone()
        #expect(type(of: clone) == AppEasyLocator.self)
        #expect(clone.count == (denyClone ? 0 : 1))
        let keyed: ServiceLocator = AppKeyedLocator()
        #expect(type(of: keyed.clone()) == AppKeyedLocator.self)
    }

    @Test("Locators of both kinds held as `any ServiceLocatorProtocol` are protected and counted")
    func existentials() {
        let keyed = ServiceLocator()
        keyed.addService(key: ServiceLocatorEasyKey<SharedService>(), service: SharedService())
        let easy = ServiceEasyLocator()
        easy.addService(SharedService())
        easy.addService(LazyService())
        let locators: [any ServiceLocatorProtocol] = [keyed, easy]

        for locator in locators {
            locator.setReadOnly(denyClone: true, assertionFailure: false)
        }

        #expect(locators.map(\.count) == [1, 2])
        #expect(locators.map(\.readOnly) == [true, true])
        #expect(locators.map(\.denyClone) == [true, true])
        #expect(locators.map { $0.clone().count } == [0, 0])  // denied: empty copies
        let refused = easy.addService(ManyService(), file: "App/Setup.swift", line: 12)
        guard case .failure(let error) = refused else {
            Issue.record("a read-only locator took a service")
            return
        }
        #expect(error.description.contains("ServiceEasyLocatorKit.ServiceEasyLocator is read-only"))
        #expect(easy.count == 2)
    }
}
