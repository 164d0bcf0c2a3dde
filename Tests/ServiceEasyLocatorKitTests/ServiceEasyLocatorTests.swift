import Dispatch
import LocatorTestSupport
import Testing
@testable import ServiceEasyLocatorKit
import TestSupport

@Suite("ServiceEasyLocator")
struct ServiceEasyLocatorTests {
    @Test func everyWayOfAddingIsGotByType() throws {
        let locator = ServiceEasyLocator()
        let lazyProvider = LazyServiceFactory().serviceProvider()
        let shared = SharedService()
        locator.addService(provider: lazyProvider)
        locator.addService(shared as any SharedServicing)
        locator.addService(factory: ParamsServiceFactory())
        locator.addService { ManyService() }
        locator.addLazyService { NumberService(number: 1) }
        #expect(locator.count == 5)

        let lazy: LazyService = try locator.tryService()
        #expect(lazy === (try lazyProvider.getService()))
        #expect(locator.getService(serviceType: LazyService.self) === lazy)
        #expect(locator.getService(serviceType: (any SharedServicing).self) === shared)
        // Stored under the protocol, not the class.
        #expect(locator.getService(serviceType: SharedService.self) == nil)
        let many1: ManyService = try locator.tryService()
        let many2 = try locator.tryService(serviceType: ManyService.self)
        #expect(many1 !== many2)
        let number: NumberService? = locator.getService()
        #expect(number?.number == 1)
        #expect(number === locator.getService(serviceType: NumberService.self))
    }

    @Test func factoryAndManyFactoryForms() throws {
        let locator = ServiceEasyLocator()
        locator.addService(factory: LazyServiceFactory())
        locator.addService(manyFactory: { ManyService() })
        #expect(try locator.tryService(serviceType: LazyService.self) === locator.tryService(serviceType: LazyService.self))
        #expect(try locator.tryService(serviceType: ManyService.self) !== locator.tryService(serviceType: ManyService.self))
    }

    @Test func lazyServiceIsMadeOnce() throws {
        let locator = ServiceEasyLocator()
        let counter = Counter()
        locator.addLazyService { () -> LazyService in
            counter.increment()
            return LazyService()
        }
        #expect(counter.value == 0)
        #expect(try locator.tryService(serviceType: LazyService.self) === locator.tryService(serviceType: LazyService.self))
        #expect(counter.value == 1)
    }

    @Test func paramsServiceWithOptionalParams() throws {
        let locator = ServiceEasyLocator()
        locator.addService(factory: ParamsServiceFactory())
        let byDefault: ParamsService = try locator.tryService()
        #expect(byDefault.text == "default")
        let manual: ParamsService = try locator.tryService(params: "manual")
        #expect(manual.text == "manual")
        let optional: String? = "optional"
        #expect(locator.getService(serviceType: ParamsService.self, params: optional)?.text == "optional")
        let viaInference: ParamsService? = locator.getService(params: "inferred")
        #expect(viaInference?.text == "inferred")
        #expect(try locator.tryService(serviceType: ParamsService.self, params: "typed").text == "typed")
        #expect(locator.getService(serviceType: ParamsService.self)?.text == "default")
    }

    @Test func paramsServiceWithRequiredParams() throws {
        let locator = ServiceEasyLocator()
        let provider = NumberServiceFactory().serviceProvider()
        locator.addService(provider: provider)
        #expect(try locator.tryService(serviceType: NumberService.self, params: 4).number == 4)
        #expect(locator.getServiceProvider(serviceType: NumberService.self, paramsType: Int.self) === provider)
        #expect(locator.getServiceProvider(serviceType: NumberService.self) == nil)

        let missing = #expect(throws: ServiceLocatorError.self) { try locator.tryService(serviceType: NumberService.self) }
        guard case .wrongParams(_, _, let expected, nil)? = missing else {
            Issue.record("expected wrongParams without params, got \(String(describing: missing))")
            return
        }
        #expect(same(expected, Int.self))
    }

    @Test func wrongParamsTypeIsWrongParams() {
        let locator = ServiceEasyLocator()
        locator.addService(factory: ParamsServiceFactory())
        locator.addService(SharedService())
        let service: ParamsService? = locator.getService(params: 42)
        #expect(service == nil)
        let error = #expect(throws: ServiceLocatorError.self) {
            try locator.tryService(serviceType: ParamsService.self, params: 42)
        }
        guard case .wrongParams(let key, let type, let expected, let received)? = error else {
            Issue.record("expected wrongParams, got \(String(describing: error))")
            return
        }
        #expect(key == ServiceLocatorKeyID(serviceType: ParamsService.self))
        #expect(same(type, ParamsService.self))
        #expect(same(expected, String?.self))
        #expect(same(received, Int.self))
        #expect(error?.description.contains("ParamsService") == true)

        let plain = #expect(throws: ServiceLocatorError.self) {
            try locator.tryService(serviceType: SharedService.self, params: "x")
        }
        guard case .wrongParams(_, _, nil, _)? = plain else {
            Issue.record("params for a plain service should be wrongParams, got \(String(describing: plain))")
            return
        }
        let wrongProvider = locator.getServiceProvider(serviceType: ParamsService.self, paramsType: Int.self)
        #expect(wrongProvider == nil)
    }

    @Test func missingServiceIsServiceNotFound() {
        let locator = ServiceEasyLocator()
        let missing: LazyService? = locator.getService()
        #expect(missing == nil)
        #expect(locator.getServiceProvider(serviceType: LazyService.self) == nil)
        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(serviceType: LazyService.self) }
        guard case .serviceNotFound(let key, let service, nil)? = error else {
            Issue.record("expected serviceNotFound, got \(String(describing: error))")
            return
        }
        #expect(same(key.serviceType, LazyService.self))
        #expect(same(service, LazyService.self))
        #expect(error?.description.contains("LazyService") == true)
        let withParams: ParamsService? = locator.getService(params: "x")
        #expect(withParams == nil)
    }

    @Test func factoryFailureIsTheProvidersError() {
        let locator = ServiceEasyLocator()
        locator.addService(factory: FailingServiceFactory())
        let error = #expect(throws: ServiceObtainError.self) { try locator.tryService(serviceType: FailingService.self) }
        #expect(same(error?.service, FailingService.self))
        #expect(error?.error as? TestError == .failed)
        let result = locator.getServiceAsResult(serviceType: FailingService.self)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure is ServiceObtainError)
    }

    @Test func getServiceAsResultAndProvider() throws {
        let locator = ServiceEasyLocator()
        let provider = ServiceProvider(SharedService(name: "p"))
        locator.addService(provider: provider)
        let result: Result<SharedService, any Error> = locator.getServiceAsResult()
        #expect(try result.get().name == "p")
        let got: ServiceProvider<SharedService>? = locator.getServiceProvider()
        #expect(got === provider)
    }

    @Test func removedServiceIsGone() {
        let locator = ServiceEasyLocator()
        locator.addService(SharedService())
        #expect(locator.removeService(serviceType: SharedService.self).failure == nil)
        #expect(locator.getService(serviceType: SharedService.self) == nil)
        guard case .serviceNotFound? = locator.removeService(serviceType: SharedService.self).failure else {
            Issue.record("removing a missing service should say serviceNotFound")
            return
        }
        // One its parent stores is not its to remove.
        let child = ServiceEasyLocator(parent: locator)
        locator.addService(SharedService(name: "parent's"))
        guard case .storedInParent(_, let service)? = child.removeService(serviceType: SharedService.self).failure else {
            Issue.record("removing a parent's service should say storedInParent")
            return
        }
        #expect(ObjectIdentifier(service) == ObjectIdentifier(SharedService.self))
        #expect(child.getService(serviceType: SharedService.self)?.name == "parent's")
        // Nor one a grandparent stores.
        let grandchild = ServiceEasyLocator(parent: child)
        guard case .storedInParent? = grandchild.removeService(serviceType: SharedService.self).failure else {
            Issue.record("removing a grandparent's service should say storedInParent")
            return
        }
        #expect(grandchild.getService(serviceType: SharedService.self)?.name == "parent's")
    }

    @Test func readOnlyRefusesChanges() throws {
        let log = RefusalLog.shared
        let locator = ServiceEasyLocator()
        let shared = SharedService()
        locator.addService(shared)
        locator.setReadOnly(assertionFailure: false)
        #expect(locator.readOnly)
        #expect(locator.denyClone)

        let refusals = [
            locator.addService(LazyService()).failure,
            locator.addService(provider: NumberServiceFactory().serviceProvider()).failure,
            locator.addService(factory: LazyServiceFactory()).failure,
            locator.addService(factory: ParamsServiceFactory()).failure,
            locator.addLazyService { ManyService() }.failure,
            locator.addService { ManyService() }.failure,
            locator.removeService(serviceType: SharedService.self).failure,
            locator.setParent(ServiceEasyLocator()).failure,
        ]
        for refusal in refusals {
            guard case .readOnly(let type, _)? = refusal else {
                Issue.record("expected readOnly, got \(String(describing: refusal))")
                continue
            }
            #expect(same(type, ServiceEasyLocator.self))
        }
        #expect(locator.getService(serviceType: SharedService.self) === shared)
        #expect(locator.count == 1)
        #expect(log.errors(of: locator).count == refusals.count)
    }

    @Test func cloneSharesProvidersAndDeniedCloneIsEmpty() throws {
        let log = RefusalLog.shared
        let locator = EasyAppLocator()
        locator.addLazyService { LazyService() }
        let made = try locator.tryService(serviceType: LazyService.self)

        let copy = locator.clone()
        #expect(type(of: copy) == EasyAppLocator.self)
        #expect(try copy.tryService(serviceType: LazyService.self) === made)
        copy.addService(SharedService())
        #expect(locator.getService(serviceType: SharedService.self) == nil)

        locator.setReadOnly(denyClone: true, assertionFailure: false)
        let denied = locator.clone()
        #expect(denied.count == 0)
        #expect(denied.readOnly == false)
        #expect(denied.getService(serviceType: LazyService.self) == nil)
        guard case .cloneDenied? = log.errors(of: locator).first else {
            Issue.record("the denied clone should be reported")
            return
        }
    }

    @Test func anInstanceAddedAsItsClassHasOneProvider() throws {
        let locator = ServiceEasyLocator()
        let shared = SharedService(name: "kept")
        locator.addService(shared)
        #expect(locator.getService(serviceType: SharedService.self) === shared)
        #expect(try locator.tryService(serviceType: SharedService.self) === shared)
        let provider = try #require(locator.getServiceProvider(serviceType: SharedService.self))
        #expect(try provider.getService() === shared)
        #expect(locator.getServiceProvider(serviceType: SharedService.self) === provider)
        #expect(locator.clone().getServiceProvider(serviceType: SharedService.self) === provider)
        #expect(ServiceValidator.validate(locator).made == ["[ServiceEasyLocatorKitTests.SharedService]"])

        locator.setReadOnly(denyClone: false, assertionFailure: false)
        #expect(locator.getService(serviceType: SharedService.self) === shared)
        #expect(locator.getServiceProvider(serviceType: SharedService.self) === provider)
        #expect(locator.clone().getServiceProvider(serviceType: SharedService.self) === provider)
        #expect(ServiceEasyLocator(parent: locator).getServiceProvider(serviceType: SharedService.self) === provider)
    }

    @Test func aReplacedInstanceHasAProviderOfItsOwn() {
        let locator = ServiceEasyLocator()
        locator.addService(SharedService(name: "first"))
        let first = locator.getServiceProvider(serviceType: SharedService.self)
        locator.addService(SharedService(name: "second"))
        let second = locator.getServiceProvider(serviceType: SharedService.self)
        #expect(first !== second)
        #expect(second?.getServiceAsOptional()?.name == "second")
        #expect(locator.getService(serviceType: SharedService.self)?.name == "second")
    }

    @Test func anInstanceOfASubclassIsGotAsTheTypeItWasAddedAs() throws {
        let locator = ServiceEasyLocator()
        let service = DerivedService()
        locator.addService(service as BaseService)
        #expect(locator.getService(serviceType: BaseService.self) === service)
        #expect(locator.getService(serviceType: DerivedService.self) == nil)
        #expect(try locator.getServiceProvider(serviceType: BaseService.self)?.getService() === service)
    }

    @Test func aRemovedInstanceIsReleasedWithItsProvider() {
        let locator = ServiceEasyLocator()
        weak var released: SharedService?
        do {
            let service = SharedService()
            released = service
            locator.addService(service)
            _ = locator.getServiceProvider(serviceType: SharedService.self)
        }
        #expect(released != nil)
        locator.removeService(serviceType: SharedService.self)
        #expect(released == nil)
    }

    @Test func parentChainAnswersMisses() throws {
        let root = ServiceEasyLocator()
        root.addService(SharedService(name: "root"))
        root.addService(factory: ParamsServiceFactory())
        let child = ServiceEasyLocator(parent: root)
        child.addService(LazyService())
        #expect(child.parent === root)
        #expect(try child.tryService(serviceType: SharedService.self).name == "root")
        #expect(try child.tryService(serviceType: ParamsService.self, params: "p").text == "p")
        let copy = child.clone()
        #expect(copy.parent === root)

        let cycle = root.setParent(child).failure
        guard case .parentCycle? = cycle else {
            Issue.record("expected parentCycle, got \(String(describing: cycle))")
            return
        }
        #expect(root.parent == nil)
        #expect(child.setParent(nil).failure == nil)
        #expect(child.getService(serviceType: SharedService.self) == nil)
    }

    @Test func factoryMayUseTheSameLocator() throws {
        for readOnly in [false, true] {
            let locator = ServiceEasyLocator()
            locator.addService(SharedService(name: "dependency"))
            locator.addLazyService { [unowned locator] in
                DependentService(shared: try locator.tryService())
            }
            if readOnly { locator.setReadOnly(assertionFailure: false) }
            // A locator that held its lock while the factory ran would wait for itself.
            #expect(try withTimeLimit { try locator.tryService(serviceType: DependentService.self).shared.name } == "dependency")
        }
    }

    @Test(.offThePool) func manyThreadsAddAndGet() throws {
        let threads = 8
        let counter = Counter()
        let writable = ServiceEasyLocator()
        let readOnly = ServiceEasyLocator()
        readOnly.addService(SharedService(name: "dependency"))
        readOnly.addLazyService { [unowned readOnly] in
            counter.increment()
            return DependentService(shared: try readOnly.tryService())
        }
        readOnly.setReadOnly(assertionFailure: false)

        // The lazy service's making gets another service while other threads wait for it: a
        // deadlock fails the test instead of stalling the run.
        try withTimeLimit {
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                switch thread % 4 {
                case 0: writable.addService(SharedService())
                case 1: writable.addService(provider: NumberServiceFactory().serviceProvider())
                case 2: writable.addLazyService { LazyService() }
                default: writable.addService { ManyService() }
                }
                for _ in 0..<200 {
                    _ = readOnly.getService(serviceType: DependentService.self)
                    _ = writable.getService(serviceType: SharedService.self)
                }
            }
        }
        #expect(writable.count == 4)
        #expect(counter.value == 1)
    }

    @Test func anyServiceChecksTypeAndParams() throws {
        let locator = ServiceEasyLocator()
        let shared = SharedService()
        locator.addService(shared)
        locator.addService(factory: NumberServiceFactory())
        #expect(try locator.anyService(serviceType: SharedService.self, params: nil) as? SharedService === shared)
        #expect((try locator.anyService(serviceType: NumberService.self, params: 3) as? NumberService)?.number == 3)
        #expect(throws: ServiceLocatorError.self) { try locator.anyService(serviceType: NumberService.self, params: nil) }
        #expect(throws: ServiceLocatorError.self) { try locator.anyService(serviceType: NumberService.self, params: "3") }
        #expect(throws: ServiceLocatorError.self) { try locator.anyService(serviceType: LazyService.self, params: nil) }
    }

    #if DEBUG
    @Test func readOnlyChangeAssertsWhenAskedTo() async {
        await #expect(processExitsWith: .failure) {
            let locator = ServiceEasyLocator()
            locator.setReadOnly()
            locator.addService(SharedService())
        }
    }
    #endif
}

/// An app's easy locator subclass.
final class EasyAppLocator: ServiceEasyLocator, @unchecked Sendable {}

@Suite("ServiceEasyLocator params casts")
struct ServiceEasyLocatorParamsCastTests {
    @Test func paramsThatFitAreCast() throws {
        let locator = ServiceEasyLocator()
        locator.addService(factory: NumberServiceFactory())
        let wrapped: Int? = 5
        #expect(try locator.tryService(serviceType: NumberService.self, params: wrapped).number == 5)
        let missing: Int? = nil
        #expect(throws: ServiceLocatorError.self) {
            try locator.tryService(serviceType: NumberService.self, params: missing)
        }
    }
}

class BaseService {}
final class DerivedService: BaseService {}
