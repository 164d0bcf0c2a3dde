// Code written as users of the 2.0.1 easy locator wrote it: the unlabeled forms live on,
// deprecated, so the calls below warn (this file opts in to the deprecated API on purpose).
import LocatorTestSupport
import Testing
import ServiceEasyLocatorKit

@Suite("2.0.1 spellings of ServiceEasyLocator")
struct OriginalSpellingTests {
    @Test("getService(T.self), tryService(T.self) and removeService(T.self) still work")
    @available(*, deprecated, message: "uses the 2.0.1 unlabeled spellings on purpose")
    func unlabeledForms() throws {
        let serviceLocator = ServiceEasyLocator()
        let shared = SharedService()
        serviceLocator.addService(shared)
        serviceLocator.addService(factory: ParamsServiceFactory())

        #expect(serviceLocator.getService(SharedService.self) === shared)
        #expect(try serviceLocator.tryService(SharedService.self) === shared)
        #expect(serviceLocator.getService(ParamsService.self, params: "test")?.text == "test")
        #expect(try serviceLocator.tryService(ParamsService.self, params: "Manual value").text == "Manual value")

        serviceLocator.removeService(SharedService.self)
        #expect(serviceLocator.getService(SharedService.self) == nil)
        #expect(throws: ServiceLocatorError.self) { try serviceLocator.tryService(SharedService.self) }
    }

    @Test("setReadOnly(denyClone: true) after setReadOnly(denyClone: false) denies clones")
    func setReadOnlyTightensDenyClone() {
        let serviceLocator = ServiceEasyLocator()
        serviceLocator.addService(SharedService())
        serviceLocator.setReadOnly(denyClone: false, assertionFailure: false)
        serviceLocator.setReadOnly(denyClone: true)
        #expect(serviceLocator.denyClone)
        #expect(serviceLocator.clone().getService(serviceType: SharedService.self) == nil)
    }
}
