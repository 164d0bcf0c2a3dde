import LocatorTestSupport
import Testing
import ServiceLocatorKit

/// The shared locator of `SharedReader`, whose deinit reads it.
private let readBySharedReader = SharedServiceLocator<ServiceLocator>()

/// A service whose deinit reads the shared locator that kept it, as 1.x code's deinit calls
/// `getServiceFromShared()`.
private final class SharedReader: Sendable {
    deinit { _ = readBySharedReader.locator?.getService(key: Keys.first) }
}

@Suite("ServiceLocator: readOnly, clone, shared instance")
struct ServiceLocatorReadOnlyTests {
    @Test func readOnlyRefusesEveryChangeAndKeepsTheLocator() throws {
        let log = RefusalLog.shared
        let locator = ServiceLocator()
        let first = FirstService()
        locator.addService(key: Keys.first, service: first)
        #expect(locator.readOnly == false)
        #expect(locator.setReadOnly(denyClone: false, assertionFailure: false).failure == nil)
        #expect(locator.readOnly)
        #expect(locator.denyClone == false)

        let refusals: [ServiceLocatorError?] = [
            locator.addService(key: Keys.lazy, factory: LazyServiceFactory()).failure,
            locator.addService(key: Keys.first, service: FirstService(name: "other")).failure,
            locator.addLazyService(key: Keys.many) { ManyService() }.failure,
            locator.addService(key: Keys.many) { ManyService() }.failure,
            locator.addService(key: Keys.number, factory: NumberServiceFactory()).failure,
            locator.removeService(key: Keys.first).failure,
            locator.setParent(ServiceLocator()).failure,
            // A parent that would loop too: read-only is what is said.
            locator.setParent(ServiceLocator(parent: locator)).failure,
        ]
        for refusal in refusals {
            guard case .readOnly(let type, _)? = refusal else {
                Issue.record("expected readOnly, got \(String(describing: refusal))")
                continue
            }
            #expect(same(type, ServiceLocator.self))
        }
        #expect(refusals[0]?.description.contains("LazyService") == true)
        #expect(refusals[5]?.description.contains("remove") == true)

        // Unchanged.
        #expect(try locator.tryService(key: Keys.first) === first)
        #expect(locator.getService(key: Keys.lazy) == nil)
        #expect(locator.count == 1)
        #expect(locator.parent == nil)
        // Reported.
        #expect(log.errors(of: locator).count == refusals.count)
    }

    @Test("A clone is made with init(parent:): what a subclass's init adds is replaced, and a read-only one is refused")
    func cloneOfASubclassWhoseInitAddsServices() {
        let log = RefusalLog.shared
        let original = SeededLocator(parent: nil)
        let first = FirstService(name: "original")
        original.addService(key: Keys.first, service: first)
        original.removeService(key: Keys.lazy)
        let copy = original.clone()
        #expect(copy.getService(key: Keys.first) === first)
        #expect(copy.getService(key: Keys.lazy) == nil)  // added by the copy's init, replaced

        let frozen = FrozenLocator(parent: nil)  // read-only, clones allowed
        let unfilled = frozen.clone()
        #expect(unfilled.getService(key: Keys.first)?.name == "frozen")
        let refusals = log.errors(of: unfilled)
        #expect(refusals.map(\.description) == [
            "ServiceLocatorKitTests.FrozenLocator is read-only: refused to fill a clone; make every change before "
                + "setReadOnly(), or in a locator of your own whose parent this one is (setParent)"
        ])
    }

    @Test func setReadOnlyAgainMayDenyClonesButNeverAllowThemAgain() {
        let log = RefusalLog.shared  // registered before the refusal it must see
        let locator = ServiceLocator()
        locator.setReadOnly(denyClone: false, assertionFailure: false)
        #expect(locator.setReadOnly(denyClone: false).failure == nil)
        #expect(locator.denyClone == false)
        // The later calls' `assertionFailure` (`true` by default) changes nothing: the refusal
        // below does not assert, which in a debug build would stop this test's process.
        #expect(locator.setReadOnly(denyClone: true).failure == nil)
        #expect(locator.denyClone)
        #expect(locator.setReadOnly(denyClone: true).failure == nil)
        guard case .readOnly(_, let change)? = locator.setReadOnly(denyClone: false).failure else {
            Issue.record("allowing clones of a locator that denies them should be refused")
            return
        }
        #expect(change == "change denyClone to false")
        #expect(locator.denyClone)
        #expect(log.errors(of: locator).count == 1)
    }

    @Test func cloneSharesProvidersAndIsWritable() throws {
        let locator = ServiceLocator()
        locator.addLazyService(key: Keys.lazy) { LazyService() }
        locator.addService(key: Keys.many) { ManyService() }
        let made = try locator.tryService(key: Keys.lazy)
        locator.setReadOnly(denyClone: false, assertionFailure: false)

        let copy = locator.clone()
        #expect(copy !== locator)
        #expect(copy.readOnly == false)
        #expect(copy.denyClone == false)
        #expect(try copy.tryService(key: Keys.lazy) === made)
        #expect(copy.getServiceProvider(key: Keys.many) === locator.getServiceProvider(key: Keys.many))

        copy.addService(key: Keys.first, service: FirstService())
        #expect(copy.getService(key: Keys.first) != nil)
        #expect(locator.getService(key: Keys.first) == nil)
        copy.removeService(key: Keys.lazy)
        #expect(locator.getService(key: Keys.lazy) === made)
    }

    @Test func deniedCloneIsAnEmptyWritableLocatorOfTheSameType() {
        let log = RefusalLog.shared
        let locator = AppLocator()
        locator.addService(key: Keys.first, service: FirstService())
        locator.setReadOnly(assertionFailure: false)
        #expect(locator.denyClone)

        let copy = locator.clone()
        #expect(type(of: copy) == AppLocator.self)
        #expect(copy.count == 0)
        #expect(copy.getService(key: Keys.first) == nil)
        #expect(copy.readOnly == false)
        #expect(copy.addService(key: Keys.first, service: FirstService()).failure == nil)

        let errors = log.errors(of: locator)
        #expect(errors.count == 1)
        guard case .cloneDenied(let type)? = errors.first else {
            Issue.record("expected cloneDenied, got \(errors)")
            return
        }
        #expect(same(type, AppLocator.self))
    }

    @Test func subclassSharedInstance() throws {
        let log = RefusalLog.shared
        let holder = SharedServiceLocator<AppLocator>()
        #expect(holder.locator == nil)
        let error = #expect(throws: ServiceLocatorError.self) { try holder.tryLocator() }
        guard case .sharedRequireSetup(let type)? = error else {
            Issue.record("expected sharedRequireSetup, got \(String(describing: error))")
            return
        }
        #expect(same(type, AppLocator.self))

        let locator = AppLocator()
        locator.addService(key: Keys.first, service: FirstService(name: "shared"))
        locator.setReadOnly(assertionFailure: false)
        #expect(holder.setup(locator, assertionFailure: false).failure == nil)
        #expect(holder.readOnly)
        #expect(try holder.tryLocator() === locator)
        #expect(try holder.tryLocator().tryService(key: Keys.first).name == "shared")

        guard case .sharedReadOnly? = holder.setup(AppLocator()).failure else {
            Issue.record("a second setup should be refused")
            return
        }
        #expect(holder.locator === locator)
        #expect(log.errors(of: holder).count == 1)
    }

    @Test("A service of a replaced shared locator may read the shared locator in its deinit")
    func replacedSharedLocatorIsReleasedAfterTheLock() async {
        await #expect(processExitsWith: .success) {
            do {  // from the end of this block, the holder alone keeps the first locator
                let first = ServiceLocator()
                first.addService(key: ServiceLocatorEasyKey<SharedReader>(), service: SharedReader())
                readBySharedReader.setup(first, readOnlySharedAfter: false)
            }
            let second = ServiceLocator()
            second.addService(key: Keys.first, service: FirstService(name: "second"))
            readBySharedReader.setup(second)
        }
    }

    @Test func sharedInstanceMayBeReplacedUntilLocked() {
        let holder = SharedServiceLocator<ServiceLocator>()
        let first = ServiceLocator()
        let second = ServiceLocator()
        #expect(holder.setup(first, readOnlySharedAfter: false).failure == nil)
        #expect(holder.readOnly == false)
        #expect(holder.setup(second).failure == nil)
        #expect(holder.locator === second)
        #expect(holder.readOnly)
    }

    #if DEBUG
    @Test func readOnlyChangeAssertsWhenAskedTo() async {
        await #expect(processExitsWith: .failure) {
            let locator = ServiceLocator()
            locator.setReadOnly()
            locator.addService(key: Keys.first, service: FirstService())
        }
    }

    @Test func deniedCloneAssertsWhenAskedTo() async {
        await #expect(processExitsWith: .failure) {
            let locator = ServiceLocator()
            locator.setReadOnly(denyClone: true, assertionFailure: true)
            _ = locator.clone()
        }
    }

    @Test func lockedSharedSetupAssertsWhenAskedTo() async {
        await #expect(processExitsWith: .failure) {
            let holder = SharedServiceLocator<ServiceLocator>()
            holder.setup(ServiceLocator())
            holder.setup(ServiceLocator())
        }
    }
    #endif
}

/// A locator whose `init(parent:)` adds a service.
final class SeededLocator: ServiceLocator, @unchecked Sendable {
    required init(parent: ServiceLocator?) {
        super.init(parent: parent)
        addService(key: Keys.lazy, factory: LazyServiceFactory())
    }
}

/// A locator whose `init(parent:)` adds a service and makes it read-only.
final class FrozenLocator: ServiceLocator, @unchecked Sendable {
    required init(parent: ServiceLocator?) {
        super.init(parent: parent)
        addService(key: Keys.first, service: FirstService(name: "frozen"))
        setReadOnly(denyClone: false, assertionFailure: false)
    }
}

/// An app's locator subclass with a shared instance, as the 2.x docs suggest.
final class AppLocator: ServiceLocator, @unchecked Sendable {
    static let holder = SharedServiceLocator<AppLocator>()
}
