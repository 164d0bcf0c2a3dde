import Testing
import ServiceLocatorKit

// The examples of docs/locators.md (ServiceLocatorKit part), verbatim.

// MARK: - Quick start

final class Database {}

final class Settings {
    let name: String
    init(name: String) { self.name = name }
}

struct DatabaseFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> Database { Database() }
}

/// A key of its own: several `Settings` live side by side under different names.
struct SettingsKey: ServiceLocatorKey {
    typealias ServiceType = Settings
    let storeKey: String
    init(name: String) { storeKey = "settings." + name }
}

enum AppKeys {
    static let database = DatabaseFactory.defaultKey
    static let settings = ServiceLocatorEasyKey<Settings>()
    static let testSettings = SettingsKey(name: "test")
}

func makeAppLocator() -> ServiceLocator {
    let locator = ServiceLocator()
    locator.addService(key: AppKeys.database, factory: DatabaseFactory())
    locator.addService(key: AppKeys.settings, service: Settings(name: "main"))
    locator.addService(key: AppKeys.testSettings, service: Settings(name: "test"))
    locator.setReadOnly()
    return locator
}

func quickStart() throws -> (Database, Settings?) {
    let locator = makeAppLocator()
    let database = try locator.tryService(key: AppKeys.database)    // throws why it is missing
    let settings = locator.getService(key: AppKeys.testSettings)     // Settings?, nil when missing
    return (database, settings)
}

// MARK: - Params

final class Greeter {
    let greeting: String
    init(greeting: String) { self.greeting = greeting }
}

struct GreeterFactory: ServiceParamsFactory {
    // Optional params: the service can also be got without params.
    func makeService(params: String?) throws -> Greeter {
        Greeter(greeting: "Hello, " + (params ?? "world"))
    }
}

enum GreeterKeys {
    static let greeter = GreeterFactory.defaultKey      // ServiceLocatorParamsEasyKey<Greeter, String?>
}

func greetings() throws -> [String] {
    let locator = ServiceLocator()
    locator.addService(key: GreeterKeys.greeter, factory: GreeterFactory())
    let named = try locator.tryService(key: GreeterKeys.greeter, params: "Anna")
    let plain = try locator.tryService(key: GreeterKeys.greeter)
    return [named.greeting, plain.greeting]
}

// MARK: - Errors

func describeFailure() -> String {
    let locator = ServiceLocator()
    do {
        _ = try locator.tryService(key: AppKeys.database)
        return "found"
    } catch let error as ServiceLocatorError {
        // serviceNotFound, wrongParams, ...: a locator problem
        return error.description
    } catch let error as ServiceObtainError {
        // the factory failed: the provider's error, unchanged
        return error.fatalMessage
    } catch {
        return "\(error)"
    }
}

// MARK: - Read-only and refusals

final class LocatorRefusals: ServiceLocatorLogger, @unchecked Sendable {
    func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError) {
        print("refused:", error)
    }
}

func refusedChange() -> ServiceLocatorError? {
    let locator = ServiceLocator()
    locator.setReadOnly(denyClone: false, assertionFailure: false)
    let result = locator.addService(key: AppKeys.database, factory: DatabaseFactory())
    if case .failure(let error) = result {
        return error    // .readOnly(locator: ServiceLocator.self, change: "add service ...")
    }
    return nil
}

// MARK: - Parents

func featureLocator(app: ServiceLocator) -> ServiceLocator {
    let feature = ServiceLocator(parent: app)
    feature.addService(key: AppKeys.settings, service: Settings(name: "feature"))
    return feature      // its own Settings, the app's Database
}

// MARK: - Shared instance

final class AppServiceLocator: ServiceLocator, @unchecked Sendable {
    static let sharedHolder = SharedServiceLocator<AppServiceLocator>()
    static var shared: AppServiceLocator? { sharedHolder.locator }
}

@Suite("docs/locators.md examples: ServiceLocator")
struct LocatorsGuideExamples {
    @Test func quickStartWorks() throws {
        let (database, settings) = try quickStart()
        #expect(settings?.name == "test")
        #expect(type(of: database) == Database.self)
    }

    @Test func greetingsWork() throws {
        #expect(try greetings() == ["Hello, Anna", "Hello, world"])
    }

    @Test func failureIsDescribed() {
        #expect(describeFailure().contains("Database"))
    }

    @Test func refusalIsReturned() {
        guard case .readOnly? = refusedChange() else {
            Issue.record("expected readOnly")
            return
        }
        #expect(LocatorRefusals().queue == nil)
    }

    @Test func parentAnswersMisses() throws {
        let feature = featureLocator(app: makeAppLocator())
        #expect(try feature.tryService(key: AppKeys.settings).name == "feature")
        #expect(feature.getService(key: AppKeys.database) != nil)
    }

    @Test func sharedInstance() throws {
        let holder = SharedServiceLocator<AppServiceLocator>()
        let locator = AppServiceLocator()
        holder.setup(locator, readOnlySharedAfter: false)
        #expect(holder.locator === locator)
        #expect(AppServiceLocator.shared == nil)
    }
}
