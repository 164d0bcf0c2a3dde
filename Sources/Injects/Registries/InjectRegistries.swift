import Synchronization

/// The two registries that the resolvers and the wrappers work with: the process's, or those of
/// the innermost `withIsolatedInjectRegistries` scope that the current task runs in.
///
/// A wrapper takes the registry when it is made and keeps it in its `InjectCell`, so it is
/// injected from the registries of the scope it was made in, whenever its container comes; the
/// read of an injected property never looks at the scope.
final class InjectRegistries: Sendable {
    let containers: InjectRegistry
    let entities: InjectRegistry

    /// `scope` names an isolated scope in messages (`withIsolatedInjectRegistries at
    /// Tests/ScreenTests.swift:12`); `nil` for the process's registries.
    init(scope: String?) {
        let isolation = scope.map { " (isolated by \($0))" } ?? ""
        self.scope = scope
        containers = InjectRegistry(
            resolverName: "ServiceInjectResolver" + isolation,
            itemName: "container",
            itemsName: "containers"
        )
        entities = InjectRegistry(
            resolverName: "EntityInjectResolver" + isolation,
            itemName: "entity",
            itemsName: "entities",
            firstInjected: { registry, id in EntityInjectResolver.removeAtNextMainLoopTurn(id, from: registry) }
        )
    }

    /// What isolates these registries; `nil` for the process's.
    let scope: String?

    /// The registries of the process: those of every task that runs in no isolated scope.
    static let process = InjectRegistries(scope: nil)

    /// The registries of the innermost isolated scope of the current task, if any.
    @TaskLocal static var isolated: InjectRegistries?

    /// Whether an isolated scope was ever opened in this process. Until one is, no task can run
    /// in one, and `current` is the process's without reading the task-local value (which costs
    /// more than the rest of a look-up). It is set before a scope's registries are bound, so
    /// whatever runs in a scope, or in a task made there (even after the scope ended), comes
    /// after it was set and reads it set.
    private static let anyScopeOpened = Atomic<Bool>(false)

    /// The registries that a registration, a look-up or a wrapper made now works with.
    static var current: InjectRegistries {
        withCurrent { $0 }
    }

    /// Runs `body` with the current registries and returns what it returns: for a wrapper's
    /// look-up, which borrows the process's registries this way instead of retaining them.
    @inline(__always)
    static func withCurrent<Result>(_ body: (InjectRegistries) -> Result) -> Result {
        if anyScopeOpened.load(ordering: .relaxed), let isolated {
            return body(isolated)
        }
        return body(process)
    }

    /// Whether `registry` is one of the process's while isolated scopes are in use: a wrapper
    /// that waits in it was made outside them, which its crash message says.
    static func isProcessRegistryBesideScopes(_ registry: InjectRegistry) -> Bool {
        anyScopeOpened.load(ordering: .relaxed) && (registry === process.containers || registry === process.entities)
    }

    /// New registries for the isolated scope `scope`, to bind to `isolated`.
    static func forScope(_ scope: String) -> InjectRegistries {
        anyScopeOpened.store(true, ordering: .relaxed)
        return InjectRegistries(scope: scope)
    }
}

/// Runs `body` with inject registries of its own: an empty ``ServiceInjectResolver`` and
/// ``EntityInjectResolver`` that only `body` (and the tasks it starts that inherit its task-local
/// values) sees. Returns what `body` returns.
///
/// Registrations, removals, ready handlers and injections inside the scope touch nothing outside
/// it, so tests that register their own containers can run in parallel:
///
/// ```swift
/// @Test func presenterGetsTheMock() {
///     withIsolatedInjectRegistries {
///         ServiceInjectResolver.register(Services.mock())
///         #expect(UserPresenter().userService.isMock)
///     }
/// }
/// ```
///
/// - An `@ServiceInject`, `@EntityInject` or other inject wrapper made inside the scope is
///   injected from the scope's registries, even when its container or entity is registered
///   later, and even after the scope ended.
/// - Scopes nest: an inner scope starts empty and sees nothing of the outer one; when it ends,
///   the outer one is as it was.
/// - Child tasks (`async let`, task groups) and `Task { }` made inside the scope see it;
///   `Task.detached`, threads and dispatch queues do not: they work with the registries of the
///   process, unless they open a scope of their own. A block that dispatch runs on the calling
///   thread (`queue.sync { }`, some iterations of `concurrentPerform`) sees the scope, as the
///   task-local value it is goes with that thread; make concurrent work with a task group.
/// - Outside every scope, the resolvers work with the registries of the process, as always.
///
/// In a Swift Testing test, the `.isolatedInjectRegistries` trait of `ServiceInjectsTesting`
/// does this for every test it is applied to.
///
/// - Parameters:
///   - file: the caller's file, which names the scope in messages.
///   - line: the caller's line, which names the scope in messages.
///   - body: the code that works with the isolated registries.
public func withIsolatedInjectRegistries<Value>(
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: () throws -> Value
) rethrows -> Value {
    let registries = InjectRegistries.forScope("withIsolatedInjectRegistries at \(file):\(line)")
    return try InjectRegistries.$isolated.withValue(registries, operation: body)
}

/// Runs the asynchronous `body` with inject registries of its own, which only its task tree
/// sees; see the synchronous `withIsolatedInjectRegistries(file:line:_:)`. Returns what `body`
/// returns.
///
/// ```swift
/// @Test func screenLoads() async {
///     await withIsolatedInjectRegistries {
///         ServiceInjectResolver.register(Services.mock())
///         await UserPresenter().load()
///     }
/// }
/// ```
///
/// - Parameters:
///   - file: the caller's file, which names the scope in messages.
///   - line: the caller's line, which names the scope in messages.
///   - isolation: the actor `body` runs on: the caller's.
///   - body: the code that works with the isolated registries.
public func withIsolatedInjectRegistries<Value>(
    file: StaticString = #fileID,
    line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    _ body: nonisolated(nonsending) () async throws -> Value
) async rethrows -> Value {
    try await withIsolatedInjectRegistries(
        scope: "withIsolatedInjectRegistries at \(file):\(line)", isolation: isolation, body
    )
}

/// Runs `body` with inject registries of its own, named `scope` in messages: the entry point of
/// the `.isolatedInjectRegistries` trait, which names the test.
package func withIsolatedInjectRegistries<Value>(
    scope: String,
    isolation: isolated (any Actor)? = #isolation,
    _ body: nonisolated(nonsending) () async throws -> Value
) async rethrows -> Value {
    try await InjectRegistries.$isolated.withValue(InjectRegistries.forScope(scope), on: isolation, body)
}
