// The scenarios the 3.0 README describes (and docs/injects.md shows): the order of making objects
// and registering the container does not matter, and an entity registered for its first
// injection reaches every screen made in the same main-loop turn.
import Testing
import ServiceInjects

private final class UserService {
    private(set) var loggedOut = false
    func logout() { loggedOut = true }
}

private final class NoteFoldersManager {
    private(set) var refreshCount = 0
    func refresh() { refreshCount += 1 }
}

private struct Services {
    struct Folders {
        let manager: ServiceProvider<NoteFoldersManager>
    }

    let userService: ServiceProvider<UserService>
    let folders: Folders

    static func makeDefault() -> Services {
        Services(
            userService: ServiceProvider(mode: .lazy) { UserService() },
            folders: .init(manager: ServiceProvider(mode: .lazy) { NoteFoldersManager() })
        )
    }
}

private final class UserPresenter {
    @ServiceInject(\Services.userService, lazyInject: true)
    var userService

    @ServiceInject(\Services.folders.manager)
    var foldersManager

    func logout() {
        userService.logout()
        foldersManager.refresh()
    }
}

private protocol SimplePresenter: AnyObject {
    var title: String { get }
}

private final class SimplePresenterImpl: SimplePresenter {
    let title = "Simple"
}

private struct UIConfig { let tint = "blue" }
private struct CommonSettings { let uiConfig = UIConfig() }
private final class AppSettings { let common = CommonSettings() }

private final class SimpleViewController {
    @EntityInject(SimplePresenter.self)
    var presenter

    @EntityInject(\AppSettings.common.uiConfig)
    var uiConfig

    static func prepareForMake() {
        EntityInjectResolver.registerForFirstInject(SimplePresenterImpl())
    }
}

extension InjectsTests {
    @Suite struct ReadmeScenarioTests {
        init() { resetRegistries() }

        @Test("testFirst: a presenter made before the container is injected at registration, lazily at first read")
        func presenterBeforeContainer() {
            #expect(!ServiceInjectResolver.contains(Services.self))
            let presenter = UserPresenter()
            #expect(!presenter.$userService.isReady)
            #expect(!presenter.$foldersManager.isReady)

            ServiceInjectResolver.register(Services.makeDefault())
            #expect(!presenter.$userService.isReady)
            #expect(presenter.$foldersManager.isReady)

            presenter.logout()
            #expect(presenter.$userService.isReady)
            #expect(presenter.userService.loggedOut)
            #expect(presenter.foldersManager.refreshCount == 1)
        }

        @Test("testSecond: a presenter made after registration is injected at once, lazily at first read")
        func presenterAfterContainer() {
            ServiceInjectResolver.register(Services.makeDefault())
            let presenter = UserPresenter()
            #expect(!presenter.$userService.isReady)
            #expect(presenter.$foldersManager.isReady)
            presenter.logout()
            #expect(presenter.userService.loggedOut)

            // Presenters share the lazy singletons of the container.
            let other = UserPresenter()
            #expect(other.userService === presenter.userService)
            #expect(other.foldersManager === presenter.foldersManager)
        }

        @Test("An entity for the first inject reaches every screen of the turn, then goes")
        @MainActor
        func storyboardEntity() async {
            var token: EntityInjectToken? = EntityInjectResolver.register(AppSettings())

            // The screen may be made before its presenter is registered...
            let early = SimpleViewController()
            #expect(!early.$presenter.isReady)
            SimpleViewController.prepareForMake()
            #expect(early.$presenter.isReady)
            // ...or after, in the same main-loop turn.
            let late = SimpleViewController()
            #expect(late.presenter === early.presenter)
            #expect(late.presenter.title == "Simple")
            #expect(late.uiConfig.tint == "blue")

            await nextMainLoopTurn()
            #expect(!EntityInjectResolver.contains(SimplePresenter.self))
            #expect(EntityInjectResolver.contains(AppSettings.self))
            withExtendedLifetime(token) {}
            token = nil
            #expect(!EntityInjectResolver.contains(AppSettings.self))
        }
    }
}
