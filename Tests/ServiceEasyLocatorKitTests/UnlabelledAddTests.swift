import LocatorTestSupport
import Testing
import ServiceEasyLocatorKit
import TestSupport

/// A factory that is not `Sendable`: it keeps a class instance that is not.
private struct UnsendableFactory: ServiceFactory {
    final class Settings {}
    let settings = Settings()
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> ManyService { ManyService() }
}

/// A params factory that is not `Sendable`.
private struct UnsendableParamsFactory: ServiceParamsFactory {
    let settings = UnsendableFactory.Settings()
    func makeService(params: Int) throws -> NumberService { NumberService(number: params) }
}

/// A factory of both kinds that is not `Sendable`.
private struct UnsendableBothKindsFactory: ServiceFactory, ServiceParamsFactory {
    let settings = UnsendableFactory.Settings()
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> NumberService { NumberService(number: 0) }
    func makeService(params: Int) throws -> NumberService { NumberService(number: params) }
}

/// A factory of both kinds, which no provider takes until the caller says which.
private struct BothKindsFactory: ServiceFactory, ServiceParamsFactory {
    let number: Int
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> NumberService { NumberService(number: number) }
    func makeService(params: Int) throws -> NumberService { NumberService(number: params) }
}

/// The adds written without their label. Each test is deprecated, as the adds are, so that
/// calling them does not warn.
@Suite("ServiceEasyLocator, adds without a label")
struct UnlabelledAddTests {
    private let locator = ServiceEasyLocator()

    @available(*, deprecated, message: "it calls the unlabelled add of a provider")
    @Test func aProviderIsAddedAsItsProvider() throws {
        let provider = ServiceProvider(mode: .lazy) { LazyService() }
        #expect(throws: Never.self) { try locator.addService(provider).get() }
        #expect(try locator.tryService(serviceType: LazyService.self) === provider.getService())
        #expect(locator.getService(serviceType: ServiceProvider<LazyService>.self) == nil)
    }

    @available(*, deprecated, message: "it calls the unlabelled add of a provider")
    @Test func aSafeProviderIsAddedAsItsProvider() throws {
        let provider = ServiceSafeProvider(mode: .lazy, safeThread: .lock) { LazyService() }
        #expect(throws: Never.self) { try locator.addService(provider).get() }
        #expect(try locator.tryService(serviceType: LazyService.self) === provider.getService())
    }

    @available(*, deprecated, message: "it calls the unlabelled add of a params provider")
    @Test func aParamsProviderIsAddedAsItsProvider() throws {
        let provider = ServiceParamsProvider<NumberService, Int> { NumberService(number: $0) }
        #expect(throws: Never.self) { try locator.addService(provider).get() }
        #expect(try locator.tryService(serviceType: NumberService.self, params: 7).number == 7)
    }

    @available(*, deprecated, message: "it calls the unlabelled add of a factory")
    @Test func aFactoryIsAddedAsItsProvider() throws {
        #expect(throws: Never.self) { try locator.addService(LazyServiceFactory()).get() }
        let first = try locator.tryService(serviceType: LazyService.self)
        #expect(try locator.tryService(serviceType: LazyService.self) === first)
        #expect(locator.getService(serviceType: LazyServiceFactory.self) == nil)
    }

    @available(*, deprecated, message: "it calls the unlabelled add of a params factory")
    @Test func aParamsFactoryIsAddedAsItsProvider() throws {
        #expect(throws: Never.self) { try locator.addService(NumberServiceFactory()).get() }
        #expect(try locator.tryService(serviceType: NumberService.self, params: 3).number == 3)
        #expect(locator.getService(serviceType: NumberServiceFactory.self) == nil)
    }

    /// The unlabelled add of a factory that is not `Sendable` stores it as a value, as
    /// `addService(_:)` stores any value, and warns: no provider takes it, as the labelled add
    /// does not.
    @available(*, deprecated, message: "it calls the unlabelled add of a factory that is not Sendable")
    @Test func aFactoryThatIsNotSendableIsStoredItself() throws {
        let factory = UnsendableFactory()
        #expect(throws: Never.self) { try locator.addService(factory).get() }
        #expect(locator.getService(serviceType: UnsendableFactory.self)?.settings === factory.settings)
        #expect(locator.getService(serviceType: ManyService.self) == nil)

        let paramsFactory = UnsendableParamsFactory()
        #expect(throws: Never.self) { try locator.addService(paramsFactory).get() }
        #expect(locator.getService(serviceType: UnsendableParamsFactory.self)?.settings === paramsFactory.settings)
        #expect(locator.getService(serviceType: NumberService.self, params: 1) == nil)

        let bothKinds = UnsendableBothKindsFactory()
        #expect(throws: Never.self) { try locator.addService(bothKinds).get() }
        #expect(locator.getService(serviceType: UnsendableBothKindsFactory.self)?.settings === bothKinds.settings)
    }

    @Test("The safe provider the warning of an unlabelled add of a factory that is not Sendable names takes it")
    func aFactoryThatIsNotSendableIsAddedInASafeProvider() throws {
        #expect(throws: Never.self) { try locator.addService(provider: UnsendableFactory().serviceSafeProvider()).get() }
        #expect(try locator.tryService(serviceType: ManyService.self) !== locator.tryService(serviceType: ManyService.self))
        let paramsProvider = UnsendableParamsFactory().serviceSafeProvider()
        #expect(throws: Never.self) { try locator.addService(provider: paramsProvider).get() }
        #expect(try locator.tryService(serviceType: NumberService.self, params: 5).number == 5)
    }

    @available(*, deprecated, message: "it calls the unlabelled add of a factory of both kinds")
    @Test func aFactoryOfBothKindsIsStoredItself() throws {
        #expect(throws: Never.self) { try locator.addService(BothKindsFactory(number: 4)).get() }
        #expect(locator.getService(serviceType: BothKindsFactory.self)?.number == 4)
        #expect(locator.getService(serviceType: NumberService.self) == nil)
    }
}
