import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

private final class NodeA: Sendable {}
private final class NodeB: Sendable {}
private final class NodeC: Sendable {}

/// Providers that are wired after they are made, so that they can form a cycle.
private final class Graph: @unchecked Sendable {
    // Written once, before any get.
    var a: ServiceProvider<NodeA>!
    var b: ServiceProvider<NodeB>!
    var c: ServiceProvider<NodeC>!
}

private func expectCycle(_ error: ServiceObtainError?, path: [Any.Type], repeated: Any.Type) {
    #expect(error?.isDependencyCycle == true)
    #expect(error?.isFactoryError == true)
    #expect(typeList(error?.pathServices ?? []) == typeList(path))
    guard case .dependencyCycle(let service)? = error?.error as? ServiceFactoryError else {
        Issue.record("expected dependencyCycle, got \(String(describing: error))")
        return
    }
    #expect(sameType(service, repeated))
    let name = TypeName.of
    #expect(
        error?.fatalMessage
            == "Failed to obtain service \(name(path[0])): dependency cycle: the making of \(name(repeated)) "
            + "led back to a get of \(name(repeated)); break the cycle: get one of the services on its path where it is used, not in a factory or a session hook. Path: \(path.map(name).joined(separator: " -> "))"
    )
}

// A cycle that is not caught makes a get wait for its own making (or loop for ever): every get
// that closes a cycle runs with a time limit.
@Suite("Dependency cycles")
struct CycleTests {
    @Test("A provider that asks for itself fails with a cycle", arguments: [
        ServiceFactoryMode.lazy, .weak, .many,
    ])
    func direct(mode: ServiceFactoryMode) throws {
        let graph = Graph()
        graph.a = ServiceProvider(mode: mode) {
            _ = try graph.a.getService()
            return NodeA()
        }
        let (first, next) = try withTimeLimit { (graph.a.getServiceAsResult(), graph.a.getServiceAsResult()) }
        expectCycle(first.failure, path: [NodeA.self, NodeA.self], repeated: NodeA.self)
        // The provider stays usable: the next get fails the same way instead of hanging.
        expectCycle(next.failure, path: [NodeA.self, NodeA.self], repeated: NodeA.self)
    }

    @Test("A cycle through two providers shows both in the path", arguments: [
        ServiceFactoryMode.lazy, .weak, .many,
    ])
    func twoProviders(mode: ServiceFactoryMode) throws {
        let graph = Graph()
        graph.a = ServiceProvider(mode: mode) {
            _ = try graph.b.getService()
            return NodeA()
        }
        graph.b = ServiceProvider(mode: .many) {
            _ = try graph.a.getService()
            return NodeB()
        }
        let result = try withTimeLimit { graph.a.getServiceAsResult() }
        expectCycle(result.failure, path: [NodeA.self, NodeB.self, NodeA.self], repeated: NodeA.self)
    }

    @Test("A cycle through a safe provider fails instead of deadlocking", arguments: safeKinds)
    func throughSafeProvider(kind: ServiceSafeProviderKind) throws {
        let graph = Graph()
        graph.a = ServiceSafeProvider(mode: .many, safeThread: kind) {
            _ = try graph.b.getService()
            return NodeA()
        }
        graph.b = ServiceSafeProvider(mode: .lazy, safeThread: kind) {
            _ = try graph.c.getService()
            return NodeB()
        }
        graph.c = ServiceProvider(mode: .lazy) {
            _ = try graph.a.getService()
            return NodeC()
        }
        let result = try withTimeLimit { graph.b.getServiceAsResult() }
        expectCycle(result.failure, path: [NodeB.self, NodeC.self, NodeA.self, NodeB.self], repeated: NodeB.self)
    }

    @Test(
        "A cycle split between threads fails on each, each path showing the whole cycle",
        .offThePool,
        arguments: [ServiceFactoryMode.lazy, .weak], [2, 3]
    )
    func betweenThreads(mode: ServiceFactoryMode, threads: Int) throws {
        // Thread i makes node i, whose factory gets node i + 1, the last one's node 0.
        let graph = Graph()
        let started = Counter()
        /// The first making of each waits until every thread began one, so that each makes one.
        let meet: @Sendable () -> Void = {
            if started.increment() <= threads { waitUntil { started.value >= threads } }
            Thread.sleep(forTimeInterval: 0.02)  // each thread gets the next service while it is made
        }
        let nodes = Array(([NodeA.self, NodeB.self, NodeC.self] as [Any.Type]).prefix(threads))
        graph.a = ServiceProvider(mode: mode) {
            meet()
            _ = try graph.b.getService()
            return NodeA()
        }
        graph.b = ServiceProvider(mode: mode) {
            meet()
            if threads == 2 { _ = try graph.a.getService() } else { _ = try graph.c.getService() }
            return NodeB()
        }
        graph.c = ServiceProvider(mode: mode) {
            meet()
            _ = try graph.a.getService()
            return NodeC()
        }
        let gets: [@Sendable () -> Result<Void, ServiceObtainError>] = [
            { graph.a.getServiceAsResult().map { _ in () } }, { graph.b.getServiceAsResult().map { _ in () } },
            { graph.c.getServiceAsResult().map { _ in () } },
        ]
        let results = try raceOnThreads(threads) { gets[$0]() }
        // The thread whose wait closes the loop names the service its own making makes, its path
        // going along the services the others wait for; each other thread then makes the service
        // it waited for itself, and meets the cycle again.
        for index in 0..<threads {
            let path = (0...threads).map { nodes[(index + $0) % threads] }
            expectCycle(results[index].failure, path: path, repeated: nodes[index])
        }
    }

    @Test("A cycle between two threads through safe providers fails instead of deadlocking", .offThePool, arguments: safeKinds)
    func betweenThreadsThroughSafeProviders(kind: ServiceSafeProviderKind) throws {
        let graph = Graph()
        let (aEntered, bEntered) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        /// The first call of each factory waits until both hold their serializers.
        func meeting(_ entered: DispatchSemaphore, _ other: DispatchSemaphore) -> @Sendable () -> Void {
            let calls = Counter()
            return {
                guard calls.increment() == 1 else { return }
                entered.signal()
                other.wait()
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        let (aMeets, bMeets) = (meeting(aEntered, bEntered), meeting(bEntered, aEntered))
        graph.a = ServiceSafeProvider(mode: .lazy, safeThread: kind) {
            aMeets()
            _ = try graph.b.getService()
            return NodeA()
        }
        graph.b = ServiceSafeProvider(mode: .lazy, safeThread: kind) {
            bMeets()
            _ = try graph.a.getService()
            return NodeB()
        }
        let gets: [@Sendable () -> Result<Void, ServiceObtainError>] = [
            { graph.a.getServiceAsResult().map { _ in () } }, { graph.b.getServiceAsResult().map { _ in () } },
        ]
        let results = try raceOnThreads(2) { gets[$0]() }
        // The thread that closes the loop fails; the other then meets the cycle on its own thread.
        expectCycle(results[0].failure, path: [NodeA.self, NodeB.self, NodeA.self], repeated: NodeA.self)
        expectCycle(results[1].failure, path: [NodeB.self, NodeA.self, NodeB.self], repeated: NodeB.self)
    }

    @Test("A session hook that asks for its safe provider while another thread holds it fails as a cycle", .offThePool, arguments: safeKinds)
    func sessionHookThroughSafeProvider(kind: ServiceSafeProviderKind) throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = WeakProvider()
        let inHook = DispatchSemaphore(value: 0)
        let otherWaits = DispatchSemaphore(value: 0)
        let hookResult = Locked<Result<SessionService, ServiceObtainError>?>(nil)
        var factory = HookedFactory(mode: .lazy, log: SessionFactoryLog())
        factory.onDeactivate = { _, _ in
            inHook.signal()
            otherWaits.wait()
            Thread.sleep(forTimeInterval: 0.1)  // the other thread holds the serializer and waits for this switch
            let result = provider.value!.getServiceAsResult()
            hookResult.withLock { $0 = result }
        }
        let safe = factory.serviceSafeProvider(mediator: mediator, safeThread: kind)
        provider.value = safe
        #expect(try safe.getService().userId == 1)
        let done = DispatchSemaphore(value: 0)
        Thread {
            mediator.updateSession(UserSession(userId: 2))
            done.signal()
        }.start()
        try waitWithTimeLimit(inHook, "the switch runs the hook")
        let otherResult = Locked<Result<SessionService, ServiceObtainError>?>(nil)
        Thread {
            otherWaits.signal()
            let result = safe.getServiceAsResult()
            otherResult.withLock { $0 = result }
            done.signal()
        }.start()
        try waitWithTimeLimit(done, "the switch and the get wait for each other")
        try waitWithTimeLimit(done, "the switch and the get wait for each other")
        let hook = hookResult.withLock { $0 }
        // The hook's get waits for the other thread's get, which waits for this thread's switch.
        #expect(hook?.failure?.fatalMessage == "Failed to obtain service ServiceContainerKitTests.SessionService: dependency cycle: the making of ServiceContainerKitTests.SessionService led back to a get of ServiceContainerKitTests.SessionService; break the cycle: get one of the services on its path where it is used, not in a factory or a session hook. Path: ServiceContainerKitTests.SessionService -> ServiceContainerKitTests.SessionService")
        #expect(try otherResult.withLock { $0 }?.get().userId == 2)
    }

    @Test("A params provider whose factory asks for it again fails with a cycle")
    func paramsProvider() throws {
        final class Holder: @unchecked Sendable {
            // Written once, before any get.
            var provider: ServiceParamsProvider<NodeA, Int>!
        }
        let holder = Holder()
        holder.provider = ServiceParamsProvider { depth in
            _ = try holder.provider.getService(params: depth + 1)
            return NodeA()
        }
        let result = try withTimeLimit { holder.provider.getServiceAsResult(params: 0) }
        expectCycle(result.failure, path: [NodeA.self, NodeA.self], repeated: NodeA.self)

        let safeHolder = Holder()
        let safe = ServiceParamsSafeProvider<NodeA, Int> { depth in
            _ = try safeHolder.provider.getService(params: depth + 1)
            return NodeA()
        }
        safeHolder.provider = safe
        let converted = safe.convert(params: 0)
        let safeResult = try withTimeLimit { converted.getServiceAsResult() }
        #expect(safeResult.failure?.isDependencyCycle == true)
    }

    @Test("A converted provider whose factory asks its params provider fails at once")
    func convertedProvider() throws {
        final class Holder: @unchecked Sendable {
            // Written once, before any get.
            var provider: ServiceParamsProvider<NodeA, Int>!
        }
        let holder = Holder()
        holder.provider = ServiceParamsProvider { params in
            if params == 0 { _ = try holder.provider.getService(params: 1) }
            return NodeA()
        }
        let converted = holder.provider.convert(params: 0)
        let result = try withTimeLimit { converted.getServiceAsResult() }
        expectCycle(result.failure, path: [NodeA.self, NodeA.self], repeated: NodeA.self)
    }

    @Test("A session provider whose factory asks for itself fails with a cycle")
    func session() throws {
        final class Holder: @unchecked Sendable {
            // Written once, before any get.
            var provider: ServiceProvider<NodeA>!
        }
        struct LoopFactory: ServiceSessionFactory {
            let holder: Holder
            let mode: ServiceSessionFactoryMode = .lazy
            func makeService(session: ServiceVoidSession) throws -> NodeA {
                _ = try holder.provider.getService()
                return NodeA()
            }
        }
        let holder = Holder()
        let mediator = ServiceVoidSessionMediator()
        holder.provider = LoopFactory(holder: holder).serviceProvider(mediator: mediator)
        let result = try withTimeLimit { holder.provider.getServiceAsResult() }
        expectCycle(result.failure, path: [NodeA.self, NodeA.self], repeated: NodeA.self)
    }

    @Test("A diamond is not a cycle")
    func diamond() throws {
        let graph = Graph()
        graph.c = ServiceProvider(mode: .lazy) { NodeC() }
        graph.b = ServiceProvider(mode: .many) {
            _ = try graph.c.getService()
            return NodeB()
        }
        graph.a = ServiceProvider(mode: .many) {
            _ = try graph.b.getService()
            _ = try graph.c.getService()
            _ = try graph.b.getService()
            return NodeA()
        }
        _ = try graph.a.getService()
        _ = try graph.a.getService()
    }
}

/// Waits, on a thread of a test's own, until `condition` holds (at most 5 s, then fails).
private func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) {
    let deadline = Date().addingTimeInterval(5)
    while !condition() {
        guard Date() < deadline else {
            Issue.record("the condition did not hold within 5 s", sourceLocation: sourceLocation)
            return
        }
        Thread.sleep(forTimeInterval: 0.001)
    }
}

@Suite("Dependency cycles across threads")
struct CrossThreadCycleTests {
    // Thread 0 makes C; thread 1 makes B, whose factory waits for C; thread 2 makes A, whose
    // factory waits for B. Thread 0 then gets A at once and waits for thread 2. The wait of
    // thread 1 for C ended when C was made, although thread 1 may not have run again yet to say
    // so: it is no link of a cycle, and every get succeeds. Whether thread 1 runs again before
    // thread 0 looks is the scheduler's choice, so the round is played 20 times.
    @Test("A wait that just ended is not a link of a cycle")
    func endedWaitIsNoLink() throws {
        for _ in 0..<20 {
            #expect(try threeMakingsInAChain() == [["made", "made"], ["made"], ["made"]])
        }
    }

    // Thread 0 makes A, whose factory gets B, whose factory gets A: a cycle on thread 0 alone.
    // Thread 1 gets B while thread 0 makes it, and waits for that making. The making fails on
    // the cycle, which is not handed on: thread 1 makes B itself and meets the cycle along its
    // own path, each factory having run once on each thread.
    @Test("A get that waited for a making that failed on a cycle meets the cycle itself", .offThePool)
    func waitedForACycle() throws {
        let graph = Graph()
        let madeA = Counter()
        let madeB = Counter()
        let secondGets = Counter()
        graph.a = ServiceProvider(mode: .lazy) {
            madeA.increment()
            _ = try graph.b.getService()
            return NodeA()
        }
        graph.b = ServiceProvider(mode: .lazy) {
            if madeB.increment() == 1 {
                // Thread 1 has begun its get of B, and waits for this making.
                waitUntil { secondGets.value == 1 }
                Thread.sleep(forTimeInterval: 0.02)
            }
            _ = try graph.a.getService()
            return NodeB()
        }
        let results = try raceOnThreads(2) { index -> ServiceObtainError? in
            if index == 0 { return graph.a.getServiceAsResult().failure }
            waitUntil { madeB.value == 1 }  // B's making is thread 0's
            secondGets.increment()
            return graph.b.getServiceAsResult().failure
        }
        expectCycle(results[0], path: [NodeA.self, NodeB.self, NodeA.self], repeated: NodeA.self)
        expectCycle(results[1], path: [NodeB.self, NodeA.self, NodeB.self], repeated: NodeB.self)
        #expect(madeA.value == 2)
        #expect(madeB.value == 2)
    }

    /// What each of the three threads got: "made", or the error's description.
    private func threeMakingsInAChain() throws -> [[String]] {
        let graph = Graph()
        let bStarted = Counter()
        let aStarted = Counter()
        graph.c = ServiceProvider(mode: .lazy) {
            waitUntil { bStarted.value == 1 && aStarted.value == 1 }
            Thread.sleep(forTimeInterval: 0.02)  // thread 1 waits for C, thread 2 for B
            return NodeC()
        }
        graph.b = ServiceProvider(mode: .lazy) {
            bStarted.increment()
            _ = try graph.c.getService()
            return NodeB()
        }
        graph.a = ServiceProvider(mode: .lazy) {
            aStarted.increment()
            _ = try graph.b.getService()
            return NodeA()
        }
        return try raceOnThreads(3) { index -> [String] in
            switch index {
            case 0:
                let c = graph.c.getServiceAsResult().failure?.description ?? "made"
                let a = graph.a.getServiceAsResult().failure?.description ?? "made"
                return [c, a]
            case 1:
                return [graph.b.getServiceAsResult().failure?.description ?? "made"]
            default:
                waitUntil { bStarted.value == 1 }  // B's making is thread 1's
                return [graph.a.getServiceAsResult().failure?.description ?? "made"]
            }
        }
    }
}

@Suite("Deep graphs")
struct DeepGraphTests {
    @Test("A chain deeper than the cycle check's first allocation is not a cycle")
    func deepChain() throws {
        var provider = ServiceProvider<Int>(mode: .many) { 0 }
        for _ in 0..<40 {
            let inner = provider
            provider = ServiceProvider<Int>(mode: .many) { try inner.getService() + 1 }
        }
        #expect(try provider.getService() == 40)
    }
}
