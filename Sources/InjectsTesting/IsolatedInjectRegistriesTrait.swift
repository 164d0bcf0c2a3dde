import Testing

/// A test trait that runs each test, and each case of a parameterized test, with inject
/// registries of its own, so that tests which register their own containers and entities run
/// in parallel.
///
/// Apply it with ``Testing/Trait/isolatedInjectRegistries`` to a test or to a suite; on a suite
/// it applies to every test in it, nested suites included:
///
/// ```swift
/// @Suite(.isolatedInjectRegistries)
/// struct ScreenTests {
///     init() {
///         ServiceInjectResolver.register(Services.mock())  // runs for each test, in its registries
///     }
///
///     @Test func presenterGetsTheMock() {
///         #expect(UserPresenter().userService.isMock)
///     }
/// }
/// ```
///
/// Each test case runs inside `withIsolatedInjectRegistries`: the `ServiceInjectResolver` and
/// `EntityInjectResolver` it sees start empty, and what it registers is seen by nothing else.
/// A suite's `init` runs inside the scope of each test, so it may register the test's
/// containers. Messages about these registries name the test.
public struct IsolatedInjectRegistriesTrait: TestTrait, SuiteTrait, TestScoping {
    /// `true`: applied to a suite, the trait gives each test in it (and each case of a
    /// parameterized test) registries of its own, rather than one set for the whole suite.
    ///
    /// ```swift
    /// let isolated: IsolatedInjectRegistriesTrait = .isolatedInjectRegistries
    /// print(isolated.isRecursive)  // true: on a suite, every test in it gets registries of its own
    /// ```
    public var isRecursive: Bool { true }

    /// Runs `function`, the test or one of its cases, with inject registries of its own.
    ///
    /// ```swift
    /// // Swift Testing calls it; a trait of your own may call it too:
    /// let isolated: IsolatedInjectRegistriesTrait = .isolatedInjectRegistries
    /// try await isolated.provideScope(for: test, testCase: testCase) {
    ///     ServiceInjectResolver.register(Services.mock())
    ///     try await function()
    /// }
    /// ```
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let location = test.sourceLocation
        let scope = "the .isolatedInjectRegistries trait of test \(test.name) at \(location.fileID):\(location.line)"
        try await withIsolatedInjectRegistries(scope: scope) {
            try await function()
        }
    }
}

extension Trait where Self == IsolatedInjectRegistriesTrait {
    /// Runs each test, and each case of a parameterized test, with inject registries of its
    /// own: `@Test(.isolatedInjectRegistries)`, or `@Suite(.isolatedInjectRegistries)` for every
    /// test of a suite.
    ///
    /// ```swift
    /// @Test(.isolatedInjectRegistries, arguments: ["ann", "bob"])
    /// func greeting(user: String) {
    ///     ServiceInjectResolver.register(Services.mock(user: user))
    ///     #expect(GreetingPresenter().text == "Hello, \(user)")
    /// }
    /// ```
    public static var isolatedInjectRegistries: Self {
        Self()
    }
}
