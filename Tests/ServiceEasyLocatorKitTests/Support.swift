import Foundation
import ServiceEasyLocatorKit

protocol SharedServicing: AnyObject, Sendable {
    var name: String { get }
}

final class SharedService: SharedServicing {
    let name: String
    init(name: String = "shared") { self.name = name }
}

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

final class DependentService: Sendable {
    let shared: SharedService
    init(shared: SharedService) { self.shared = shared }
}

enum TestError: Error, Equatable {
    case failed
}

struct LazyServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> LazyService { LazyService() }
}

struct FailingServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> FailingService { throw TestError.failed }
}

struct ParamsServiceFactory: ServiceParamsFactory {
    func makeService(params: String?) throws -> ParamsService { ParamsService(text: params ?? "default") }
}

struct NumberServiceFactory: ServiceParamsFactory {
    func makeService(params: Int) throws -> NumberService { NumberService(number: params) }
}

/// Keeps every refusal reported to the `ServiceLocatorLogger`s, with its locator.
final class RefusalLog: ServiceLocatorLogger, @unchecked Sendable {
    static let shared: RefusalLog = {
        let log = RefusalLog()
        log.register()
        return log
    }()

    // Guarded by `lock`. The locators are kept, so no other locator can take one's address.
    private let lock = NSLock()
    private var events: [(locator: AnyObject & Sendable, error: ServiceLocatorError)] = []

    func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError) {
        lock.withLock { events.append((locator, error)) }
    }

    func errors(of locator: AnyObject) -> [ServiceLocatorError] {
        lock.withLock { events.filter { $0.locator === locator }.map(\.error) }
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
