import Foundation
import ServiceContainerKitObjC
import Testing

/// A service Objective-C style callers can receive.
final class FirstService: NSObject, Sendable {
    let name: String

    init(name: String = "first") {
        self.name = name
    }
}

/// A protocol of services, as containers often store them.
protocol GreetingService: AnyObject, Sendable {
    var greeting: String { get }
}

/// An `NSObject` service behind a protocol.
final class Greeter: NSObject, GreetingService {
    let greeting: String

    init(greeting: String) {
        self.greeting = greeting
    }
}

/// A service that is not an `NSObject`.
final class PlainSwiftService: Sendable {}

/// A value service that is not an `NSObject`.
struct ValueService: Sendable {
    var number = 1
}

/// The error test factories throw.
struct TestFactoryError: Error, Equatable, LocalizedError {
    var reason = "broken"
    var errorDescription: String? { "test factory failed: \(reason)" }
}

struct FirstServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> FirstService { FirstService() }
}

struct GreeterFactory: ServiceParamsFactory {
    func makeService(params: String) throws -> Greeter { Greeter(greeting: "Hello, \(params)") }
}

struct OptionalParamsFactory: ServiceParamsFactory {
    func makeService(params: Int?) throws -> FirstService { FirstService(name: "number \(params ?? -1)") }
}

struct UserSession: ServiceSession {
    let userId: Int
    var key: AnyHashable { userId }
}

struct UserServiceFactory: ServiceSessionFactory {
    let mode: ServiceSessionFactoryMode = .lazy
    func makeService(session: UserSession) throws -> FirstService { FirstService(name: "user \(session.userId)") }
}

/// Records the Objective-C refusals reported to the `ProvidersLogger`s.
///
/// Tests run in parallel and share the registered loggers: each test counts only the reports for
/// a service type of its own.
final class RefusalRecorder: ProvidersLogger, @unchecked Sendable {
    // Guards `refused`.
    private let lock = NSLock()
    private var refused: [ObjectIdentifier] = []

    func serviceProviderObjCNotSupport(type: Any.Type) {
        lock.lock()
        refused.append(ObjectIdentifier(type))
        lock.unlock()
    }

    func count(of type: Any.Type) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return refused.filter { $0 == ObjectIdentifier(type) }.count
    }

    /// Registers a recorder for the duration of `body`.
    static func recording<T>(_ body: (RefusalRecorder) throws -> T) rethrows -> T {
        let recorder = RefusalRecorder()
        recorder.register()
        defer { recorder.unregister() }
        return try body(recorder)
    }
}

/// The `NSError` a failing wrapper call wrote, checked to be one of the bridge's.
func bridgeError(_ error: NSError?, sourceLocation: SourceLocation = #_sourceLocation) throws -> NSError {
    let error = try #require(error, sourceLocation: sourceLocation)
    #expect(error.domain == ServiceObjCError.domain, sourceLocation: sourceLocation)
    return error
}

/// The values that several threads found, each kept once.
final class FoundValues<Value: Hashable & Sendable>: @unchecked Sendable {
    // Guards `values`.
    private let lock = NSLock()
    private var values: Set<Value> = []

    func insert(_ value: Value) {
        lock.lock()
        values.insert(value)
        lock.unlock()
    }

    var all: Set<Value> {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}

/// Lets a factory reach the provider it belongs to, to make a cycle.
final class ProviderHolder: @unchecked Sendable {
    // Set once before the first get, then only read.
    var provider: ServiceProvider<FirstService>?
}

/// Whether two metatypes are the same type.
func same(_ lhs: Any.Type, _ rhs: Any.Type) -> Bool {
    ObjectIdentifier(lhs) == ObjectIdentifier(rhs)
}
