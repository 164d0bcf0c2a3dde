import Foundation
import LocatorTestSupport
import ServiceLocatorKit

// MARK: - Services

// The ones both locator products' tests use are in LocatorTestSupport.

protocol FirstServicing: AnyObject, Sendable {
    var name: String { get }
}

final class FirstService: FirstServicing {
    let name: String
    init(name: String = "first") { self.name = name }
}

final class SingletonService: Sendable {}

/// A service whose factory gets another service from the locator it is stored in.
final class DependentService: Sendable {
    let first: FirstService
    init(first: FirstService) { self.first = first }
}

// MARK: - Factories

struct SingletonServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .atOne
    func makeService() throws -> SingletonService { SingletonService() }
}

struct FailingServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> FailingService { throw TestError.failed }
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

/// `NSLock`, named so that tests read as what they guard.
typealias NSLockBox = NSLock
