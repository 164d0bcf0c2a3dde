import Foundation

/// The causes of a ``ServiceObtainError`` that come from the library rather than a factory.
public enum ServiceFactoryError: Error, LocalizedError, CustomStringConvertible {
    /// Params of `received` type were given to a provider that takes `expected`; `received` is
    /// `nil` when no params were given.
    case wrongParams(expected: Any.Type, received: Any.Type?)

    /// The mediator's session is a `received`, but the factory works with `expected` sessions.
    case wrongSession(expected: Any.Type, received: Any.Type)

    /// The factory made a `made`, which is not the provider's service type `expected`.
    case invalidFactory(expected: Any.Type, made: Any.Type)

    /// Making `service` led back to a get of `service`: on the same thread, directly or through
    /// other providers, or through a making on another thread or task that waits for this one.
    /// The `ServiceObtainError.pathServices` of the error shows the cycle as this thread or task
    /// saw it.
    case dependencyCycle(service: Any.Type)

    /// A sentence naming the cause and the types involved.
    public var errorDescription: String? {
        switch self {
        case let .wrongParams(expected, received?):
            return "wrong params type \(name(received)), expected \(name(expected))"
        case let .wrongParams(expected, nil):
            return "no params given, expected \(name(expected))"
        case let .wrongSession(expected, received):
            return "wrong session type \(name(received)), expected \(name(expected))"
        case let .invalidFactory(expected, made):
            return "invalid factory: it made \(name(made)), which is not \(name(expected))"
        case let .dependencyCycle(service):
            return "dependency cycle: the making of \(name(service)) led back to a get of \(name(service))"
        }
    }

    /// The same text as `errorDescription`.
    public var description: String { errorDescription ?? "" }

    private func name(_ type: Any.Type) -> String {
        ServiceObtainError.name(of: type)
    }
}
