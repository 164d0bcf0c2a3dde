import ServiceLocatorKit

// The services, factories and checks that the tests of both locator products use.

public final class LazyService: Sendable {
    public init() {}
}

public final class ManyService: Sendable {
    public init() {}
}

public final class FailingService: Sendable {
    public init() {}
}

public final class ParamsService: Sendable {
    public let text: String
    public init(text: String) { self.text = text }
}

public final class NumberService: Sendable {
    public let number: Int
    public init(number: Int) { self.number = number }
}

public enum TestError: Error, Equatable {
    case failed
}

public struct LazyServiceFactory: ServiceFactory, Sendable {
    public let mode: ServiceFactoryMode = .lazy
    public init() {}
    public func makeService() throws -> LazyService { LazyService() }
}

public struct ParamsServiceFactory: ServiceParamsFactory, Sendable {
    public init() {}
    public func makeService(params: String?) throws -> ParamsService { ParamsService(text: params ?? "default") }
}

public struct NumberServiceFactory: ServiceParamsFactory, Sendable {
    public init() {}
    public func makeService(params: Int) throws -> NumberService { NumberService(number: params) }
}

extension Result where Success == Void {
    /// The failure, or `nil` on success.
    public var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Whether `type` is exactly `expected`.
public func same(_ type: Any.Type?, _ expected: Any.Type) -> Bool {
    type.map { ObjectIdentifier($0) == ObjectIdentifier(expected) } ?? false
}
