import Foundation

/// The causes of a ``ServiceObtainError`` that come from the library rather than a factory.
///
/// It is the `error` of the ``ServiceObtainError`` a get throws:
///
/// ```swift
/// do {
///     let builder = try reportBuilderProvider.getService()  // a `scoped` provider
/// } catch {
///     if case .scopeRequired? = error.error as? ServiceFactoryError {
///         // no scope is current: get it inside `withServiceScope { }`
///     }
/// }
/// ```
public enum ServiceFactoryError: Error, LocalizedError, CustomStringConvertible {
    /// Params of `received` type were given to a provider that takes `expected`; `received` is
    /// `nil` when no params were given.
    case wrongParams(expected: Any.Type, received: Any.Type?)

    /// The mediator's session is of type `received`, but the factory works with `expected` sessions.
    case wrongSession(expected: Any.Type, received: Any.Type)

    /// The factory made a `made`, which is not the provider's service type `expected`.
    case invalidFactory(expected: Any.Type, made: Any.Type)

    /// Making `service` led back to a get of `service`: on the same thread, directly or through
    /// other providers, or through a making on another thread or task that waits for this one.
    /// The `ServiceObtainError.pathServices` of the error shows the cycle: on one thread, every
    /// service on it; across threads or tasks, the services this one makes and those the others
    /// wait for (`[A, B, A]`), not what they make inside the makings they wait in.
    case dependencyCycle(service: Any.Type)

    /// A `scoped` `service` was asked for where no ``ServiceScope`` is current: outside
    /// `withServiceScope { }` and `scope.run { }`, or in a detached task or another thread.
    case scopeRequired(service: Any.Type)

    /// A `scoped` `service` was asked for in a scope that is closed; `scope` names it.
    case scopeClosed(service: Any.Type, scope: String)

    /// The making of `singleton`, a singleton kept as `singletonKind` says ("a lazy
    /// singleton"), asked for `scoped`, a scoped service it would keep beyond its scope.
    case captiveDependency(singleton: Any.Type, singletonKind: String, scoped: Any.Type)

    /// A ``ServiceMainActorProvider`` was made in `scoped` mode, which it does not have.
    case scopedOnMainActor(service: Any.Type)

    /// The provider of `service` was shut down with its container (`ServiceShutdown`): it
    /// makes and hands out nothing any more.
    case shutDown(service: Any.Type)

    /// A sentence naming the cause and the types involved.
    ///
    /// ```swift
    /// let cause = ServiceFactoryError.scopeRequired(service: ReportBuilder.self)
    /// print(cause.errorDescription ?? "")  // "App.ReportBuilder is a scoped service and no scope is current: ..."
    /// ```
    public var errorDescription: String? {
        switch self {
        case let .wrongParams(expected, received?):
            return "wrong params type \(TypeName.of(received)), expected \(TypeName.of(expected)); give params of "
                + "that type"
        case let .wrongParams(expected, nil):
            return "no params given, expected \(TypeName.of(expected)); give params of that type"
        case let .wrongSession(expected, received):
            // Most often the session is meant to be another type for a while (a guest's, after a
            // sign-out), so the message says first what the provider waits for. The mediator's
            // session type may never hold `expected` (two unrelated types), so the advice to
            // update it says when it applies.
            let (expected, received) = (TypeName.of(expected), TypeName.of(received))
            return "wrong session type \(received), expected \(expected): the provider makes its service only while "
                + "the session is of type \(expected); where the mediator's sessions can be \(expected), update the mediator "
                + "with one (as a sign-in does), or, to serve \(received) sessions too, give the provider a factory "
                + "that takes \(received)"
        case let .invalidFactory(expected, made):
            return "invalid factory: it made \(TypeName.of(made)), which is not \(TypeName.of(expected)); let the "
                + "factory make values of that type, or declare the provider with the type it makes"
        case let .dependencyCycle(service):
            return "dependency cycle: the making of \(TypeName.of(service)) led back to a get of \(TypeName.of(service)); "
                + "break the cycle: get one of the services on its path where it is used, not in a factory or a session hook"
        case let .scopeRequired(service):
            return "\(TypeName.of(service)) is a scoped service and no scope is current: get it inside "
                + "withServiceScope { } or a ServiceScope's run { }, in the task or thread that runs the scope"
        case let .scopeClosed(service, scope):
            return "\(scope) is closed: \(TypeName.of(service)), a scoped service, is no longer made or handed out in it; "
                + "get scoped services while their scope runs, not in work that outlives it"
        case let .captiveDependency(singleton, kind, scoped):
            let remake = SingletonKeeper.Kind.named(kind)?.modesMadePerUse.map { "make \(TypeName.of(singleton)) \($0), or " }
            return "\(TypeName.of(singleton)) is \(kind) and cannot keep \(TypeName.of(scoped)), a scoped service: "
                + "\(remake ?? "")get \(TypeName.of(scoped)) where each scope uses it"
        case let .shutDown(service):
            return "the container of \(TypeName.of(service)) was shut down: its provider makes and hands out nothing any "
                + "more; stop the work that uses a container before shutting it down, and let a service's close() use "
                + "what it got when it was made"
        case let .scopedOnMainActor(service):
            return "\(TypeName.of(service)) cannot be scoped on the main actor: ServiceMainActorProvider has no scoped "
                + "mode; use a ServiceProvider or a ServiceAsyncProvider for scoped services"
        }
    }

    /// The same text as `errorDescription`.
    ///
    /// ```swift
    /// if let cause = error.error as? ServiceFactoryError {
    ///     print(cause)  // the sentence of errorDescription: "dependency cycle: the making of ..." for a cycle
    /// }
    /// ```
    public var description: String { errorDescription ?? "" }
}
