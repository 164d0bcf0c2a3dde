import Foundation
import Synchronization
import Testing

@testable import ServiceContainerKit
import TestSupport

private final class NodeA: Sendable {}
private final class NodeB: Sendable {}
private final class NodeC: Sendable {}

/// Async providers wired after they are made, so that they can form a cycle.
private final class AsyncGraph: @unchecked Sendable {
    // Written once, before any get.
    var a: ServiceAsyncProvider<NodeA>!
    var b: ServiceAsyncProvider<NodeB>!
}

/// An async factory that counts its calls, waits for `gate` when given, and fails the first
/// `failures` calls.
private func asyncFactory(
    _ counter: Counter,
    gate: AsyncGate? = nil,
    failures: Int = 0
) -> @Sendable () async throws -> Service {
    return {
        let call = counter.increment()
        await gate?.wait()
        if call <= failures { throw TestError(code: call) }
        return Service(number: call)
    }
}

/// Whether `error` is that of a get whose task was cancelled before the service was ready, with
/// the message that says so (not the one of a factory that threw `CancellationError`).
private func isCancellation(_ error: ServiceObtainError?) -> Bool {
    error?.error is CancellationError && sameType(error?.service, Service.self)
        && error?.description
            == "Failed to obtain service \(TypeName.of(Service.self)) with error: cancelled: the task that asked was cancelled "
            + "before the service was ready; a making that had started goes on for the other gets"
}

@Suite("Async providers")
struct AsyncProviderTests {
    @Test("An instance provider gives its service without a factory")
    func instance() async throws {
        let service = Service(number: 5)
        let provider = ServiceAsyncProvider(service)
        #expect(try await provider.getService() === service)
        #expect(await provider.getServiceAsOptional() === service)
        #expect(try await provider.getServiceAsResult().get() === service)
        #expect(await provider.getServiceOrFatal() === service)
    }

    @Test("getServiceOrFatal stops the program with the fatal message, at the caller's line")
    func orFatal() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let provider = ServiceAsyncProvider<Int>(mode: .lazy) { throw TestError(code: 41) }
            _ = await provider.getServiceOrFatal(line: 4_141)
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains(":4141: Fatal error: Failed to obtain service Swift.Int with error: TestError(code: 41)"))
        }
    }

    @Test("An atOne making starts when the provider is made, and every get awaits it")
    func atOne() async throws {
        try await withAsyncTimeLimit { () async throws in
            let counter = Counter()
            let gate = AsyncGate()
            let provider = ServiceAsyncProvider(mode: .atOne, factory: asyncFactory(counter, gate: gate))
            await eventually { counter.value == 1 }  // started without a get
            async let first = provider.getService()
            async let second = provider.getService()
            gate.open()
            let services = try await [first, second]
            #expect(services[0] === services[1])
            #expect(try await provider.getService() === services[0])
            #expect(counter.value == 1)
        }
    }

    @Test("A failed atOne making gives its error to every get and is not retried")
    func atOneFailure() async throws {
        let counter = Counter()
        let provider = ServiceAsyncProvider(mode: .atOne, factory: asyncFactory(counter, failures: 1))
        for _ in 0..<3 {
            let error = await #expect(throws: ServiceObtainError.self) { try await provider.getService() }
            #expect(error?.error as? TestError == TestError(code: 1))
        }
        #expect(counter.value == 1)
    }

    @Test("1,000 concurrent first gets of a lazy service suspend, and it is made once")
    func lazyThousandWaiters() async throws {
        try await withAsyncTimeLimit(seconds: 30) { () async throws in
            let counter = Counter()
            let entered = Counter()
            // The factory finishes only once every get has started: gets that blocked their
            // threads would stop the others from starting on the cooperative pool, and hang.
            let provider = ServiceAsyncProvider<Service>(mode: .lazy) {
                counter.increment()
                await eventually { entered.value == 1_000 }
                return Service(number: 1)
            }
            let numbers = await withTaskGroup(of: Int?.self) { group in
                for _ in 0..<1_000 {
                    group.addTask {
                        entered.increment()
                        return await provider.getServiceAsOptional().map { ObjectIdentifier($0).hashValue }
                    }
                }
                return await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            #expect(numbers.count == 1_000)
            #expect(!numbers.contains(nil))
            #expect(Set(numbers).count == 1)
            #expect(counter.value == 1)
        }
    }

    @Test("Every waiter of a failed lazy making gets its error, and the next get tries again")
    func lazyFailure() async throws {
        try await withAsyncTimeLimit { () async throws in
            let counter = Counter()
            let gate = AsyncGate()
            let provider = ServiceAsyncProvider(mode: .lazy, factory: asyncFactory(counter, gate: gate, failures: 1))
            // The gets' tasks run on an executor of their own, which is idle once every one of
            // them is suspended: each waits for the making (a get still to run would make anew
            // after the failure).
            let gets = ThreadPerJobExecutor()
            let results = await withTaskGroup(of: Result<Service, ServiceObtainError>.self) { group in
                for _ in 0..<20 {
                    group.addTask(executorPreference: gets) { await provider.getServiceAsResult() }
                }
                await eventually { counter.value == 1 && gets.isIdle }
                gate.open()
                return await group.reduce(into: [Result<Service, ServiceObtainError>]()) { $0.append($1) }
            }
            let codes = results.map { result -> Int? in
                guard case .failure(let error) = result else { return nil }
                return (error.error as? TestError)?.code
            }
            #expect(codes == Array(repeating: 1, count: 20))
            #expect(try await provider.getService().number == 2)
            #expect(try await provider.getService().number == 2)
            #expect(counter.value == 2)
        }
    }

    @Test("A lazy provider releases its factory once the service is made")
    func lazyReleasesFactory() async throws {
        let source = AsyncLazySource<Service> { Service(number: 1) }
        #expect(source.holdsFactory)
        _ = try await source.get()
        #expect(!source.holdsFactory)
        #expect(source.cell.value?.number == 1)
    }

    @Test("A weak service is made once for concurrent gets, and again once it died")
    func weak() async throws {
        try await withAsyncTimeLimit { () async throws in
            let counter = Counter()
            let gate = AsyncGate()
            let provider = ServiceAsyncProvider(mode: .weak, factory: asyncFactory(counter, gate: gate))
            // Called in a function of its own, so that nothing holds the services after it.
            @Sendable func concurrentGets() async throws -> Bool {
                async let first = provider.getService()
                async let second = provider.getService()
                await eventually { counter.value == 1 }
                gate.open()
                let held = try await first
                let again = try await provider.getService()
                return try await second === held && again === held
            }
            #expect(try await concurrentGets())
            #expect(counter.value == 1)
            #expect(try await provider.getService().number == 2)
        }
    }

    @Test("A task a weak factory started gets the held service once the making ended")
    func taskStartedByWeakFactory() async throws {
        final class Wiring: @unchecked Sendable {
            // Written once, before any get.
            var provider: ServiceAsyncProvider<NodeA>!
        }
        try await withAsyncTimeLimit { () async throws in
            let wiring = Wiring()
            let gate = AsyncGate()
            let started = Locked<Task<Result<NodeA, ServiceObtainError>, Never>?>(nil)
            wiring.provider = ServiceAsyncProvider<NodeA>(mode: .weak) {
                // The task keeps the making's context, which marks this provider as being made.
                let task = Task {
                    await gate.wait()
                    return await wiring.provider.getServiceAsResult()
                }
                started.withLock { $0 = task }
                return NodeA()
            }
            let held = try await wiring.provider.getService()
            gate.open()
            let task = try #require(started.withLock { $0 })
            let result = await task.value
            #expect(try result.get() === held)
        }
    }

    @Test("A weak value service is shared by one making's waiters and made again after")
    func weakValue() async throws {
        let counter = Counter()
        let provider = ServiceAsyncProvider<Int>(mode: .weak) { counter.increment() }
        #expect(try await provider.getService() == 1)
        #expect(try await provider.getService() == 2)
    }

    @Test("A many provider makes a service on every get")
    func many() async throws {
        let counter = Counter()
        let provider = ServiceAsyncProvider(mode: .many, factory: asyncFactory(counter))
        let numbers = try await withAsyncTimeLimit {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask { (try? await provider.getService().number) ?? 0 }
                }
                return await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
        }
        #expect(numbers == Set(1...10))
    }

    @Test("A factory type's mode decides how its service is kept")
    func factoryType() async throws {
        struct LazyFactory: ServiceAsyncFactory {
            let counter: Counter
            let mode: ServiceFactoryMode = .lazy
            func makeService() async throws -> Service { Service(number: counter.increment()) }
        }
        let counter = Counter()
        let provider = LazyFactory(counter: counter).serviceAsyncProvider()
        #expect(try await provider.getService() === provider.getService())
        #expect(counter.value == 1)
    }

    @Test("A synchronous provider is got through an async one")
    func wrapsSyncProvider() async throws {
        let counter = Counter()
        let lazy = ServiceProvider(mode: .lazy, factory: countingFactory(counter))
        let provider = ServiceAsyncProvider(lazy)
        #expect(try await provider.getService() === lazy.getService())
        #expect(counter.value == 1)
        let service = Service()
        #expect(try await ServiceAsyncProvider(ServiceProvider(service)).getService() === service)
        let failing = ServiceAsyncProvider(ServiceProvider(mode: .many, factory: countingFactory(Counter(), failures: 1)))
        let error = await #expect(throws: ServiceObtainError.self) { try await failing.getService() }
        #expect(error?.error as? TestError == TestError(code: 1))
    }
}

/// The service a factory made last, held weakly.
private final class LastMade: Sendable {
    private struct State {
        weak var service: Service?
        var wasMade = false
    }

    private let state = Mutex(State())

    func keep(_ service: Service) {
        state.withLock { $0 = State(service: service, wasMade: true) }
    }

    /// Whether a service was made and has died since.
    var died: Bool {
        state.withLock { $0.wasMade && $0.service == nil }
    }
}

/// An actor on a `QueueExecutor` that a test suspends, which gets services.
private actor SuspendableCaller {
    let executor = QueueExecutor(label: "AsyncCancellationTests")

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    func get(_ provider: ServiceAsyncProvider<Service>, entered: Counter) async -> Result<Service, ServiceObtainError> {
        entered.increment()
        return await provider.getServiceAsResult()
    }

    /// A get of `provider` on a new caller, whose executor is suspended once the get waits for
    /// the making: the get's task cannot run again before `caller.executor.queue.resume()`.
    static func heldGet(
        of provider: ServiceAsyncProvider<Service>
    ) async -> (caller: SuspendableCaller, get: Task<Result<Service, ServiceObtainError>, Never>) {
        let caller = SuspendableCaller()
        let entered = Counter()
        let get = Task { await caller.get(provider, entered: entered) }
        await eventually { entered.value == 1 }
        caller.executor.queue.sync {}  // the job that entered ran on: the get waits for the making
        caller.executor.queue.suspend()
        return (caller, get)
    }
}

/// A `lazy` provider whose making a task started and that waits for `gate`; `counter` counts
/// its makings.
private func startedLazyMaking() async -> (
    provider: ServiceAsyncProvider<Service>, counter: Counter, gate: AsyncGate,
    starter: Task<Result<Service, ServiceObtainError>, Never>
) {
    let counter = Counter()
    let gate = AsyncGate()
    let provider = ServiceAsyncProvider(mode: .lazy, factory: asyncFactory(counter, gate: gate))
    let starter = Task { await provider.getServiceAsResult() }
    await eventually { counter.value == 1 }
    return (provider, counter, gate, starter)
}

@Suite("Async providers: cancellation")
struct AsyncCancellationTests {
    @Test("Cancelling the task that started a making fails only that task; the others get the service")
    func starterCancelled() async throws {
        try await withAsyncTimeLimit { () async throws in
            let (provider, counter, gate, starter) = await startedLazyMaking()
            let others = (0..<5).map { _ in Task { await provider.getServiceAsResult() } }
            try? await Task.sleep(for: .milliseconds(20))  // let the others start waiting
            starter.cancel()
            // The starter stops waiting at once, while the making still waits for the gate.
            let starterResult = await starter.value
            #expect(isCancellation(starterResult.failure))
            gate.open()
            var made: [Service] = []
            for other in others {
                made.append(try await other.value.get())
            }
            #expect(made.allSatisfy { $0 === made[0] })
            // The service is kept: the next get reads it.
            #expect(try await provider.getService() === made[0])
            #expect(counter.value == 1)
        }
    }

    @Test("A cancelled waiter stops waiting at once; the making goes on for nobody and is kept")
    func onlyWaiterCancelled() async throws {
        try await withAsyncTimeLimit { () async throws in
            let counter = Counter()
            let gate = AsyncGate()
            let provider = ServiceAsyncProvider(mode: .lazy, factory: asyncFactory(counter, gate: gate))
            let waiter = Task { await provider.getServiceAsResult() }
            await eventually { counter.value == 1 }
            waiter.cancel()
            #expect(isCancellation(await waiter.value.failure))
            gate.open()
            #expect(try await provider.getService().number == 1)
            #expect(counter.value == 1)
        }
    }

    @Test("A cancelled waiter whose executor is busy keeps no weak service alive")
    func cancelledWaiterOnBusyExecutor() async throws {
        try await withAsyncTimeLimit { () async throws in
            // A cancelled get held the making, which kept its result, until its task ran again:
            // here, until its actor's executor was free.
            let counter = Counter()
            let gate = AsyncGate()
            let made = LastMade()
            let provider = ServiceAsyncProvider<Service>(mode: .weak) {
                let call = counter.increment()
                await gate.wait()
                let service = Service(number: call)
                made.keep(service)
                return service
            }
            let starter = Task { await provider.getServiceAsResult() }
            await eventually { counter.value == 1 }
            let (caller, waiter) = await SuspendableCaller.heldGet(of: provider)
            waiter.cancel()
            starter.cancel()
            #expect(isCancellation(await starter.value.failure))
            gate.open()
            // Nobody takes the service: it dies as the making ends, while the waiter's task
            // still waits for its executor.
            var waited = 0
            while !made.died, waited < 2_000 {
                try? await Task.sleep(for: .milliseconds(1))
                waited += 1
            }
            let diedWhileTheWaiterWaited = made.died
            caller.executor.queue.resume()
            #expect(isCancellation(await waiter.value.failure))
            #expect(diedWhileTheWaiterWaited)
            #expect(try await provider.getService().number == 2)
        }
    }

    @Test("A waiter cancelled once the service was handed over, before its task ran again, gets the service")
    func cancelledAfterHandOver() async throws {
        try await withAsyncTimeLimit { () async throws in
            let (provider, counter, gate, starter) = await startedLazyMaking()
            let (caller, waiter) = await SuspendableCaller.heldGet(of: provider)
            gate.open()
            // The starter has the service once it is handed over, to the waiter too, whose task
            // cannot run before its executor is resumed.
            let made = try await starter.value.get()
            waiter.cancel()
            caller.executor.queue.resume()
            #expect(try await waiter.value.get() === made)
            #expect(counter.value == 1)
        }
    }

    @Test("A cancelled task gets a ready service, but does not start a making")
    func cancelledTask() async throws {
        let counter = Counter()
        let lazy = ServiceAsyncProvider(mode: .lazy, factory: asyncFactory(counter))
        let weak = ServiceAsyncProvider(mode: .weak, factory: asyncFactory(counter))
        let ready = ServiceAsyncProvider(Service(number: 9))
        // A cancelled get that waited instead of failing at once would wait for ever.
        let results = try await withAsyncTimeLimit {
            await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return [
                    await lazy.getServiceAsResult(),
                    await weak.getServiceAsResult(),
                    await ready.getServiceAsResult(),
                ]
            }.value
        }
        #expect(isCancellation(results[0].failure))
        #expect(isCancellation(results[1].failure))
        #expect(try results[2].get().number == 9)
        #expect(counter.value == 0)
    }

    @Test("A task cancelled just as it starts to wait gets the cancellation, not a hang")
    func cancelledWhileJoining() async throws {
        try await withAsyncTimeLimit { () async throws in
            let gate = AsyncGate()
            let provider = ServiceAsyncProvider(mode: .atOne, factory: asyncFactory(Counter(), gate: gate))
            for _ in 0..<200 {
                let waiter = Task { await provider.getServiceAsResult() }
                waiter.cancel()
                #expect(isCancellation(await waiter.value.failure))
            }
            gate.open()
            #expect(try await provider.getService().number == 1)
        }
    }

    @Test("A many factory runs in the caller's task and sees its cancellation")
    func manySeesCancellation() async throws {
        let provider = ServiceAsyncProvider<Service>(mode: .many) {
            try Task.checkCancellation()
            return Service()
        }
        let result = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await provider.getServiceAsResult()
        }.value
        #expect(result.failure?.error is CancellationError)
        #expect(
            result.failure?.description
                == "Failed to obtain service \(TypeName.of(Service.self)) with error: cancelled: the factory threw CancellationError "
                + "(it threw it itself, or passed on the cancellation of the task it ran in or of a task it awaited)"
        )
    }
}

@Suite("Async providers: dependency cycles")
struct AsyncCycleTests {
    @Test("An async provider that awaits itself fails with a cycle", arguments: [
        ServiceFactoryMode.atOne, .lazy, .weak, .many,
    ])
    func direct(mode: ServiceFactoryMode) async throws {
        try await withAsyncTimeLimit { () async throws in
            let graph = AsyncGraph()
            let wired = AsyncGate()
            graph.a = ServiceAsyncProvider(mode: mode) {
                await wired.wait()
                _ = try await graph.a.getService()
                return NodeA()
            }
            wired.open()
            let error = await #expect(throws: ServiceObtainError.self) { try await graph.a.getService() }
            #expect(error?.isDependencyCycle == true)
            #expect(typeList(error?.pathServices ?? []) == typeList([NodeA.self, NodeA.self]))
        }
    }

    @Test("Two async providers that await each other show both in the path", arguments: [
        ServiceFactoryMode.lazy, .weak, .many,
    ])
    func twoProviders(mode: ServiceFactoryMode) async throws {
        try await withAsyncTimeLimit { () async throws in
            let graph = AsyncGraph()
            graph.a = ServiceAsyncProvider(mode: mode) {
                _ = try await graph.b.getService()
                return NodeA()
            }
            graph.b = ServiceAsyncProvider(mode: .lazy) {
                _ = try await graph.a.getService()
                return NodeB()
            }
            let error = await #expect(throws: ServiceObtainError.self) { try await graph.a.getService() }
            #expect(error?.isDependencyCycle == true)
            #expect(typeList(error?.pathServices ?? []) == typeList([NodeA.self, NodeB.self, NodeA.self]))
            guard case .dependencyCycle(let service)? = error?.error as? ServiceFactoryError else {
                Issue.record("expected dependencyCycle, got \(String(describing: error))")
                return
            }
            #expect(sameType(service, NodeA.self))
        }
    }

    @Test("Two makings started by different tasks that await each other fail instead of hanging")
    func acrossTasks() async throws {
        try await withAsyncTimeLimit { () async throws in
            let graph = AsyncGraph()
            let started = Counter()
            graph.a = ServiceAsyncProvider(mode: .lazy) {
                started.increment()
                await eventually { started.value == 2 }
                _ = try await graph.b.getService()
                return NodeA()
            }
            graph.b = ServiceAsyncProvider(mode: .lazy) {
                started.increment()
                await eventually { started.value == 2 }
                _ = try await graph.a.getService()
                return NodeB()
            }
            async let a = graph.a.getServiceAsResult()
            async let b = graph.b.getServiceAsResult()
            let (resultA, resultB) = await (a, b)
            // Each path shows the whole cycle, whichever task's wait closed the loop: the task
            // that did gets [A, B, A]; the other awaited that making, and gets its error with
            // its own service in front ([B, A, B, A]), or met the cycle itself ([B, A, B]).
            let outcomes = [resultA.map { _ in () }, resultB.map { _ in () }].map { result in
                let error = result.failure
                let named = (error?.error as? ServiceFactoryError).flatMap { cause -> Any.Type? in
                    if case .dependencyCycle(let service) = cause { return service }
                    return nil
                }
                return typeList(error?.pathServices ?? []) + ["named " + (named.map { String(describing: $0) } ?? "nothing")]
            }
            let closedByA = [["NodeA", "NodeB", "NodeA", "named NodeA"], ["NodeB", "NodeA", "NodeB", "NodeA", "named NodeA"]]
            let closedByB = [["NodeA", "NodeB", "NodeA", "NodeB", "named NodeB"], ["NodeB", "NodeA", "NodeB", "named NodeB"]]
            let metByBoth = [["NodeA", "NodeB", "NodeA", "named NodeA"], ["NodeB", "NodeA", "NodeB", "named NodeB"]]
            #expect([closedByA, closedByB, metByBoth].contains(outcomes), "\(outcomes)")
        }
    }

    @Test(
        "Work a factory starts with Task {} belongs to its making, which may await it; Task.detached work does not",
        arguments: [false, true]
    )
    func startedTasks(detached: Bool) async throws {
        try await withAsyncTimeLimit { () async throws in
            let graph = AsyncGraph()
            let warmUp = Locked<Task<Result<NodeB, ServiceObtainError>, Never>?>(nil)
            graph.a = ServiceAsyncProvider(mode: .lazy) {
                // A get of B, whose factory gets A: awaited by A's making when started with
                // Task {} (a cycle, which must not hang), not awaited when detached.
                let task =
                    detached
                    ? Task.detached { await graph.b.getServiceAsResult() } : Task { await graph.b.getServiceAsResult() }
                warmUp.withLock { $0 = task }
                if !detached {
                    _ = await task.value
                }
                return NodeA()
            }
            graph.b = ServiceAsyncProvider(mode: .lazy) {
                _ = try await graph.a.getService()
                return NodeB()
            }
            _ = try await graph.a.getService()
            let result = await warmUp.withLock { $0 }!.value
            if detached {
                #expect(result.failure == nil)
            } else {
                // The task inherits the task-local chain, A in it: B's get of A is a cycle.
                // (Were it not a cycle, A's making would wait for ever for B's, and B's for A's.)
                #expect(result.failure?.isDependencyCycle == true)
                #expect(result.failure.map { typeList($0.pathServices) } == typeList([NodeB.self, NodeA.self]))
            }
        }
    }

    @Test(
        "A task a factory started with Task {} that gets the provider once the making has ended gets the service",
        arguments: [ServiceFactoryMode.lazy, .weak, .many]
    )
    func taskOutlivesTheMaking(mode: ServiceFactoryMode) async throws {
        try await withAsyncTimeLimit { () async throws in
            let graph = AsyncGraph()
            let later = Locked<Task<Result<NodeA, ServiceObtainError>, Never>?>(nil)
            let makings = Counter()
            let madeFirst = AsyncGate()
            graph.a = ServiceAsyncProvider(mode: mode) {
                if makings.increment() == 1 {
                    // Runs once this making is over: a retry (lazy, after the failure), a new
                    // service (weak, once the first died; many), never a cycle.
                    later.withLock {
                        $0 = Task {
                            await madeFirst.wait()
                            return await graph.a.getServiceAsResult()
                        }
                    }
                    if mode == .lazy { throw TestError() }
                }
                return NodeA()
            }
            do {
                let first = await graph.a.getServiceAsResult()  // released at the end of this block
                #expect((first.failure != nil) == (mode == .lazy))
            }
            madeFirst.open()
            let result = await later.withLock { $0 }!.value
            #expect(result.failure == nil, "\(result.failure?.fatalMessage ?? "")")
            #expect(makings.value == 2)
        }
    }

    @Test("A task a nested making started belongs to the outer making while it runs: awaited there, a cycle")
    func taskOfANestedMakingAwaitedOutside() async throws {
        try await withAsyncTimeLimit { () async throws in
            final class Holder: @unchecked Sendable {
                // Written once, before any get.
                var outer: ServiceAsyncProvider<NodeA>!
            }
            let holder = Holder()
            // A `many` making that starts a task and ends at once; the task gets the outer service.
            let starter = ServiceAsyncProvider<Task<Result<NodeA, ServiceObtainError>, Never>>(mode: .many) {
                Task { await holder.outer.getServiceAsResult() }
            }
            holder.outer = ServiceAsyncProvider<NodeA>(mode: .lazy) {
                let task = try await starter.getService()
                if case .failure(let error) = await task.value { throw error }
                return NodeA()
            }
            let result = await holder.outer.getServiceAsResult()
            #expect(result.failure?.isDependencyCycle == true)
            #expect(result.failure.map { typeList($0.pathServices) } == typeList([NodeA.self, NodeA.self]))
        }
    }

    @Test("An async singleton made in a request's scope does not hand that scope to its factory, nor to tasks it starts")
    func singletonMakingLeavesTheRequestScope() async throws {
        try await withAsyncTimeLimit { () async throws in
            let requestLog = ServiceProvider<NodeB>(mode: .scoped) { NodeB() }
            let seen = Locked<[String]>([])
            let background = Locked<Task<String, Never>?>(nil)
            let made = AsyncGate()
            let worker = ServiceAsyncProvider<NodeA>(mode: .lazy) {
                seen.withLock { $0.append("factory: \(ServiceScope.current?.label ?? "no scope")") }
                background.withLock {
                    $0 = Task {
                        await made.wait()
                        let scope = ServiceScope.current?.label ?? "no scope"
                        guard case .scopeRequired? = requestLog.getServiceAsResult().failure?.error as? ServiceFactoryError else {
                            return "\(scope), got a scoped service"
                        }
                        return "\(scope), scopeRequired"
                    }
                }
                return NodeA()
            }
            try await withServiceScope(label: "request 1") {
                _ = try requestLog.getService()
                _ = try await worker.getService()
            }
            made.open()
            #expect(seen.withLock { $0 } == ["factory: no scope"])
            #expect(await background.withLock { $0 }!.value == "no scope, scopeRequired")
        }
    }

    @Test("A task a singleton's factory started opens a scope of its own once the making has ended")
    func taskOfASingletonGetsScopedServicesLater() async throws {
        try await withAsyncTimeLimit { () async throws in
            let scopedAsync = ServiceAsyncProvider<NodeB>(mode: .scoped) { NodeB() }
            let scopedSync = ServiceProvider<NodeB>(mode: .scoped) { NodeB() }
            let later = Locked<Task<(Bool, Bool), Never>?>(nil)
            let made = AsyncGate()
            let worker = ServiceAsyncProvider<NodeA>(mode: .lazy) {
                later.withLock {
                    $0 = Task {
                        await made.wait()
                        return await withServiceScope {
                            (await scopedAsync.getServiceAsResult().failure == nil, scopedSync.getServiceAsResult().failure == nil)
                        }
                    }
                }
                return NodeA()
            }
            _ = try await worker.getService()
            made.open()
            let (asyncGot, syncGot) = await later.withLock { $0 }!.value
            #expect(asyncGot)
            #expect(syncGot)
        }
    }

    @Test("Async providers that share a dependency are not a cycle")
    func diamond() async throws {
        let shared = ServiceAsyncProvider<NodeB>(mode: .lazy) { NodeB() }
        let left = ServiceAsyncProvider<NodeA>(mode: .lazy) { _ = try await shared.getService(); return NodeA() }
        let right = ServiceAsyncProvider<NodeA>(mode: .many) {
            _ = try await shared.getService()
            _ = try await left.getService()
            return NodeA()
        }
        // Two makings that share a dependency, taken for a cycle, could wait for each other.
        let (one, two) = try await withAsyncTimeLimit {
            async let first = right.getService()
            async let second = right.getService()
            return try await (first, second)
        }
        #expect(one !== two)
    }

    @Test("A wait that outlives the making whose task began it is not taken for a loop of later makings")
    func waitOutlivingItsMaking() async throws {
        final class Wiring: @unchecked Sendable {
            // Written once, before any get.
            var later: ServiceAsyncProvider<NodeB>!
        }
        // The task that `first`'s factory starts waits for `later` after `first`'s making ended
        // and was released. A making of `NodeC` made at the same address while `later`'s
        // factory awaits it took over that wait, and `later` seemed to wait for itself.
        try await withAsyncTimeLimit(seconds: 60) { () async throws in
            for _ in 0..<40 {
                let wiring = Wiring()
                let laterStarted = AsyncGate()
                let waitStarted = AsyncGate()
                let firstEnded = AsyncGate()
                let background = Locked<Task<Result<NodeB, ServiceObtainError>, Never>?>(nil)
                wiring.later = ServiceAsyncProvider<NodeB>(mode: .lazy) {
                    laterStarted.open()
                    await firstEnded.wait()
                    for _ in 0..<32 {
                        let fresh = ServiceAsyncProvider<NodeC>(mode: .lazy) { await Task.yield(); return NodeC() }
                        _ = try await fresh.getService()
                    }
                    return NodeB()
                }
                let first = ServiceAsyncProvider<NodeA>(mode: .lazy) {
                    let task = Task {
                        waitStarted.open()
                        return await wiring.later.getServiceAsResult()
                    }
                    background.withLock { $0 = task }
                    await waitStarted.wait()
                    try? await Task.sleep(for: .milliseconds(2))  // the task waits for `later` now
                    return NodeA()
                }
                let laterGet = Task { await wiring.later.getServiceAsResult() }
                await laterStarted.wait()
                _ = try await first.getService()
                firstEnded.open()
                let got = await laterGet.value
                #expect(throws: Never.self) { try got.get() }
                let task = try #require(background.withLock { $0 })
                let waited = await task.value
                #expect(throws: Never.self) { try waited.get() }
            }
        }
    }

    @Test("An atOne provider made inside a making waits for that making's service: not a cycle")
    func atOneMadeInsideAMaking() async throws {
        final class Wiring: @unchecked Sendable {
            // Written once, in A's making, before B's factory reads it.
            var b: ServiceAsyncProvider<NodeB>?
        }
        // As a global `atOne` provider whose first use is in another factory: A's making makes
        // B and never awaits it; B's making awaits A. It was taken for A's making leading back
        // to A, and B kept that error for good.
        try await withAsyncTimeLimit { () async throws in
            let graph = AsyncGraph()
            let wiring = Wiring()
            graph.a = ServiceAsyncProvider(mode: .lazy) {
                wiring.b = ServiceAsyncProvider(mode: .atOne) {
                    _ = try await graph.a.getService()
                    return NodeB()
                }
                try await Task.sleep(for: .milliseconds(50))  // B's making waits for A's
                return NodeA()
            }
            let a = try await graph.a.getService()
            let b = try #require(wiring.b)
            await #expect(throws: Never.self) { try await b.getService() }
            #expect(try await graph.a.getService() === a)
        }
    }

    @Test(
        "A factory that makes an atOne provider and awaits it, whose factory gets the first service, fails as a cycle",
        arguments: [ServiceFactoryMode.lazy, .many]
    )
    func awaitingAnAtOneItMade(mode: ServiceFactoryMode) async throws {
        // `lazy`: the two makings wait for each other, a loop of waits. `many` makes no making
        // to wait for: each call would make a new B, whose factory gets a new A, until memory
        // ran out, were the gets around B's making not counted.
        try await withAsyncTimeLimit { () async throws in
            let graph = AsyncGraph()
            let calls = Counter()
            graph.a = ServiceAsyncProvider(mode: mode) {
                guard calls.increment() <= 50 else { throw TestError(code: 50) }
                let b = ServiceAsyncProvider<NodeB>(mode: .atOne) {
                    _ = try await graph.a.getService()
                    return NodeB()
                }
                _ = try await b.getService()
                return NodeA()
            }
            let error = await #expect(throws: ServiceObtainError.self) { try await graph.a.getService() }
            #expect(error?.isDependencyCycle == true, "\(String(describing: error))")
            #expect(calls.value == 1)
            if mode == .many {  // a loop of waits is closed by whichever wait comes last
                #expect(typeList(error?.pathServices ?? []) == typeList([NodeA.self, NodeB.self, NodeA.self]))
            }
        }
    }

    @Test("A wait that a cancelled get gave up is no link of a later loop")
    func cancelledWaitIsNoLink() async throws {
        try await withAsyncTimeLimit { () async throws in
            let graph = AsyncGraph()
            let aStarted = AsyncGate()
            let letAGo = AsyncGate()
            let probed = AsyncGate()
            let asked = Counter()
            let probe = Locked<Result<NodeA, ServiceObtainError>?>(nil)
            graph.a = ServiceAsyncProvider(mode: .lazy) {
                aStarted.open()
                await letAGo.wait()
                asked.increment()
                _ = try await graph.b.getService()
                return NodeA()
            }
            graph.b = ServiceAsyncProvider(mode: .lazy) {
                // A task of B's making waits for A's making, and stops waiting at once: cancelled.
                let result = await Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return await graph.a.getServiceAsResult()
                }.value
                probe.withLock { $0 = result }
                probed.open()
                // B is made once A's making has asked for it: A waits for B, which waits for nothing.
                await eventually { asked.value == 1 }
                try? await Task.sleep(for: .milliseconds(50))
                return NodeB()
            }
            let aGet = Task { await graph.a.getServiceAsResult() }
            await aStarted.wait()
            let bGet = Task { await graph.b.getServiceAsResult() }
            await probed.wait()
            letAGo.open()
            let a = await aGet.value
            let b = await bGet.value
            #expect(probe.withLock { $0 }?.failure?.error is CancellationError)
            #expect(a.failure == nil, "\(a.failure?.fatalMessage ?? "")")
            #expect(b.failure == nil, "\(b.failure?.fatalMessage ?? "")")
        }
    }
}

@Suite("Async params providers")
struct AsyncParamsProviderTests {
    @Test("A service is made for the params of each get, and convert(params:) binds them")
    func params() async throws {
        let provider = ServiceAsyncParamsProvider<Service, Int> { number in Service(number: number) }
        #expect(try await provider.getService(params: 3).number == 3)
        #expect(await provider.getServiceAsOptional(params: 4)?.number == 4)
        #expect(try await provider.getServiceAsResult(params: 5).get().number == 5)
        #expect(await provider.getServiceOrFatal(params: 7).number == 7)
        let bound = provider.convert(params: 6)
        #expect(try await bound.getService().number == 6)
        #expect(try await bound.getService() !== bound.getService())
    }

    @Test("A provider with optional params gets its service without params, for nil")
    func optionalParamsWithoutParams() async throws {
        let provider = ServiceAsyncParamsProvider<Service, Int?> { number in
            guard let number else { throw TestError(code: 9) }
            return Service(number: number)
        }
        #expect(await provider.getServiceAsOptional() == nil)
        #expect(await provider.getServiceAsResult().failure?.error as? TestError == TestError(code: 9))
        await #expect(throws: ServiceObtainError.self) { try await provider.getService() }
        let orZero = ServiceAsyncParamsProvider<Service, Int?> { number in Service(number: number ?? 0) }
        #expect(try await orZero.getService().number == 0)
        #expect(await orZero.getServiceOrFatal().number == 0)
    }

    @Test("getServiceOrFatal(params:) and, for nil params, getServiceOrFatal() stop the program with the fatal message, at the caller's line")
    func orFatal() async {
        let withParams = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let provider = ServiceAsyncParamsProvider<Int, Int?> { _ in throw TestError(code: 42) }
            _ = await provider.getServiceOrFatal(params: 1, line: 4_242)
        }
        let withoutParams = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let provider = ServiceAsyncParamsProvider<Int, Int?> { _ in throw TestError(code: 42) }
            _ = await provider.getServiceOrFatal(line: 4_242)
        }
        for result in [withParams, withoutParams] {
            let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(stderr.contains(":4242: Fatal error: Failed to obtain service Swift.Int with error: TestError(code: 42)"))
        }
    }

    @Test("A params factory type makes the service; its errors name the service")
    func factoryType() async throws {
        struct NumberFactory: ServiceAsyncParamsFactory {
            func makeService(params: Int) async throws -> Service {
                guard params >= 0 else { throw TestError(code: params) }
                return Service(number: params)
            }
        }
        let provider = NumberFactory().serviceAsyncProvider()
        #expect(try await provider.getService(params: 1).number == 1)
        let error = await #expect(throws: ServiceObtainError.self) { try await provider.getService(params: -2) }
        #expect(error?.error as? TestError == TestError(code: -2))
        #expect(sameType(error?.service, Service.self))
        #expect(await provider.getServiceAsOptional(params: -1) == nil)
        #expect(await provider.getServiceAsResult(params: -1).failure?.error as? TestError == TestError(code: -1))
    }

    @Test("A converted provider whose factory asks its params provider fails with a cycle")
    func cycle() async throws {
        final class Holder: @unchecked Sendable {
            // Written once, before any get.
            var provider: ServiceAsyncParamsProvider<Service, Int>!
        }
        let holder = Holder()
        holder.provider = ServiceAsyncParamsProvider { number in
            _ = try await holder.provider.getService(params: number)
            return Service(number: number)
        }
        let result = try await withAsyncTimeLimit { await holder.provider.convert(params: 1).getServiceAsResult() }
        let error = result.failure
        #expect(error?.isDependencyCycle == true)
        #expect(typeList(error?.pathServices ?? []) == typeList([Service.self, Service.self]))
    }
}

extension Result {
    /// The error of a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
