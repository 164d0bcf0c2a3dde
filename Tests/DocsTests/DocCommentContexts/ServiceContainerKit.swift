// The names that the examples in the doc comments of ServiceContainerKit (the ```swift blocks of
// the `///` comments in Sources/Core) use: DocCommentExamplesTests type-checks those examples
// after this file, in one file. Read by that test, compiled into no target.
import Foundation
import ServiceContainerKit
import ServiceInjects  // a library built on ServiceContainerKit, whose logger LogRecorder's example names

// Services and their factories.
enum SettingsError: Error { case missingFile }
final class Settings: Sendable {
    init() {}
    static func load() throws -> Settings { Settings() }
    static func fetch() async throws -> Settings { Settings() }
}
final class AppSettings: Sendable {}
final class FirstService: Sendable {}
struct FirstServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> FirstService { FirstService() }
}
final class ReportBuilder: Sendable {}
final class SecondService: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}
struct SecondServiceParams: Sendable { let number: Int }
struct SecondServiceFactory: ServiceParamsFactory {
    func makeService(params: SecondServiceParams?) throws -> SecondService { SecondService(number: params?.number ?? -1) }
}
final class LazyService: Sendable {}
struct LazyServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> LazyService { LazyService() }
}
protocol SingletonService: Sendable {}
final class SingletonServiceImpl: SingletonService {}
struct SettingsFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> Settings { Settings() }
}
final class Greeter: Sendable {
    let name: String
    init(name: String) { self.name = name }
}
final class Label: Sendable {
    init(number: Int) {}
}
typealias UserID = Int
final class Profile: Sendable {
    init(user: UserID?) {}
}
final class UserService: Sendable {}
struct UserServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> UserService { UserService() }
}
protocol Shape: Sendable {}
final class Circle: Shape {}
struct CircleFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> Circle { Circle() }
}
final class Report: Sendable {
    static func load(title: String?) async throws -> Report { Report() }
}
struct ReportFactory: ServiceAsyncParamsFactory {
    func makeService(params: String) async throws -> Report { try await Report.load(title: params) }
}
final class Database: Sendable {
    static func open(path: String) async throws -> Database { Database() }
}
struct DatabaseFactory: ServiceAsyncFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() async throws -> Database { try await Database.open(path: "app.sqlite") }
}
@MainActor final class ProfileViewModel { var title = "Profile" }
struct ProfileViewModelFactory: ServiceMainActorFactory {
    let mode: ServiceFactoryMode = .weak
    func makeService() throws -> ProfileViewModel { ProfileViewModel() }
}
@MainActor final class SettingsViewModel {}
/// Not `Sendable`.
final class Counter {
    private var last = 0
    func next() -> Int { last += 1; return last }
}
func nextID() -> Int { 1 }

// Sessions.
struct User: ServiceSession {
    let id: String
    var key: AnyHashable { id }
}
struct UserSession: ServiceSession {
    let userId: Int
    var key: AnyHashable { userId }
}
final class Cart: Sendable {
    let owner: String
    init(owner: String) { self.owner = owner }
}
struct CartFactory: ServiceSessionFactory, Sendable {
    let mode = ServiceSessionFactoryMode.lazy
    func makeService(session: User) throws -> Cart { Cart(owner: session.id) }
}
final class UserData: Sendable {}
struct UserDataFactory: ServiceSessionFactory, Sendable {
    let mode = ServiceSessionFactoryMode.lazy
    func makeService(session: UserSession) throws -> UserData { UserData() }
}
final class Cache: Sendable {}
struct CacheFactory: ServiceSessionFactory, Sendable {
    let mode = ServiceSessionFactoryMode.lazy
    func makeService(session: ServiceVoidSession) throws -> Cache { Cache() }
}

// Scopes: a server that handles requests, each in a scope of its own. `RequestLog` is declared
// by the example of `ClosableService`.
struct Request: Sendable { let id: String }
struct Response: Sendable {}
func respond(to request: Request, log: RequestLog) async throws -> Response { Response() }
struct RequestHandler {
    let log: RequestLog
    func respond(to request: Request) async throws -> Response { Response() }
}
actor LogStore {
    static let shared = LogStore()
    func append(_ lines: [String]) throws {}
}
final class AnswerService: Sendable {
    func answer() async -> Int { 42 }
}

// A container and what the diagnostics give of it.
struct Services {
    let settings = ServiceProvider<Settings>(mode: .lazy) { Settings() }
    static func makeDefault() -> Services { Services() }
}
func handleRequests(_ services: Services) {}
final class FailurePrinter: ProvidersLogger {
    func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) { print(type, error) }
}
final class MyLogger: Logger {}

let mediator = ServiceSessionMediator(session: User(id: "ann"))
let cartProvider = CartFactory().serviceProvider(mediator: mediator)
let services = Services.makeDefault()
let recorder = ServiceGraphRecorder()
let report = ServiceValidator.validate(building: Services.makeDefault)
let graph = report.graph
let settingsProvider = ServiceProvider<Settings>(mode: .lazy) { Settings() }
let secondServiceProvider = ServiceProvider<SecondService>(mode: .lazy) { SecondService(number: 2) }
let reportBuilderProvider = ServiceProvider<ReportBuilder>(mode: .scoped) { ReportBuilder() }
let provider = SecondServiceFactory().serviceProvider()
let safeProvider = ServiceParamsSafeProvider(factory: SecondServiceFactory(), safeThread: .lock)
let reports = ServiceAsyncParamsProvider<Report, String?> { title in try await Report.load(title: title) }
let profiles = ServiceParamsProvider<Profile, UserID> { id in Profile(user: id) }
let userID: UserID = 7
let database = ServiceAsyncProvider<Database>(mode: .lazy) { try await Database.open(path: "app.sqlite") }
let requestLog = ServiceProvider<RequestLog>(mode: .scoped) { RequestLog() }
let answerService = ServiceProvider<AnswerService>(mode: .scoped) { AnswerService() }
let scope = ServiceScope(label: "request")
let request = Request(id: "1")
func obtainFailure() -> ServiceObtainError { fatalError("only type-checked") }
let error = obtainFailure()
let safeSettingsProvider = ServiceSafeProvider(factory: SettingsFactory(), safeThread: .lock)
struct SingletonServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .atOne
    func makeService() throws -> SingletonService { SingletonServiceImpl() }
}

// What the package's own primitives (Sources/Core/Primitives) work with.
let service = Settings()
@MainActor let object: AnyObject = Settings()
@MainActor var slots: [ObjectIdentifier: AnyObject] = [:]
let id = ObjectIdentifier(Settings.self)
let session = User(id: "ann")
let creationLock = Locked(())
/// A stand-in of the cell of ServiceInjects' wrappers, which is internal to that module.
final class InjectCell<Value>: Sendable {
    let published = OnceCell<Value?>()
}
let cell = InjectCell<Settings>()
