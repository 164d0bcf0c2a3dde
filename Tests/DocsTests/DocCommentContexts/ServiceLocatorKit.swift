// The names that the examples in the doc comments of ServiceLocatorKit (the ```swift blocks of
// the `///` comments in Sources/Locators/ServiceLocatorKit) use: DocCommentExamplesTests
// type-checks those examples after this file, in one file. Read by that test, compiled into no
// target.
import ServiceLocatorKit
import ServiceEasyLocatorKit  // the examples show both locators

final class FirstService {}
final class LazyService {}
final class ThirdService {}
final class Settings {}
struct SecondServiceParams { let number: Int }
final class SecondService { init(_ params: SecondServiceParams?) {} }
struct FirstServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .atOne
    func makeService() throws -> FirstService { FirstService() }
}
struct SecondServiceFactory: ServiceParamsFactory {
    func makeService(params: SecondServiceParams?) throws -> SecondService { SecondService(params) }
}
enum ServiceLocatorKeys {
    static let lazyService = ServiceLocatorEasyKey<LazyService>()
    static let firstService = ServiceLocatorEasyKey<FirstService>()
    static let secondService = ServiceLocatorParamsEasyKey<SecondService, SecondServiceParams?>()
}
enum AppLocator {
    static let shared = SharedServiceLocator<ServiceEasyLocator>()
}
// An app's locator, and a screen's whose parent it is.
let locator = ServiceLocator()
let app = ServiceLocator()
let screen = ServiceLocator(parent: app)
