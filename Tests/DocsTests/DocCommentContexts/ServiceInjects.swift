// The names that the examples in the doc comments of ServiceInjects (the ```swift blocks of the
// `///` comments in Sources/Injects) use: DocCommentExamplesTests type-checks those examples
// after this file, in one file. Read by that test, compiled into no target.
import Foundation
import Testing
import ServiceInjects

final class UserService: Sendable {
    let isMock: Bool
    init(isMock: Bool = false) { self.isMock = isMock }
    func startObserving() {}
}
final class FoldersManager: Sendable {}
final class Settings: Sendable {}
protocol Analytics: Sendable {}
final class Log: Sendable {}
final class FirstService: Sendable { struct Params: Sendable { let value: String } }
final class SecondService: Sendable { struct Params: Sendable { let value: String }; func prepare() {} }
final class Database: Sendable {}
final class Report: Sendable {}
@MainActor final class Theme {}
final class ThirdService: Sendable { struct Params: Sendable { let value: String } }

struct FolderServices: Sendable { let manager = ServiceProvider(FoldersManager()) }
struct Services: Sendable {
    let userService = ServiceProvider(UserService())
    let settings = ServiceProvider(Settings())
    let folders = FolderServices()
    let log = ServiceParamsProvider<Log, String> { _ in Log() }
    let firstService = ServiceParamsProvider<FirstService, FirstService.Params> { _ in FirstService() }
    let secondService = ServiceParamsProvider<SecondService, SecondService.Params> { _ in SecondService() }
    let thirdService: ServiceParamsProvider<ThirdService, ThirdService.Params>? = nil
    let analytics: ServiceProvider<Analytics>? = nil
    let database = ServiceAsyncProvider(Database())
    let reports = ServiceAsyncParamsProvider<Report, String> { _ in Report() }
    let theme = ServiceMainActorProvider<Theme>(mode: .lazy) { Theme() }
    static func mock() -> Services { Services() }
}
enum ServicesFactory { static func makeDefault() -> Services { Services() } }
struct SettingsServices {}

protocol SimplePresenter: AnyObject {}
final class SimplePresenterImpl: SimplePresenter {}
struct UIConfig {}
struct AppSettings {
    struct Common { let uiConfig = UIConfig() }
    let common = Common()
}

final class UserPresenter {
    @ServiceInject(\Services.userService) var userService
    func load() async {}
}

let appSettings = AppSettings()
@MainActor let presenter = UserPresenter()
@MainActor var tokens: [EntityInjectToken] = []
func showFirstScreen() {}
func startServer() {}
func applyTheme() {}
