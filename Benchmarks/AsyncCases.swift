import Dispatch
import ServiceContainerKit
import Synchronization

/// The cases of the async providers.
///
/// The harness times synchronous bodies, so each body runs its whole loop in one task and waits
/// for it (`runInTask`): the case and its baseline pay that wait alike, once per round, and both
/// are timed in wall time.
enum AsyncCases {
    static var all: [BenchmarkCase] {
        [lazyGet, madeGetOnMainActor, madeGetInTask, madeScopedGetInTask, heldWeakGetInTask, manyGetInTask, manyGetOnMainActor, paramsGetInTask, concurrentFirstGets]
    }

    // MARK: - Operations

    /// Runs on the caller's executor, as a get does (`nonisolated(nonsending)`).
    @inline(never)
    nonisolated(nonsending) static func get<Service>(_ holder: Holder<ServiceAsyncProvider<Service>>) async -> Service {
        try! await holder.value.getService()
    }

    /// The baseline: a plain `async` function that returns a stored reference.
    @inline(never)
    nonisolated(nonsending) static func readStoredAsync<Value: AnyObject>(_ holder: Holder<Value>) async -> Value {
        holder.value
    }

    /// Runs `body` in a task and waits for it.
    static func runInTask(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }

    // MARK: - Cases

    /// A get of a made `lazy` service against awaiting a function that returns it.
    static var lazyGet: BenchmarkCase {
        BenchmarkCase(
            "core/async lazy get (made)",
            baseline: "await async func -> stored ref",
            target: 1.5,
            runsOnOtherThreads: true
        ) {
            let provider = Holder(ServiceAsyncProvider<BenchService>(mode: .lazy) { BenchService(number: 1) })
            runInTask { _ = await get(provider) }
            let stored = Holder(BenchService(number: 1))
            return .init(
                subject: { iterations in
                    runInTask {
                        for _ in 0..<iterations {
                            blackHole(await get(provider))
                        }
                    }
                },
                baseline: { iterations in
                    runInTask {
                        for _ in 0..<iterations {
                            blackHole(await readStoredAsync(stored))
                        }
                    }
                }
            )
        }
    }

    /// Runs `body` on the main actor and waits for it (the main thread services the main queue).
    static func runOnMainActor(_ body: @escaping @MainActor @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task { @MainActor in
            await body()
            done.signal()
        }
        done.wait()
    }

    /// A get of a made async service awaited on the main actor, against a synchronous get of a
    /// made service there, each written in the loop as an app writes it: a get that runs on
    /// its caller's executor (`nonisolated(nonsending)`) costs about the same.
    static var madeGetOnMainActor: BenchmarkCase {
        getsCase("core/async get (made), main actor", baseline: "sync get of a made service", target: 2.0, onMainActor: true) {
            MadeGets(
                provider: ServiceAsyncProvider<BenchService>(mode: .lazy) { BenchService(number: 1) },
                sync: ServiceProvider<BenchService>(mode: .lazy) { BenchService(number: 1) }
            )
        }
    }

    /// The same in a task, on the global executor.
    static var madeGetInTask: BenchmarkCase {
        getsCase("core/async get (made), task", baseline: "sync get of a made service", target: 2.0) {
            MadeGets(
                provider: ServiceAsyncProvider<BenchService>(mode: .lazy) { BenchService(number: 1) },
                sync: ServiceProvider<BenchService>(mode: .lazy) { BenchService(number: 1) }
            )
        }
    }

    /// A scoped service made in the scope the gets run in, got in a task: against the same
    /// get of a synchronous scoped provider.
    static var madeScopedGetInTask: BenchmarkCase {
        getsCase("core/async scoped get (made), task", baseline: "sync scoped get of a made service", target: 2.0) {
            MadeGets(
                provider: ServiceAsyncProvider<BenchService>(mode: .scoped) { BenchService(number: 1) },
                sync: ServiceProvider<BenchService>(mode: .scoped) { BenchService(number: 1) },
                scope: ServiceScope(label: "benchmark")
            )
        }
    }

    /// A `weak` service that is held (its factory keeps it), got in a task: against the same get
    /// of a synchronous `weak` provider.
    static var heldWeakGetInTask: BenchmarkCase {
        getsCase("core/async weak get (held), task", baseline: "sync weak get of a held service", target: 2.0) {
            let service = BenchService(number: 1)
            return MadeGets(
                provider: ServiceAsyncProvider<BenchService>(mode: .weak) { service },
                sync: ServiceProvider<BenchService>(mode: .weak) { service }
            )
        }
    }

    /// A `many` service, made anew by each get in a task: against the same get of a
    /// synchronous `many` provider. Both make the same object; the async get also marks its
    /// provider in the task's context while the factory runs (the cycle check), which is a
    /// task-local value bound for the factory's call, with one link added to the chain of
    /// providers.
    static var manyGetInTask: BenchmarkCase {
        getsCase("core/async many get, task", baseline: "sync many get", target: 10.0) {
            MadeGets(
                provider: ServiceAsyncProvider<BenchService>(mode: .many) { BenchService(number: 1) },
                sync: ServiceProvider<BenchService>(mode: .many) { BenchService(number: 1) }
            )
        }
    }

    /// The same on the main actor: the factory runs there too (`nonisolated(nonsending)`), so a
    /// get does not hop to the global executor and back to make its service.
    static var manyGetOnMainActor: BenchmarkCase {
        getsCase("core/async many get, main actor", baseline: "sync many get", target: 10.0, onMainActor: true) {
            MadeGets(
                provider: ServiceAsyncProvider<BenchService>(mode: .many) { BenchService(number: 1) },
                sync: ServiceProvider<BenchService>(mode: .many) { BenchService(number: 1) }
            )
        }
    }

    /// A case whose body awaits the async provider of `makeGets()` in a loop and whose baseline
    /// gets its synchronous provider in the same loop, both on the main actor or in a task. One
    /// round of each runs first, so that neither side's first get (a making) is measured.
    static func getsCase(
        _ name: String,
        baseline: String,
        target: TimeTarget,
        onMainActor: Bool = false,
        _ makeGets: @escaping () -> MadeGets
    ) -> BenchmarkCase {
        BenchmarkCase(name, baseline: baseline, target: target, runsOnOtherThreads: true) {
            let gets = makeGets()
            // The loops run where they are awaited: on the main actor, or in the task.
            let run: (Int, Bool) -> Void = { iterations, async in
                if onMainActor {
                    runOnMainActor { await gets.run(iterations, async: async) }
                } else {
                    runInTask { await gets.run(iterations, async: async) }
                }
            }
            run(1, true)
            run(1, false)
            return .init(subject: { run($0, true) }, baseline: { run($0, false) })
        }
    }

    /// The two loops of the made-get cases, run on the caller's executor (in `scope`, when
    /// there is one).
    struct MadeGets: Sendable {
        let provider: ServiceAsyncProvider<BenchService>
        let sync: ServiceProvider<BenchService>
        var scope: ServiceScope? = nil

        /// `iterations` gets of the made service: awaited from `provider`, or synchronous from `sync`.
        nonisolated(nonsending) func run(_ iterations: Int, async: Bool) async {
            if let scope {
                await scope.run { await loops(iterations, async: async) }
            } else {
                await loops(iterations, async: async)
            }
        }

        nonisolated(nonsending) func loops(_ iterations: Int, async: Bool) async {
            if async {
                for _ in 0..<iterations {
                    blackHole(try! await provider.getService())
                }
            } else {
                for _ in 0..<iterations {
                    blackHole(try! sync.getService())
                }
            }
        }
    }

    /// A service made from params by each get in a task, against the same get of a synchronous
    /// params provider there: as `core/async many get, task`, with the params handed through.
    /// It informs: a get takes about what that case's does (0.3 µs here; 9.6–10x the synchronous
    /// params get, which is quicker than a `many` one), where it took 0.6 µs (18.4x) when it
    /// ran unspecialized.
    static var paramsGetInTask: BenchmarkCase {
        BenchmarkCase("core/async params get, task", baseline: "sync params get", target: nil, runsOnOtherThreads: true) {
            let provider = ServiceAsyncParamsProvider<BenchService, Int> { BenchService(number: $0) }
            let sync = ServiceParamsProvider<BenchService, Int> { BenchService(number: $0) }
            return .init(
                subject: { iterations in
                    runInTask {
                        for index in 0..<iterations {
                            blackHole(try! await provider.getService(params: index))
                        }
                    }
                },
                baseline: { iterations in
                    runInTask {
                        for index in 0..<iterations {
                            blackHole(try! sync.getService(params: index))
                        }
                    }
                }
            )
        }
    }

    static let waiters = 1_000

    /// 1,000 tasks that ask a new `lazy` provider for its service at once, against 1,000 tasks
    /// that await one shared task's value. Each round checks that the service was made once.
    static var concurrentFirstGets: BenchmarkCase {
        BenchmarkCase(
            "core/async lazy, 1,000 first gets",
            baseline: "1,000 tasks awaiting a Task",
            target: nil,
            operationsPerIteration: waiters
        ) {
            .init(
                subject: { iterations in
                    runInTask {
                        for _ in 0..<iterations {
                            let made = Atomic<Int>(0)
                            let provider = ServiceAsyncProvider<BenchService>(mode: .lazy) {
                                BenchService(number: made.add(1, ordering: .relaxed).newValue)
                            }
                            await withTaskGroup(of: Void.self) { group in
                                for _ in 0..<waiters {
                                    group.addTask { blackHole(try! await provider.getService()) }
                                }
                            }
                            precondition(made.load(ordering: .relaxed) == 1, "a lazy async service was made more than once")
                        }
                    }
                },
                baseline: { iterations in
                    runInTask {
                        for _ in 0..<iterations {
                            let shared = Task { BenchService(number: 1) }
                            await withTaskGroup(of: Void.self) { group in
                                for _ in 0..<waiters {
                                    group.addTask { blackHole(await shared.value) }
                                }
                            }
                        }
                    }
                }
            )
        }
    }
}
