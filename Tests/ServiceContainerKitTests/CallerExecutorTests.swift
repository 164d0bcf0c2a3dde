import Dispatch
import Testing

@testable import ServiceContainerKit
import TestSupport

/// An actor on a `QueueExecutor`: its methods see whether they still run on it after a get.
private actor Caller {
    let executor = QueueExecutor(label: "CallerExecutorTests")

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Awaits `get` on this actor, and says whether the code after it ran on the actor's
    /// executor, before and after the get.
    func runs(_ get: nonisolated(nonsending) () async -> Void) async -> [Bool] {
        let before = executor.isCurrent
        await get()
        return [before, executor.isCurrent]
    }

    /// Awaits `gets` on this actor and returns what they give, then whether the code after them
    /// ran on the actor's executor (1) or not (0).
    func runsAndGets(_ gets: nonisolated(nonsending) () async -> [Int?]) async -> [Int?] {
        await gets() + [executor.isCurrent ? 1 : 0]
    }

    // Each of the next four awaits one form of the get twice before anything else, then gives
    // the services got and whether the code after the gets ran on this actor's executor. An
    // optimized build that called, rather than inlined, the get compiled for `Service` (as it
    // chose to for a get awaited twice) went on off the actor when the get did not suspend.
    // `afterTwoGets` is the control: `getService()` was always inlined.

    func afterTwoGets(_ provider: ServiceAsyncProvider<Service>) async -> TwoGets {
        let first = try? await provider.getService()
        let second = try? await provider.getService()
        return TwoGets(services: [first, second], onTheActor: executor.isCurrent)
    }

    func afterTwoResults(_ provider: ServiceAsyncProvider<Service>) async -> TwoGets {
        let first = await provider.getServiceAsResult()
        let second = await provider.getServiceAsResult()
        return TwoGets(services: [try? first.get(), try? second.get()], onTheActor: executor.isCurrent)
    }

    func afterTwoOptionals(_ provider: ServiceAsyncProvider<Service>) async -> TwoGets {
        let first = await provider.getServiceAsOptional()
        let second = await provider.getServiceAsOptional()
        return TwoGets(services: [first, second], onTheActor: executor.isCurrent)
    }

    func afterTwoGetsOrFatal(_ provider: ServiceAsyncProvider<Service>) async -> TwoGets {
        let first = await provider.getServiceOrFatal()
        let second = await provider.getServiceOrFatal()
        return TwoGets(services: [first, second], onTheActor: executor.isCurrent)
    }

    /// The same for a params provider: each of its four forms, `form` 0 to 3, awaited twice for
    /// params 1 and 2, first thing.
    func afterTwoParamsGets(_ provider: ServiceAsyncParamsProvider<Service, Int>, form: Int) async -> TwoGets {
        let services: [Service?]
        switch form {
        case 0: services = [try? await provider.getService(params: 1), try? await provider.getService(params: 2)]
        case 1:
            services = [
                try? await provider.getServiceAsResult(params: 1).get(),
                try? await provider.getServiceAsResult(params: 2).get(),
            ]
        case 2: services = [await provider.getServiceAsOptional(params: 1), await provider.getServiceAsOptional(params: 2)]
        default: services = [await provider.getServiceOrFatal(params: 1), await provider.getServiceOrFatal(params: 2)]
        }
        return TwoGets(services: services, onTheActor: executor.isCurrent)
    }

    /// Runs `steps` in a `nonisolated(nonsending)` function called from this actor, as the
    /// default async function of Swift 6.2's `NonisolatedNonsendingByDefault` is, and gives
    /// where each of its steps ran.
    func stepsThroughANonsendingFunction(
        _ steps: nonisolated(nonsending) (QueueExecutor) async -> [Bool]
    ) async -> [Bool] {
        await steps(executor)
    }
}

/// Where the steps of a scope run by `enter` ran, `enter` called from a `nonisolated(nonsending)`
/// function: at the start of the scope's body, after a suspension in it, after a scoped get in
/// it, and after the scope.
private nonisolated(nonsending) func stepsOfAScope(
    on executor: QueueExecutor,
    getting provider: ServiceAsyncProvider<Service>,
    enter: nonisolated(nonsending) (nonisolated(nonsending) () async -> Void) async -> Void
) async -> [Bool] {
    var steps: [Bool] = []
    await enter {
        steps.append(executor.isCurrent)
        try? await Task.sleep(for: .milliseconds(1))
        steps.append(executor.isCurrent)
        _ = try? await provider.getService()
        steps.append(executor.isCurrent)
    }
    steps.append(executor.isCurrent)
    return steps
}

private struct Refusal: Error {}

/// A factory type whose `makeService()` is `nonisolated(nonsending)`, as every async function of
/// a module with `NonisolatedNonsendingByDefault` is: it runs where it is called.
private struct NonsendingFactory: ServiceAsyncFactory {
    let mode = ServiceFactoryMode.many
    let executor: QueueExecutor
    nonisolated(nonsending) func makeService() async throws -> Service {
        Service(number: executor.isCurrent ? 1 : 0)
    }
}

/// A factory type whose `makeService()` is a plain `async` method: in a conformance to
/// `ServiceAsyncFactory` it takes the requirement's `nonisolated(nonsending)`, in a module
/// without `NonisolatedNonsendingByDefault` (this one) too.
private struct PlainFactory: ServiceAsyncFactory {
    let mode = ServiceFactoryMode.many
    let executor: QueueExecutor
    func makeService() async throws -> Service {
        Service(number: executor.isCurrent ? 1 : 0)
    }
}

/// A factory type whose `makeService()` is `@concurrent`: Swift runs it on the global executor.
private struct ConcurrentFactory: ServiceAsyncFactory {
    let mode = ServiceFactoryMode.many
    let executor: QueueExecutor
    @concurrent func makeService() async throws -> Service {
        Service(number: executor.isCurrent ? 1 : 0)
    }
}

/// A factory type isolated to the main actor: its `makeService()` says `@MainActor` again, since
/// the requirement's `nonisolated(nonsending)` would otherwise win over the type's isolation.
@MainActor
private struct MainActorFactory: ServiceAsyncFactory {
    let mode = ServiceFactoryMode.many
    @MainActor func makeService() async throws -> Service {
        Service(number: MainQueue.isCurrent ? 1 : 0)
    }
}

/// The params counterpart of `PlainFactory`.
private struct PlainParamsFactory: ServiceAsyncParamsFactory {
    let executor: QueueExecutor
    func makeService(params: Int) async throws -> Service {
        Service(number: executor.isCurrent ? params : 0)
    }
}

/// The params counterpart of `ConcurrentFactory`.
private struct ConcurrentParamsFactory: ServiceAsyncParamsFactory {
    let executor: QueueExecutor
    @concurrent func makeService(params: Int) async throws -> Service {
        Service(number: executor.isCurrent ? params : 0)
    }
}

/// The params counterpart of `NonsendingFactory`.
private struct NonsendingParamsFactory: ServiceAsyncParamsFactory {
    let executor: QueueExecutor
    nonisolated(nonsending) func makeService(params: Int) async throws -> Service {
        Service(number: executor.isCurrent ? params : 0)
    }
}

/// The kinds of async provider whose factory a get calls in the caller's task, with whether the
/// factory runs on the caller's executor: it does unless the factory says `@concurrent`.
enum FactoryInTheCallersTask: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case manyClosure, manyFactory, manyPlainMethod, manyConcurrentMethod, manyConcurrentClosure, manyClosureWithCaptureList
    case paramsClosure, paramsFactory, paramsPlainMethod, paramsConcurrentMethod

    var testDescription: String { rawValue }

    /// Whether the factory runs on the caller's executor. A closure with a capture list does not,
    /// as Swift 6.3 infers it (`@concurrent`, converted), which docs/concurrency.md says: when this
    /// case fails, the compiler makes such closures `nonisolated(nonsending)`, and the guide is to
    /// change.
    var runsOnTheCaller: Bool {
        ![.manyConcurrentMethod, .manyConcurrentClosure, .manyClosureWithCaptureList, .paramsConcurrentMethod].contains(self)
    }

    /// A provider of this kind whose service's number is 1 when its factory ran on `executor`
    /// (a params provider's through `convert(params:)`, whose get is the params provider's).
    fileprivate func provider(checking executor: QueueExecutor) -> ServiceAsyncProvider<Service> {
        switch self {
        case .manyClosure:
            ServiceAsyncProvider(mode: .many) { Service(number: executor.isCurrent ? 1 : 0) }
        case .manyFactory:
            NonsendingFactory(executor: executor).serviceAsyncProvider()
        case .manyPlainMethod:
            PlainFactory(executor: executor).serviceAsyncProvider()
        case .manyConcurrentMethod:
            ConcurrentFactory(executor: executor).serviceAsyncProvider()
        case .manyClosureWithCaptureList:
            ServiceAsyncProvider(mode: .many) { [executor] in Service(number: executor.isCurrent ? 1 : 0) }
        case .manyConcurrentClosure:
            ServiceAsyncProvider(mode: .many) { @concurrent in Service(number: executor.isCurrent ? 1 : 0) }
        case .paramsClosure:
            ServiceAsyncParamsProvider<Service, Int> { number in Service(number: executor.isCurrent ? number : 0) }
                .convert(params: 1)
        case .paramsFactory:
            NonsendingParamsFactory(executor: executor).serviceAsyncProvider().convert(params: 1)
        case .paramsPlainMethod:
            PlainParamsFactory(executor: executor).serviceAsyncProvider().convert(params: 1)
        case .paramsConcurrentMethod:
            ConcurrentParamsFactory(executor: executor).serviceAsyncProvider().convert(params: 1)
        }
    }
}

/// What two gets of one form gave (nil where a get failed), and whether the code after them
/// ran on the caller's executor.
struct TwoGets: Sendable {
    let services: [Service?]
    let onTheActor: Bool
}

/// An async provider whose get returns without suspending: its service is ready (or, for
/// `atOneFailed`, its making has failed), or the get makes it at once (a wrapped synchronous
/// provider's first get, a `many` provider whose factory never suspends).
enum GetWithoutSuspending: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case instance, lazyMade, atOneMade, atOneFailed, weakHeld, wrappedSyncProviderMade
    case wrappedSyncProviderFirstGet, manyNeverSuspending

    var testDescription: String { rawValue }

    /// A new provider of this kind, and its service when a get before has made it.
    fileprivate func provider() async -> (provider: ServiceAsyncProvider<Service>, ready: Service?) {
        let provider: ServiceAsyncProvider<Service>
        switch self {
        case .instance: provider = ServiceAsyncProvider(Service(number: 1))
        case .lazyMade: provider = ServiceAsyncProvider(mode: .lazy) { Service(number: 1) }
        case .atOneMade: provider = ServiceAsyncProvider(mode: .atOne) { Service(number: 1) }
        case .atOneFailed: provider = ServiceAsyncProvider(mode: .atOne) { throw Refusal() }
        case .weakHeld: provider = ServiceAsyncProvider(mode: .weak) { Service(number: 1) }
        case .wrappedSyncProviderMade, .wrappedSyncProviderFirstGet:
            provider = ServiceAsyncProvider(ServiceProvider(mode: .lazy) { Service(number: 1) })
        case .manyNeverSuspending: provider = ServiceAsyncProvider(mode: .many) { Service(number: 1) }
        }
        if self == .wrappedSyncProviderFirstGet || self == .manyNeverSuspending { return (provider, nil) }
        return (provider, try? await provider.getService())
    }

    /// Whether two gets gave what a provider of this kind gives: nothing after a failed
    /// making, a new service each time from `many`, otherwise one service, the ready one if any.
    func gave(_ services: [Service?], ready: Service?) -> Bool {
        guard let first = services[0], let second = services[1] else {
            return self == .atOneFailed && services.allSatisfy { $0 == nil }
        }
        switch self {
        case .atOneFailed: return false
        case .manyNeverSuspending: return first !== second
        case .wrappedSyncProviderFirstGet: return first === second
        default: return first === ready && second === ready
        }
    }
}

/// The async gets, which are `nonisolated(nonsending)`: whatever they do, and whether they give
/// the service or an error, the caller goes on on its own executor. Checked on an actor's
/// executor of our own, which can be asked without stopping the program; an optimized build
/// once went on on the global executor after a get that failed.
@Suite("Async providers: a get goes on on the caller's executor")
struct CallerExecutorTests {
    static let modes: [ServiceFactoryMode] = [.atOne, .lazy, .weak, .many]

    @Test(arguments: modes, [false, true])
    func provider(mode: ServiceFactoryMode, fails: Bool) async throws {
        let provider = ServiceAsyncProvider<Service>(mode: mode) {
            if fails { throw Refusal() }
            return Service(number: 1)
        }
        let caller = Caller()
        let runs = try await withAsyncTimeLimit {
            await caller.runs {
                let result = await provider.getServiceAsResult()
                #expect((try? result.get()) == nil ? fails : !fails)
                _ = try? await provider.getService()
                _ = await provider.getServiceAsOptional()
            }
        }
        #expect(runs == [true, true])
    }

    @Test("A get that returns without suspending, the first thing an actor's method awaits, goes on on the actor",
          arguments: GetWithoutSuspending.allCases)
    func getWithoutSuspendingFirstInAnActorMethod(kind: GetWithoutSuspending) async throws {
        let caller = Caller()
        let forms: [@Sendable (ServiceAsyncProvider<Service>) async -> TwoGets?] = [
            { await caller.afterTwoGets($0) }, { await caller.afterTwoResults($0) },
            { await caller.afterTwoOptionals($0) },
            // getServiceOrFatal() of a failed making stops the program: not awaited.
            { kind == .atOneFailed ? nil : await caller.afterTwoGetsOrFatal($0) },
        ]
        // For each form, with a new provider: whether the gets gave what they should, and
        // whether the code after them ran on the actor.
        let outcomes = try await withAsyncTimeLimit {
            var outcomes: [[Bool]] = []
            for form in forms {
                let (provider, ready) = await kind.provider()
                if let gets = await form(provider) {
                    outcomes.append([kind.gave(gets.services, ready: ready), gets.onTheActor])
                }
            }
            return outcomes
        }
        #expect(outcomes == Array(repeating: [true, true], count: kind == .atOneFailed ? 3 : 4))
    }

    @Test("While a recorder runs, or a validation on another thread, a get goes on on the caller's executor too")
    func recordedGet() async {
        // In a process of its own: a recorder puts the gets of every test on their slow path.
        await #expect(processExitsWith: .success) { try await CallerExecutorTests.recordedGetInItsOwnProcess() }
        await #expect(processExitsWith: .success) { try await CallerExecutorTests.getBesideAValidationInItsOwnProcess() }
    }

    static func getBesideAValidationInItsOwnProcess() async throws {
        let (validating, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let validation = Task {
            try await onThread {
                ServiceValidator.validate(building: { () -> Int in
                    validating.signal()
                    done.wait()
                    return 0
                })
            }
        }
        try await onThread { try waitWithTimeLimit(validating) }
        try await expectGetsOnTheCallersExecutor()
        done.signal()
        _ = try await validation.value
    }

    static func recordedGetInItsOwnProcess() async throws {
        let recorder = ServiceGraphRecorder()
        defer { recorder.stop() }
        try await expectGetsOnTheCallersExecutor()
        #expect(recorder.graph().edges.count == modes.count * 2)
    }

    /// Gets, from an actor, of async providers that get each other, made or failing.
    static func expectGetsOnTheCallersExecutor() async throws {
        for mode in modes {
            for fails in [false, true] {
                let inner = ServiceAsyncProvider<Service>(mode: mode) {
                    if fails { throw Refusal() }
                    return Service(number: 1)
                }
                let outer = ServiceAsyncProvider<Service>(mode: mode) { try await inner.getService() }
                let caller = Caller()
                let runs = try await withAsyncTimeLimit {
                    await caller.runs {
                        #expect((try? await outer.getService()) == nil ? fails : !fails)
                        _ = await inner.getServiceAsOptional()
                    }
                }
                #expect(runs == [true, true], "\(mode), fails: \(fails)")
            }
        }
    }

    @Test("A get whose task is cancelled while it waits for the making", arguments: [ServiceFactoryMode.atOne, .lazy, .weak])
    func cancelledWait(mode: ServiceFactoryMode) async throws {
        let gate = AsyncGate()
        let provider = ServiceAsyncProvider<Service>(mode: mode) {
            await gate.wait()
            return Service(number: 1)
        }
        let caller = Caller()
        let waiting = Task {
            await caller.runs {
                #expect(await provider.getServiceAsResult().failure?.error is CancellationError)
            }
        }
        try? await Task.sleep(for: .milliseconds(100))  // let the get start waiting
        waiting.cancel()
        let runs = try await withAsyncTimeLimit { await waiting.value }
        gate.open()
        #expect(runs == [true, true])
    }

    @Test("A get that finds a dependency cycle")
    func cycle() async throws {
        final class Loop: @unchecked Sendable {
            // Written once, before any get.
            var provider: ServiceAsyncProvider<Service>!
        }
        let loop = Loop()
        loop.provider = ServiceAsyncProvider(mode: .lazy) { try await loop.provider.getService() }
        let caller = Caller()
        let runs = try await withAsyncTimeLimit {
            await caller.runs {
                #expect(await loop.provider.getServiceAsResult().failure?.isDependencyCycle == true)
            }
        }
        #expect(runs == [true, true])
    }

    @Test("A factory a get calls in the caller's task runs on the caller's executor, unless it says otherwise",
          arguments: FactoryInTheCallersTask.allCases)
    func factoryInTheCallersTask(kind: FactoryInTheCallersTask) async throws {
        let caller = Caller()
        let provider = kind.provider(checking: caller.executor)
        let numbers = try await withAsyncTimeLimit {
            await caller.runsAndGets { [try? await provider.getService().number, await provider.getServiceAsOptional()?.number] }
        }
        let expected = kind.runsOnTheCaller ? 1 : 0
        #expect(numbers == [expected, expected, 1])  // and the caller goes on on its executor
    }

    @Test("A params provider's factory runs on the caller's executor")
    func paramsFactoryOnTheCaller() async throws {
        let caller = Caller()
        let executor = caller.executor
        let closure = ServiceAsyncParamsProvider<Service, Int> { number in Service(number: executor.isCurrent ? number : 0) }
        let factory = NonsendingParamsFactory(executor: executor).serviceAsyncProvider()
        let numbers = try await withAsyncTimeLimit {
            await caller.runsAndGets {
                [try? await closure.getService(params: 2).number, try? await factory.getService(params: 3).number]
            }
        }
        #expect(numbers == [2, 3, 1])
    }

    @Test("A singleton's factory runs in a task of its own, not on the executor of the get that starts it",
          arguments: [ServiceFactoryMode.lazy, .weak, .scoped])
    func singletonFactoryInATaskOfItsOwn(mode: ServiceFactoryMode) async throws {
        let caller = Caller()
        let executor = caller.executor
        let provider = ServiceAsyncProvider<Service>(mode: mode) { Service(number: executor.isCurrent ? 1 : 0) }
        let numbers = try await withAsyncTimeLimit {
            await caller.runsAndGets {
                await withServiceScope { [try? await provider.getService().number] }
            }
        }
        #expect(numbers == [0, 1])
    }

    @Test("On the main actor, a many factory written there runs there; a @MainActor factory type's says it again")
    @MainActor
    func manyFactoryOnTheMainActor() async throws {
        let closure = ServiceAsyncProvider<Service>(mode: .many) { Service(number: MainQueue.isCurrent ? 1 : 0) }
        let concurrent = ServiceAsyncProvider<Service>(mode: .many) { @concurrent in
            Service(number: MainQueue.isCurrent ? 1 : 0)
        }
        let mainActorType = MainActorFactory().serviceAsyncProvider()
        let numbers = try await [closure.getService().number, concurrent.getService().number]
        let fromAnotherTask = try await Task.detached { try await mainActorType.getService().number }.value
        #expect(numbers == [1, 0])
        #expect(fromAnotherTask == 1)
    }

    @Test("A params provider's get, awaited twice first thing in an actor's method, goes on on the actor",
          arguments: 0..<4)
    func paramsGetsFirstInAnActorMethod(form: Int) async throws {
        let provider = ServiceAsyncParamsProvider<Service, Int> { Service(number: $0) }
        let caller = Caller()
        let gets = try await withAsyncTimeLimit { await caller.afterTwoParamsGets(provider, form: form) }
        #expect(gets.services.map { $0?.number } == [1, 2])
        #expect(gets.onTheActor)
    }

    @Test(arguments: [false, true])
    func paramsProvider(fails: Bool) async throws {
        let provider = ServiceAsyncParamsProvider<Service, Int> { number in
            if fails { throw Refusal() }
            return Service(number: number)
        }
        let caller = Caller()
        let runs = try await withAsyncTimeLimit {
            await caller.runs {
                let result = await provider.getServiceAsResult(params: 2)
                #expect((try? result.get())?.number == (fails ? nil : 2))
                _ = try? await provider.getService(params: 2)
            }
        }
        #expect(runs == [true, true])
    }

    @Test(arguments: [false, true])
    func scopedProvider(fails: Bool) async throws {
        let provider = ServiceAsyncProvider<Service>(mode: .scoped) {
            if fails { throw Refusal() }
            return Service(number: 3)
        }
        let caller = Caller()
        let runs = try await withAsyncTimeLimit {
            await caller.runs {
                // Outside a scope it fails (`scopeRequired`); inside one it gives the service,
                // unless the factory fails.
                #expect((try? await provider.getService()) == nil)
                await withServiceScope {
                    #expect((try? await provider.getService())?.number == (fails ? nil : 3))
                }
            }
        }
        #expect(runs == [true, true])
    }

    @Test("A scope's body goes on on the caller's executor after it suspends, called from a nonisolated(nonsending) function")
    func scopeBodyInANonsendingFunction() async throws {
        let provider = ServiceAsyncProvider<Service>(mode: .scoped) { Service(number: 4) }
        let caller = Caller()
        let steps = try await withAsyncTimeLimit {
            [
                await caller.stepsThroughANonsendingFunction { executor in
                    await stepsOfAScope(on: executor, getting: provider) { body in await withServiceScope(body) }
                },
                await caller.stepsThroughANonsendingFunction { executor in
                    await stepsOfAScope(on: executor, getting: provider) { body in
                        let scope = ServiceScope(label: "run")
                        await scope.run(body)
                        _ = await scope.close()
                    }
                },
            ]
        }
        #expect(steps == [[true, true, true, true], [true, true, true, true]])
    }
}
