import Foundation
import ServiceLocatorKit

// MARK: - Services

protocol FirstServicing: AnyObject, Sendable {
    var name: String { get }
}

final class FirstService: FirstServicing {
    let name: String
    init(name: String = "first") { self.name = name }
}

final class SingletonService: Sendable {}
final class LazyService: Sendable {}
final class ManyService: Sendable {}
final class FailingService: Sendable {}

final class ParamsService: Sendable {
    let text: String
    init(text: String) { self.text = text }
}

final class NumberService: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}

/// A service whose factory gets another service from the locator it is stored in.
final class DependentService: Sendable {
    let first: FirstService
    init(first: FirstService) { self.first = first }
}

enum TestError: Error, Equatable {
    case failed
}

// MARK: - Factories

struct SingletonServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .atOne
    func makeService() throws -> SingletonService { SingletonService() }
}

struct LazyServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> LazyService { LazyService() }
}

struct FailingServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> FailingService { throw TestError.failed }
}

struct ParamsServiceFactory: ServiceParamsFactory {
    func makeService(params: String?) throws -> ParamsService { ParamsService(text: params ?? "default") }
}

struct NumberServiceFactory: ServiceParamsFactory {
    func makeService(params: Int) throws -> NumberService { NumberService(number: params) }
}

// MARK: - Keys

struct NamedKey<Service>: ServiceLocatorKey {
    typealias ServiceType = Service
    let storeKey: String
}

struct NamedParamsKey<Service, Params>: ServiceLocatorParamsKey {
    typealias ServiceType = Service
    typealias ParamsType = Params
    let storeKey: String
}

enum Keys {
    static let singleton = SingletonServiceFactory.defaultKey
    static let lazy = LazyServiceFactory.defaultKey
    static let many = ServiceLocatorEasyKey<ManyService>()
    static let first = ServiceLocatorEasyKey<FirstService>()
    static let firstProtocol = ServiceLocatorEasyKey<any FirstServicing>()
    static let failing = ServiceLocatorEasyKey<FailingService>()
    static let params = ParamsServiceFactory.defaultKey
    static let number = NumberServiceFactory.defaultKey
    static let dependent = ServiceLocatorEasyKey<DependentService>()
}

// MARK: - Logger

/// Keeps every refusal reported to the `ServiceLocatorLogger`s, by locator.
final class RefusalLog: ServiceLocatorLogger, @unchecked Sendable {
    static let shared: RefusalLog = {
        let log = RefusalLog()
        log.register()
        return log
    }()

    // Guarded by `lock`.
    private let lock = NSLock()
    // The locators are kept, so that no other locator can take the address of one seen here.
    private var events: [(locator: AnyObject & Sendable, error: ServiceLocatorError)] = []

    func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError) {
        lock.withLock { events.append((locator, error)) }
    }

    func errors(of locator: AnyObject) -> [ServiceLocatorError] {
        return lock.withLock { events.filter { $0.locator === locator }.map(\.error) }
    }
}

extension Result where Success == Void {
    /// The failure, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Whether `type` is exactly `expected`.
func same(_ type: Any.Type?, _ expected: Any.Type) -> Bool {
    type.map { ObjectIdentifier($0) == ObjectIdentifier(expected) } ?? false
}

/// `NSLock`, named so that tests read as what they guard.
typealias NSLockBox = NSLock
