// The names that the examples in the doc comments of ServiceContainerKitObjC (the ```swift
// blocks of the `///` comments in Sources/ObjCBridge) use: DocCommentExamplesTests type-checks
// those examples after this file, in one file. Read by that test, compiled into no target.
import Foundation
import ServiceContainerKitObjC

final class FirstService {}
final class SecondService {}
protocol ThirdServicing: AnyObject {}
final class Settings {}
final class ProfileService: NSObject {}
final class ImageLoader: NSObject {}
final class ThumbnailLoader: NSObject {}
final class DebugPanel: NSObject {}
final class Greeter: NSObject {
    init(name: String) {}
}
protocol Analytics: AnyObject, Sendable {}
protocol Greeting: AnyObject, Sendable {}
protocol Translating: AnyObject, Sendable {}

struct FirstServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> FirstService { FirstService() }
}
struct SecondServiceFactory: ServiceParamsFactory {
    func makeService(params: String) throws -> SecondService { SecondService() }
}
struct GreeterFactory: ServiceParamsFactory {
    func makeService(params: String) throws -> Greeter { Greeter(name: params) }
}

struct Services: Sendable {
    let firstService = FirstServiceFactory().serviceProvider()
    let profile = ServiceProvider(mode: .lazy) { ProfileService() }
    let analytics: ServiceProvider<any Analytics>? = nil
    let debugPanel: ServiceProvider<DebugPanel>? = nil
    let greeter: ServiceParamsProvider<any Greeting, String>
    let imageLoader = ServiceParamsProvider<ImageLoader, String> { _ in ImageLoader() }
    let translator: ServiceParamsProvider<any Translating, String>? = nil
    let thumbnailLoader: ServiceParamsProvider<ThumbnailLoader, String>? = nil
}

// `firstService` is declared by an example of ServiceLocatorObjCKey.
extension ServiceLocatorObjCKey {
    static let secondService = ServiceLocatorObjCKey(SecondServiceFactory.defaultKey)
}

func makeServices() -> Services { fatalError("only type-checked") }
let services = makeServices()
let locator = ServiceLocator()
let easyLocator = ServiceEasyLocator()
let easyObjC = ServiceEasyLocatorObjC(easyLocator)
let locatorObjC = ServiceLocatorObjC(locator)
let paramsObjC = ServiceParamsProviderObjC(services.imageLoader)
let providerObjC = ServiceProviderObjC(services.profile)
// An Objective-C style provider, and an error one of the wrappers gave.
let provider = providerObjC
let error = NSError(domain: ServiceObjCError.domain, code: 0)
