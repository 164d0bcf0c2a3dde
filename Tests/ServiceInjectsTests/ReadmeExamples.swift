// The examples of docs/injects.md, compiled and run as tests. Each example lives in its own
// namespace so that each can name its container `Services` as the guide does.
import Foundation
import Testing
import ServiceInjects

// MARK: - Making and registering a container

enum ContainerExample {
    final class UserService {
        private(set) var loggedOut = false
        func logout() { loggedOut = true }
    }

    final class NoteFoldersManager {
        private(set) var refreshCount = 0
        func refresh() { refreshCount += 1 }
    }

    struct NoteRecordsManagerParams { let folder: String }
    final class NoteRecordsManager {
        let folder: String
        init(params: NoteRecordsManagerParams) { folder = params.folder }
    }

    struct Services {
        struct Folders {
            let manager: ServiceProvider<NoteFoldersManager>
        }

        struct Notes {
            let manager: ServiceParamsProvider<NoteRecordsManager, NoteRecordsManagerParams>
        }

        let userService: ServiceProvider<UserService>

        let folders: Folders
        let notes: Notes
    }

    enum ServicesFactory {
        static func makeDefault() -> Services {
            Services(
                userService: ServiceProvider(mode: .lazy) { UserService() },
                folders: .init(manager: ServiceProvider(mode: .lazy) { NoteFoldersManager() }),
                notes: .init(manager: ServiceParamsProvider { NoteRecordsManager(params: $0) })
            )
        }
    }

    /// At application start:
    static func applicationDidFinishLaunching() {
        let services = ServicesFactory.makeDefault()
        ServiceInjectResolver.register(services)
    }

    final class SimpleViewController {
        @ServiceInject(\Services.userService)
        var userService

        @ServiceInject(\Services.folders.manager)
        var foldersManager
    }

    // MARK: Order of injection and lazy injection

    final class UserPresenter {
        @ServiceInject(\Services.userService, lazyInject: true)
        var userService

        @ServiceInject(\Services.folders.manager)
        var foldersManager

        func logout() {
            userService.logout()
            foldersManager.refresh()
        }
    }

    static func testFirst() -> UserPresenter {
        // ServiceInjectResolver.contains(Services.self) == false

        let presenter = UserPresenter()
        // userService not injected: no container
        // foldersManager not injected: no container

        let services = ServicesFactory.makeDefault()
        ServiceInjectResolver.register(services)
        // userService not injected: lazyInject == true
        // foldersManager injected

        presenter.logout()
        // userService injected at its first read
        return presenter
    }

    static func testSecond() -> UserPresenter {
        let services = ServicesFactory.makeDefault()
        ServiceInjectResolver.register(services)

        let presenter = UserPresenter()
        // userService not injected: lazyInject == true
        // foldersManager injected

        presenter.logout()
        // userService injected at its first read
        return presenter
    }
}

// MARK: - Injecting a service with params

enum ParamsExample {
    struct FirstServiceParams { let value: String }
    final class FirstService {
        let value: String
        init(params: FirstServiceParams) { value = params.value }
    }

    struct SecondServiceParams { let value: String }
    final class SecondService {
        let value: String
        init(params: SecondServiceParams) { value = params.value }
    }

    struct Services {
        let firstService: ServiceParamsProvider<FirstService, FirstServiceParams>
        let secondService: ServiceParamsProvider<SecondService, SecondServiceParams>

        static func makeDefault() -> Services {
            Services(
                firstService: ServiceParamsProvider { FirstService(params: $0) },
                secondService: ServiceParamsProvider { SecondService(params: $0) }
            )
        }
    }

    struct Dependencies {
        @ServiceParamsInject(\Services.firstService, params: .init(value: "Default")) var firstService
        @ServiceParamsInject(\Services.secondService, lazyInject: true) var secondService

        init(secondValue: String) {
            $secondService.setParameters(.init(value: secondValue))
        }
    }
}

// MARK: - Injecting a provider

enum ProviderExample {
    final class FirstService {}
    final class SecondService {}

    struct Services {
        let firstService: ServiceProvider<FirstService>
        let secondService: ServiceProvider<SecondService>
    }

    struct Dependencies {
        @ServiceProviderInject(\Services.firstService) var firstServiceProvider
        @ServiceProviderInject(\Services.secondService) var secondServiceProvider
    }

    static func use() -> (FirstService, SecondService?) {
        let dependencies = Dependencies()
        let firstService = dependencies.firstServiceProvider.getServiceOrFatal()
        let secondService = dependencies.secondServiceProvider.getServiceAsOptional()
        return (firstService, secondService)
    }
}

// MARK: - Injecting an entity

enum EntityExample {
    struct UIConfig { let tint: String }
    struct CommonSettings { let uiConfig: UIConfig }
    final class AppSettings {
        let common = CommonSettings(uiConfig: UIConfig(tint: "blue"))
    }

    protocol SimplePresenter: AnyObject {
        var title: String { get }
    }

    final class SimplePresenterImpl: SimplePresenter {
        let title = "Simple"
    }

    final class SimpleViewController {
        @EntityInject(SimplePresenter.self)
        var presenter

        @EntityInject(\AppSettings.common.uiConfig)
        var uiConfig

        /// Made by a storyboard: `prepareForMake()` may run before or after the controller is made.
        static func prepareForMake() {
            let presenter = SimplePresenterImpl()
            EntityInjectResolver.registerForFirstInject(presenter)
        }
    }
}

extension InjectsTests {
    @Suite struct ReadmeExampleTests {
        init() { resetRegistries() }

        @Test func containerIsInjectedByNestedKeyPaths() {
            ContainerExample.applicationDidFinishLaunching()
            let controller = ContainerExample.SimpleViewController()
            controller.userService.logout()
            #expect(controller.userService.loggedOut)
            #expect(controller.foldersManager.refreshCount == 0)
            #expect(controller.$foldersManager.isReady)
        }

        @Test func testFirstInjectsAfterRegistration() {
            let presenter = ContainerExample.testFirst()
            #expect(presenter.$userService.isReady)
            #expect(presenter.userService.loggedOut)
            #expect(presenter.foldersManager.refreshCount == 1)
        }

        @Test func testFirstStepByStep() {
            #expect(!ServiceInjectResolver.contains(ContainerExample.Services.self))
            let presenter = ContainerExample.UserPresenter()
            #expect(!presenter.$userService.isReady)
            #expect(!presenter.$foldersManager.isReady)

            ServiceInjectResolver.register(ContainerExample.ServicesFactory.makeDefault())
            #expect(!presenter.$userService.isReady)
            #expect(presenter.$foldersManager.isReady)

            presenter.logout()
            #expect(presenter.$userService.isReady)
        }

        @Test func testSecondInjectsAtCreation() {
            let presenter = ContainerExample.testSecond()
            #expect(presenter.$userService.isReady)
            #expect(presenter.userService.loggedOut)
            #expect(presenter.foldersManager.refreshCount == 1)

            let other = ContainerExample.UserPresenter()
            #expect(!other.$userService.isReady)
            #expect(other.$foldersManager.isReady)
            // Both presenters share the lazy singletons of the container.
            #expect(other.userService === presenter.userService)
        }

        @Test func paramsAreGivenInTheAttributeOrLater() {
            ServiceInjectResolver.register(ParamsExample.Services.makeDefault())
            let dependencies = ParamsExample.Dependencies(secondValue: "Custom")
            #expect(dependencies.$firstService.isReady)
            #expect(!dependencies.$secondService.isReady)

            let readyValue = Box<String?>(nil)
            dependencies.$secondService.setReadyHandler { service in
                readyValue.value = service.value
            }
            #expect(readyValue.value == nil)
            #expect(dependencies.firstService.value == "Default")
            #expect(dependencies.secondService.value == "Custom")
            #expect(readyValue.value == "Custom")
            #expect(dependencies.$secondService.isReady)
        }

        @Test func providersAreInjected() {
            ServiceInjectResolver.register(
                ProviderExample.Services(
                    firstService: ServiceProvider(ProviderExample.FirstService()),
                    secondService: ServiceProvider(mode: .many) { throw TestError.failed }
                )
            )
            let (first, second) = ProviderExample.use()
            #expect(first === ProviderExample.use().0)
            #expect(second == nil)
        }

        @Test @MainActor func entitiesAreInjected() async {
            let appSettings = EntityExample.AppSettings()
            var token: EntityInjectToken?
            token = EntityInjectResolver.register(appSettings)

            // The controller may be made before its presenter is registered...
            let early = EntityExample.SimpleViewController()
            #expect(!early.$presenter.isReady)
            EntityExample.SimpleViewController.prepareForMake()
            #expect(early.$presenter.isReady)
            // ...or after, in the same main-loop turn.
            let late = EntityExample.SimpleViewController()
            #expect(late.presenter === early.presenter)
            #expect(late.presenter.title == "Simple")
            #expect(late.uiConfig.tint == "blue")

            await nextMainLoopTurn()
            #expect(!EntityInjectResolver.contains(EntityExample.SimplePresenter.self))
            #expect(EntityInjectResolver.contains(EntityExample.AppSettings.self))
            token = nil
            #expect(token == nil)
            #expect(!EntityInjectResolver.contains(EntityExample.AppSettings.self))
        }
    }
}

/// A mutable box for values set by handlers in tests.
final class Box<Value>: @unchecked Sendable {
    // Only touched by the test's own thread, or after the threads writing it joined.
    var value: Value
    init(_ value: Value) { self.value = value }
}

// MARK: - Logging, the main loop and tests

enum OperationsExample {
    final class InjectLog: ServiceInjectLogger {
        func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type) {
            print("container registered twice:", type)
        }

        func entityInjectResolverDidAutoRemove(entityType: Any.Type, afterInjection: Bool) {
            if !afterInjection {
                print("entity never injected:", entityType)
            }
        }
    }

    static func setUpLogging() -> InjectLog {
        let log = InjectLog()
        log.register()
        return log
    }

    /// The end of a command-line tool's `main.swift` that uses `registerForFirstInject`: the
    /// main queue must be serviced for the automatic removals to run.
    static func runMainLoop() {
        RunLoop.main.run(until: Date().addingTimeInterval(0.01))  // or `RunLoop.main.run()` / `dispatchMain()`
    }
}

// A user's own test suite, as the guide shows it (nested here so it runs with the others in
// this target one at a time).
extension InjectsTests {
    @Suite(.serialized)
    struct ScreenTests {
        init() {
            ServiceInjectResolver.removeAll()
            EntityInjectResolver.removeAll()
        }

        @Test func presenterGetsTheTestServices() {
            ServiceInjectResolver.register(ContainerExample.ServicesFactory.makeDefault())
            let presenter = ContainerExample.UserPresenter()
            presenter.logout()
            #expect(presenter.userService.loggedOut)
        }
    }
}

extension InjectsTests {
    @Suite struct OperationsExampleTests {
        init() { resetRegistries() }

        @Test func loggerIsRegistered() {
            let log = OperationsExample.setUpLogging()
            defer { log.unregister() }
            #expect(LogRecorder.shared != nil)
        }

        @Test func readyContainerHandler() {
            typealias Services = ContainerExample.Services
            typealias SimpleViewController = ContainerExample.SimpleViewController
            // Show the first screen once the services are there, whichever comes first.
            var firstScreen: SimpleViewController?
            let token = ServiceInjectResolver.addReadyContainerHandler(Services.self) {
                firstScreen = SimpleViewController()
            }
            #expect(firstScreen == nil)
            ContainerExample.applicationDidFinishLaunching()
            #expect(firstScreen?.$userService.isReady == true)
            withExtendedLifetime(token) {}
        }
    }
}

// MARK: - The README quick start

enum QuickStartExample {
    final class Greeter: Sendable {
        func hello() -> String { "Hello" }
    }

    struct Services { let greeter: ServiceProvider<Greeter> }
    final class GreetingScreen { @ServiceInject(\Services.greeter) var greeter }

    static func run() -> String {
        ServiceInjectResolver.register(Services(greeter: ServiceProvider(Greeter())))
        return GreetingScreen().greeter.hello()
    }
}

extension InjectsTests {
    @Suite struct QuickStartTests {
        init() { resetRegistries() }

        @Test func quickStartGreets() {
            #expect(QuickStartExample.run() == "Hello")
        }
    }
}
