// The examples of docs/objc-bridge.md, compiled and checked here so that they stay copy-paste
// ready. Keep the two in step.
import ServiceContainerKitObjC
import Testing

// MARK: - Guide: services and the Swift container

final class ProfileService: NSObject, Sendable {
    let userName: String

    init(userName: String) {
        self.userName = userName
    }
}

final class ImageLoader: NSObject, Sendable {
    let baseURL: String

    init(baseURL: String) {
        self.baseURL = baseURL
    }
}

struct ProfileServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> ProfileService {
        ProfileService(userName: "guest")
    }
}

struct ImageLoaderFactory: ServiceParamsFactory {
    func makeService(params: String) throws -> ImageLoader {
        ImageLoader(baseURL: params)
    }
}

struct AppServices {
    let profile = ProfileServiceFactory().serviceProvider()
    let imageLoader = ImageLoaderFactory().serviceProvider()
}

// MARK: - Guide: a container of wrappers for Objective-C style code

final class AppServicesObjC: NSObject, Sendable {
    let profile: ServiceProviderObjC
    let imageLoader: ServiceParamsProviderObjC

    init(_ services: AppServices) {
        profile = ServiceProviderObjC(services.profile)
        imageLoader = ServiceParamsProviderObjC(services.imageLoader)
    }
}

@Suite struct ObjCBridgeGuideTests {
    let services = AppServicesObjC(AppServices())

    @Test func gettingServices() throws {
        // MARK: Guide: getting services
        let profile = services.profile.getService() as? ProfileService      // [services.profile getService]
        let sure = services.profile.getServiceOrFatal() as! ProfileService  // [services.profile getServiceOrFatal]

        var error: NSError?
        let checked = services.profile.getServiceAndReturnError(&error)    // [services.profile getServiceAndReturnError:&error]
        if checked == nil, let error {
            print("No profile: \(error.localizedDescription)")
        }

        let loader = services.imageLoader.getServiceWithParams("https://img") as? ImageLoader
        // [services.imageLoader getServiceWithParams:@"https://img"]
        let sureLoader = services.imageLoader.getServiceOrFatalWithParams("https://img") as! ImageLoader
        // [services.imageLoader getServiceOrFatalWithParams:@"https://img"]
        let checkedLoader = services.imageLoader.getServiceWithParams("https://img", andReturnError: &error)
        // [services.imageLoader getServiceWithParams:@"https://img" andReturnError:&error]
        // MARK: end

        #expect(profile?.userName == "guest")
        #expect(sure === profile)
        #expect(checked as? ProfileService === profile)
        #expect(error == nil)
        #expect(loader?.baseURL == "https://img")
        #expect(sureLoader.baseURL == "https://img")
        #expect((checkedLoader as? ImageLoader)?.baseURL == "https://img")
    }

    @Test func handlingErrors() throws {
        // MARK: Guide: errors
        var error: NSError?
        let loader = services.imageLoader.getServiceWithParams(42, andReturnError: &error)
        if loader == nil, let error {
            switch ServiceObjCError.code(of: error) {
            case .wrongParams?:
                let cause = error.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError
                print("Wrong params:", cause?.error ?? error)
            case .obtainFailure?, .notNSObject?, .serviceNotFound?, nil:
                print(error.localizedDescription)
            }
        }
        // MARK: end

        let nsError = try #require(error)
        #expect(loader == nil)
        #expect(ServiceObjCError.code(of: nsError) == .wrongParams)
        #expect(nsError.localizedDescription.contains("ImageLoader"))
    }

    @Test func refusingNonNSObjects() throws {
        // MARK: Guide: services that are not NSObjects
        struct Settings {
            var darkMode = false
        }
        let settings = ServiceProviderObjC(ServiceProvider(Settings()))
        var error: NSError?
        let refused = settings.getServiceAndReturnError(&error)
        // refused == nil, ServiceObjCError.code(of: error!) == .notNSObject

        let name = ServiceProviderObjC(ServiceProvider("Ann"))
        let bridged = name.getService() as? NSString  // "Ann" as an NSString
        // MARK: end

        #expect(refused == nil)
        #expect(ServiceObjCError.code(of: try #require(error)) == .notNSObject)
        #expect(bridged == "Ann")
    }

    @Test func wayBackToSwift() throws {
        // MARK: Guide: the way back to Swift
        let provider: ServiceProvider<ProfileService>? = services.profile.provider()
        let loaderProvider = services.imageLoader.provider(of: ImageLoader.self, params: String.self)
        let wrongType = services.profile.provider(of: ImageLoader.self)  // nil
        // MARK: end

        #expect(try provider?.getService().userName == "guest")
        #expect(try loaderProvider?.getService(params: "x").baseURL == "x")
        #expect(wrongType == nil)
    }

    @Test func loggingRefusals() {
        let logger = GuideObjCLogger()
        logger.register()
        defer { logger.unregister() }
        struct Unbridged {}

        _ = ServiceProviderObjC(ServiceProvider(Unbridged())).getService()

        #expect(logger.refusedNames.contains(String(reflecting: Unbridged.self)))
    }
}

// MARK: Guide: locator keys
enum AppLocatorKeys {
    static let profile = ProfileServiceFactory.defaultKey
    static let imageLoader = ImageLoaderFactory.defaultKey
}

extension ServiceLocatorObjCKey {
    static let profile = ServiceLocatorObjCKey(AppLocatorKeys.profile)
    static let imageLoader = ServiceLocatorObjCKey(AppLocatorKeys.imageLoader)
}

func makeAppLocatorObjC() -> ServiceLocatorObjC {
    let locator = ServiceLocator()
    locator.addService(key: AppLocatorKeys.profile, factory: ProfileServiceFactory())
    locator.addService(key: AppLocatorKeys.imageLoader, factory: ImageLoaderFactory())
    locator.setReadOnly()
    return ServiceLocatorObjC(locator)
}
// MARK: end

// MARK: Guide: easy locator setup
protocol Analytics: AnyObject, Sendable {
    func track(_ event: String)
}

final class AnalyticsService: NSObject, Analytics {
    func track(_ event: String) {}
}

func makeAppEasyLocatorObjC() -> ServiceEasyLocatorObjC {
    let locator = ServiceEasyLocator()
    locator.addService(factory: ProfileServiceFactory())
    locator.addService(factory: ImageLoaderFactory())
    locator.addService(AnalyticsService() as any Analytics)
    locator.setReadOnly()
    return ServiceEasyLocatorObjC(locator)
}
// MARK: end

// MARK: Guide: injected container
// Its properties are only set while it is made; each injects itself safely from any thread.
final class ServicesObjC: NSObject, @unchecked Sendable {
    static let shared = ServicesObjC()

    @ServiceProviderInject(objc: \AppServices.profile)
    var profile

    @ServiceProviderInject(objc: \AppServices.imageLoader)
    var imageLoader
}
// At start-up: ServiceInjectResolver.register(AppServices())
// MARK: end

@Suite struct ObjCBridgeLocatorGuideTests {
    @Test func locatorWithKeys() throws {
        // MARK: Guide: locator gets
        let locator = makeAppLocatorObjC()
        let profile = locator.getServiceWithKey(.profile) as? ProfileService
        // [locator getServiceWithKey:ServiceLocatorKey.profile]
        var error: NSError?
        let checked = locator.getServiceWithKey(.profile, error: &error)
        // [locator getServiceWithKey:ServiceLocatorKey.profile error:&error]
        let loader = locator.getServiceWithKey(.imageLoader, params: "https://img") as? ImageLoader
        // [locator getServiceWithKey:ServiceLocatorKey.imageLoader params:@"https://img"]
        let checkedLoader = locator.getServiceWithKey(.imageLoader, params: "https://img", error: &error)
        // [locator getServiceWithKey:ServiceLocatorKey.imageLoader params:@"https://img" error:&error]
        // MARK: end

        #expect(profile?.userName == "guest")
        #expect(checked as? ProfileService === profile)
        #expect(loader?.baseURL == "https://img")
        #expect((checkedLoader as? ImageLoader)?.baseURL == "https://img")
        #expect(error == nil)
    }

    @Test func easyLocator() throws {
        // MARK: Guide: easy locator gets
        let locator = makeAppEasyLocatorObjC()
        let profile = locator.getServiceWithClass(ProfileService.self) as? ProfileService
        // [locator getServiceWithClass:ProfileService.class]
        var error: NSError?
        let checked = locator.getServiceWithClass(ProfileService.self, error: &error)
        // [locator getServiceWithClass:ProfileService.class error:&error]
        let analytics = locator.getServiceWithProtocol((any Analytics).self) as? any Analytics
        // [locator getServiceWithProtocol:@protocol(Analytics)]
        let loader = locator.getServiceWithClass(ImageLoader.self, params: "https://img") as? ImageLoader
        // [locator getServiceWithClass:ImageLoader.class params:@"https://img"]
        // MARK: end

        #expect(profile?.userName == "guest")
        #expect(checked as? ProfileService === profile)
        #expect(analytics is AnalyticsService)
        #expect(loader?.baseURL == "https://img")
        #expect(error == nil)
    }

    @Test func injectedContainer() throws {
        // The registry is shared with suites that reset it: register until the shared
        // container is injected.
        for _ in 0..<5 where !(ServicesObjC.shared.$profile.isReady && ServicesObjC.shared.$imageLoader.isReady) {
            ServiceInjectResolver.register(AppServices(), failureIfContains: false)
        }
        defer { ServiceInjectResolver.remove(AppServices.self) }

        // MARK: Guide: injected container gets
        let profile = ServicesObjC.shared.profile.getService() as? ProfileService
        // [Services.shared.profile getService]
        let loader = ServicesObjC.shared.imageLoader.getServiceWithParams("https://img") as? ImageLoader
        // [Services.shared.imageLoader getServiceWithParams:@"https://img"]
        // MARK: end

        #expect(profile?.userName == "guest")
        #expect(loader?.baseURL == "https://img")
    }
}

// MARK: Guide: logging refusals
final class ObjCRefusalLogger: ProvidersLogger {
    func serviceProviderObjCNotSupport(type: Any.Type) {
        print("\(type) was asked for by Objective-C style code, but it is not an NSObject")
    }
}
// At start-up: ObjCRefusalLogger().register()
// MARK: end

/// The guide's logger, recording what it is told.
final class GuideObjCLogger: ProvidersLogger, @unchecked Sendable {
    // Guards `names`.
    private let lock = NSLock()
    private var names: [String] = []

    func serviceProviderObjCNotSupport(type: Any.Type) {
        lock.lock()
        names.append(String(reflecting: type))
        lock.unlock()
    }

    var refusedNames: [String] {
        lock.lock()
        defer { lock.unlock() }
        return names
    }
}
