import LocatorTestSupport
import Testing
@testable import ServiceLocatorKit
import TestSupport

@Suite("ServiceLocator: add, get, remove")
struct ServiceLocatorTests {
    @Test func providerAddedUnderKeyIsGot() throws {
        let locator = ServiceLocator()
        let provider = LazyServiceFactory().serviceProvider()
        #expect(locator.addService(key: Keys.lazy, provider: provider).failure == nil)

        let service = try locator.tryService(key: Keys.lazy)
        #expect(locator.getService(key: Keys.lazy) === service)
        #expect(try provider.getService() === service)
        #expect(locator.getServiceProvider(key: Keys.lazy) === provider)
        #expect(locator.count == 1)
    }

    @Test func existingServiceIsGotAsItself() throws {
        let locator = ServiceLocator()
        let first = FirstService(name: "given")
        locator.addService(key: Keys.firstProtocol, service: first)
        let got = try locator.tryService(key: Keys.firstProtocol)
        #expect(got === first)
        #expect(got.name == "given")
    }

    @Test func factoryModesAreKept() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.singleton, factory: SingletonServiceFactory())
        locator.addService(key: Keys.lazy, factory: LazyServiceFactory())
        #expect(try locator.tryService(key: Keys.singleton) === locator.tryService(key: Keys.singleton))
        #expect(try locator.tryService(key: Keys.lazy) === locator.tryService(key: Keys.lazy))
    }

    @Test func lazyClosureIsMadeOnceOnFirstGet() throws {
        let locator = ServiceLocator()
        let counter = Counter()
        locator.addLazyService(key: Keys.lazy) {
            counter.increment()
            return LazyService()
        }
        #expect(counter.value == 0)
        let first = try locator.tryService(key: Keys.lazy)
        let second = try locator.tryService(key: Keys.lazy)
        #expect(first === second)
        #expect(counter.value == 1)
    }

    @Test func manyClosureMakesANewServiceEachGet() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.many, manyFactory: { ManyService() })
        #expect(try locator.tryService(key: Keys.many) !== locator.tryService(key: Keys.many))

        let trailing = ServiceLocator()
        trailing.addService(key: Keys.many) { ManyService() }
        #expect(try trailing.tryService(key: Keys.many) !== trailing.tryService(key: Keys.many))
    }

    @Test func paramsFactoryTakesParams() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.params, factory: ParamsServiceFactory())
        #expect(try locator.tryService(key: Keys.params, params: "manual").text == "manual")
        #expect(locator.getService(key: Keys.params, params: "optional")?.text == "optional")
        // Optional params: the service is also got without params.
        #expect(try locator.tryService(key: Keys.params).text == "default")
        #expect(locator.getService(key: Keys.params)?.text == "default")
    }

    @Test func paramsProviderIsGotBack() throws {
        let locator = ServiceLocator()
        let provider = NumberServiceFactory().serviceProvider()
        locator.addService(key: Keys.number, provider: provider)
        let got: ServiceParamsProvider<NumberService, Int>? = locator.getServiceProvider(key: Keys.number)
        #expect(got === provider)
        #expect(try locator.tryService(key: Keys.number, params: 7).number == 7)
    }

    @Test func optionalParamsProviderHasAPlainProvider() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.params, factory: ParamsServiceFactory())
        let plain: ServiceProvider<ParamsService>? = locator.getServiceProvider(key: Keys.params)
        #expect(try #require(plain).getService().text == "default")
    }

    /// docs/locators.md, "Getting": a params provider of `P?` under a key of `P` is not the key's.
    @Test func paramsProviderOfTheOptionalOfTheKeysParamsIsFoundWithAKeyOfTheOptional() throws {
        let locator = ServiceLocator()
        let key = ServiceLocatorParamsEasyKey<ParamsService, String>()
        locator.addService(key: key, factory: ParamsServiceFactory())
        #expect(try locator.tryService(key: key, params: "given").text == "given")
        let exact: ServiceParamsProvider<ParamsService, String>? = locator.getServiceProvider(key: key)
        #expect(exact == nil)
        let stored = locator.getServiceProvider(key: ServiceLocatorParamsEasyKey<ParamsService, String?>())
        #expect(try #require(stored).getService(params: nil).text == "default")
    }

    @Test func missingKeyIsServiceNotFound() {
        let locator = ServiceLocator()
        #expect(locator.getService(key: Keys.lazy) == nil)
        #expect(locator.getServiceProvider(key: Keys.lazy) == nil)
        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: Keys.lazy) }
        guard case .serviceNotFound(let key, let service, nil)? = error else {
            Issue.record("expected serviceNotFound, got \(String(describing: error))")
            return
        }
        #expect(key == Keys.lazy.keyID)
        #expect(same(service, LazyService.self))
        #expect(error?.description.contains("LazyService") == true)
    }

    @Test func missingParamsServiceIsServiceNotFound() {
        let locator = ServiceLocator()
        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: Keys.number, params: 1) }
        guard case .serviceNotFound(_, let service, nil)? = error else {
            Issue.record("expected serviceNotFound, got \(String(describing: error))")
            return
        }
        #expect(same(service, NumberService.self))
        let provider: ServiceParamsProvider<NumberService, Int>? = locator.getServiceProvider(key: Keys.number)
        #expect(provider == nil)
    }

    @Test func requiredParamsMissingIsWrongParams() {
        let locator = ServiceLocator()
        locator.addService(key: Keys.number, factory: NumberServiceFactory())
        #expect(locator.getService(key: Keys.number) == nil)
        let plain: ServiceProvider<NumberService>? = locator.getServiceProvider(key: Keys.number)
        #expect(plain == nil)
        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: Keys.number) }
        guard case .wrongParams(_, let service, let expected, let received)? = error else {
            Issue.record("expected wrongParams, got \(String(describing: error))")
            return
        }
        #expect(same(service, NumberService.self))
        #expect(same(expected, Int.self))
        #expect(received == nil)
        #expect(error?.description.contains("no params") == true)
    }

    @Test func paramsOfAnotherTypeAreCastOrRefused() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.params, factory: ParamsServiceFactory())
        // A String fits the factory's String? params.
        let stringKey = NamedParamsKey<ParamsService, String>(storeKey: Keys.params.storeKey)
        let sameSlot = ServiceLocatorKeyID(serviceType: ParamsService.self)
        let typeNamed = NamedParamsKey<ParamsService, String>(storeKey: "ParamsService")
        #expect(stringKey.keyID != sameSlot)
        #expect(typeNamed.keyID != sameSlot)

        let slotKey = SlotParamsKey<ParamsService, String>()
        #expect(try locator.tryService(key: slotKey, params: "cast").text == "cast")

        let intKey = SlotParamsKey<ParamsService, Int>()
        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: intKey, params: 3) }
        guard case .wrongParams(_, _, let expected, let received)? = error else {
            Issue.record("expected wrongParams, got \(String(describing: error))")
            return
        }
        #expect(same(expected, String?.self))
        #expect(same(received, Int.self))
        let provider: ServiceParamsProvider<ParamsService, Int>? = locator.getServiceProvider(key: intKey)
        #expect(provider == nil)
    }

    @Test func paramsForAPlainServiceAreWrongParams() {
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService())
        let key = SlotParamsKey<FirstService, String>()
        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: key, params: "x") }
        guard case .wrongParams(_, _, let expected, let received)? = error else {
            Issue.record("expected wrongParams, got \(String(describing: error))")
            return
        }
        #expect(expected == nil)
        #expect(same(received, String.self))
        #expect(error?.description.contains("takes no params") == true)
    }

    @Test func aSlotHoldingAnotherTypeIsServiceNotFound() {
        let locator = ServiceLocator()
        locator.addService(key: NamedKey<FirstService>(storeKey: "shared"), service: FirstService())
        let other = NamedKey<LazyService>(storeKey: "shared")
        #expect(locator.getService(key: other) == nil)
        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: other) }
        guard case .serviceNotFound(let key, let requested, let stored?)? = error else {
            Issue.record("expected serviceNotFound naming the stored type, got \(String(describing: error))")
            return
        }
        #expect(key == ServiceLocatorKeyID(storeKey: "shared"))
        #expect(same(requested, LazyService.self))
        #expect(same(stored, FirstService.self))
        #expect(error?.description.hasSuffix("not found for key 'shared': the slot holds a service of type "
            + "\(String(reflecting: FirstService.self)); two key types share this storeKey, give one of them another") == true)
    }

    @Test func customKeysNameSeparateSlots() throws {
        let locator = ServiceLocator()
        let plain = NamedKey<FirstService>(storeKey: "first")
        let shared = NamedKey<FirstService>(storeKey: "first.shared")
        locator.addService(key: plain, service: FirstService(name: "plain"))
        locator.addService(key: shared, service: FirstService(name: "shared"))
        #expect(try locator.tryService(key: plain).name == "plain")
        #expect(try locator.tryService(key: shared).name == "shared")
        #expect(locator.count == 2)
    }

    @Test func addingAgainReplaces() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService(name: "old"))
        locator.addService(key: Keys.first, service: FirstService(name: "new"))
        #expect(try locator.tryService(key: Keys.first).name == "new")
        #expect(locator.count == 1)
    }

    @Test func factoryFailureIsTheProvidersErrorUnchanged() {
        let locator = ServiceLocator()
        locator.addService(key: Keys.failing, factory: FailingServiceFactory())
        #expect(locator.getService(key: Keys.failing) == nil)
        let error = #expect(throws: ServiceObtainError.self) { try locator.tryService(key: Keys.failing) }
        #expect(same(error?.service, FailingService.self))
        #expect(error?.error as? TestError == .failed)
        #expect(error?.isNested == false)
        let result = locator.getServiceAsResult(key: Keys.failing)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure is ServiceObtainError)
    }

    @Test func getServiceAsResultGivesTheService() throws {
        let locator = ServiceLocator()
        let first = FirstService()
        locator.addService(key: Keys.first, service: first)
        #expect(try locator.getServiceAsResult(key: Keys.first).get() === first)
    }

    @Test func removedServiceIsNotFound() {
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService())
        #expect(locator.removeService(key: Keys.first).failure == nil)
        #expect(locator.getService(key: Keys.first) == nil)
        #expect(locator.count == 0)
        #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: Keys.first) }
        guard case .serviceNotFound? = locator.removeService(key: Keys.first).failure else {
            Issue.record("removing a missing key should say serviceNotFound")
            return
        }
        #expect(locator.removeService(key: Keys.first).failure?.description
            == "Service ServiceLocatorKitTests.FirstService not found for key 'ServiceLocatorKitTests.FirstService': "
            + "nothing is stored under the key, in the locator or its parents; add it (addService) before a get asks "
            + "for it")
    }

    @Test func factoryMayGetOtherServicesFromTheSameLocator() throws {
        for readOnly in [false, true] {
            let locator = ServiceLocator()
            locator.addService(key: Keys.first, service: FirstService(name: "dependency"))
            locator.addLazyService(key: Keys.dependent) { [unowned locator] in
                DependentService(first: try locator.tryService(key: Keys.first))
            }
            if readOnly { locator.setReadOnly(assertionFailure: false) }
            // A locator that held its lock while the factory ran would wait for itself.
            #expect(try withTimeLimit { try locator.tryService(key: Keys.dependent).first.name } == "dependency")
        }
    }

    @Test func missingDependencyIsNestedInTheObtainError() {
        let locator = ServiceLocator()
        locator.addLazyService(key: Keys.dependent) { [unowned locator] in
            DependentService(first: try locator.tryService(key: Keys.first))
        }
        let error = #expect(throws: ServiceObtainError.self) { try locator.tryService(key: Keys.dependent) }
        #expect(same(error?.service, DependentService.self))
        guard case .serviceNotFound(_, let missing, _)? = error?.error as? ServiceLocatorError else {
            Issue.record("expected serviceNotFound inside, got \(String(describing: error))")
            return
        }
        #expect(same(missing, FirstService.self))
    }

    @Test func serviceAskingForItselfIsACycleNotADeadlock() throws {
        let locator = ServiceLocator()
        locator.addLazyService(key: Keys.lazy) { [unowned locator] in
            _ = try locator.tryService(key: Keys.lazy)
            return LazyService()
        }
        let result = try withTimeLimit { Result { try locator.tryService(key: Keys.lazy) } }
        let error = #expect(throws: ServiceObtainError.self) { try result.get() }
        #expect(error?.isDependencyCycle == true)
    }

    @Test func anyServiceChecksTypeAndParams() throws {
        let locator = ServiceLocator()
        let first = FirstService()
        locator.addService(key: Keys.first, service: first)
        locator.addService(key: Keys.params, factory: ParamsServiceFactory())
        #expect(try locator.anyService(key: Keys.first, params: nil) as? FirstService === first)
        #expect((try locator.anyService(key: Keys.params, params: "any") as? ParamsService)?.text == "any")
        #expect((try locator.anyService(key: Keys.params, params: nil) as? ParamsService)?.text == "default")
        #expect(throws: ServiceLocatorError.self) { try locator.anyService(key: Keys.params, params: 5) }
        #expect(throws: ServiceLocatorError.self) { try locator.anyService(key: Keys.first, params: "x") }
        #expect(throws: ServiceLocatorError.self) { try locator.anyService(key: Keys.lazy, params: nil) }
        #expect(throws: ServiceLocatorError.self) {
            try locator.anyService(key: NamedKey<LazyService>(storeKey: Keys.first.storeKey), params: nil)
        }
        #expect(throws: ServiceLocatorError.self) {
            try locator.anyService(key: SlotKey<LazyService>(slotOf: FirstService.self), params: nil)
        }
    }
}

/// A params key whose slot is its service type, like the easy keys, with any params type.
struct SlotParamsKey<Service, Params>: ServiceLocatorParamsKey {
    typealias ServiceType = Service
    typealias ParamsType = Params
    var storeKey: String { "slot" }
    var keyID: ServiceLocatorKeyID { ServiceLocatorKeyID(serviceType: Service.self) }
}

/// A key of `Service` that names the slot of another type.
struct SlotKey<Service>: ServiceLocatorKey {
    typealias ServiceType = Service
    let slot: ServiceLocatorKeyID
    init(slotOf type: Any.Type) { slot = ServiceLocatorKeyID(serviceType: type) }
    var storeKey: String { slot.description }
    var keyID: ServiceLocatorKeyID { slot }
}
