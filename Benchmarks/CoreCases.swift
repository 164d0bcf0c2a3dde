import Dispatch
import Foundation
import ServiceContainerKit

/// The cases of the `ServiceContainerKit` providers.
enum CoreCases {
    static let storedReference = "stored ref, non-inlined call"
    static let closureCall = "closure call (allocates)"

    static var all: [BenchmarkCase] {
        singletonGets + madeOnEveryGet + safeProviders + sessions + [graph]
    }

    // MARK: - Singleton gets: the target is a plain stored reference read

    static var singletonGets: [BenchmarkCase] {
        [
            singletonGet("core/instance get") { ServiceProvider(BenchService(number: 1)) },
            singletonGet("core/atOne get") { ServiceProvider(mode: .atOne) { BenchService(number: 1) } },
            singletonGet("core/lazy get (made)") { ServiceProvider(mode: .lazy) { BenchService(number: 1) } },
            singletonGet("core/weak get (held)") { ServiceProvider(mode: .weak) { BenchService(number: 1) } },
        ]
    }

    /// A get of a kept service against reading the same service from a stored reference.
    /// The provider is asked once before measuring, so lazy and weak services exist; the service
    /// stays held for the whole case, so a weak one stays alive.
    static func singletonGet(
        _ name: String,
        make: @escaping () -> ServiceProvider<BenchService>
    ) -> BenchmarkCase {
        BenchmarkCase(name, baseline: storedReference, target: 2.0) {
            let provider = Slot(make())
            let held = try! provider.value.getService()
            let stored = Slot(held)
            return .init(
                subject: { iterations in
                    withExtendedLifetime(held) {
                        for _ in 0..<iterations {
                            blackHole(try! provider.value.getService())
                        }
                    }
                },
                baseline: { iterations in
                    for _ in 0..<iterations {
                        blackHole(readStored(stored))
                    }
                }
            )
        }
    }

    // MARK: - Made on every get: the target is calling the factory closure yourself

    static var madeOnEveryGet: [BenchmarkCase] {
        [
            BenchmarkCase("core/many get", baseline: closureCall, target: 1.3) {
                let factory: () throws -> BenchService = { BenchService(number: 1) }
                let provider = Slot(ServiceProvider(mode: .many, factory: factory))
                let closure = Slot(factory)
                return .init(
                    subject: { iterations in
                        for _ in 0..<iterations {
                            blackHole(try! provider.value.getService())
                        }
                    },
                    baseline: { iterations in
                        for _ in 0..<iterations {
                            blackHole(try! closure.value())
                        }
                    }
                )
            },
            BenchmarkCase("core/params get", baseline: "closure(params) call (allocates)", target: 1.3) {
                let factory: (Int) throws -> BenchService = { BenchService(number: $0) }
                let provider = Slot(ServiceParamsProvider(factory: factory))
                let closure = Slot(factory)
                return .init(
                    subject: { iterations in
                        for index in 0..<iterations {
                            blackHole(try! provider.value.getService(params: index))
                        }
                    },
                    baseline: { iterations in
                        for index in 0..<iterations {
                            blackHole(try! closure.value(index))
                        }
                    }
                )
            },
            BenchmarkCase("core/convert(params:) get", baseline: "closure(params) call (allocates)", target: 1.3) {
                let factory: (Int) throws -> BenchService = { BenchService(number: $0) }
                let provider = Slot(ServiceParamsProvider(factory: factory).convert(params: opaque(7)))
                let closure = Slot(factory)
                let params = Slot(7)
                return .init(
                    subject: { iterations in
                        for _ in 0..<iterations {
                            blackHole(try! provider.value.getService())
                        }
                    },
                    baseline: { iterations in
                        for _ in 0..<iterations {
                            blackHole(try! closure.value(params.value))
                        }
                    }
                )
            },
        ]
    }

    // MARK: - Safe providers: the target is the same primitive taken by hand

    static var safeProviders: [BenchmarkCase] {
        let kinds: [(name: String, kind: ServiceSafeProviderKind, target: Double?)] = [
            ("lock", .lock, 2.0), ("semaphore", .semaphore, nil), ("queue", .queue(), nil),
        ]
        return kinds.map { safeGet($0.name, $0.kind, target: $0.target, threads: 1) }
            + kinds.map { safeGet($0.name, $0.kind, target: nil, threads: 2) }
    }

    /// A lazy singleton (already made) behind a safe provider of `kind`, against the same
    /// primitive taken by hand around a stored reference read.
    static func safeGet(
        _ kindName: String,
        _ kind: ServiceSafeProviderKind,
        target: Double?,
        threads: Int
    ) -> BenchmarkCase {
        let suffix = threads == 1 ? "" : ", 2 threads"
        let baselineSuffix = threads == 1 ? "" : ", 2 thr."
        let baselineName: String
        switch kind {
        case .lock: baselineName = "NSLock + stored ref by hand"
        case .semaphore: baselineName = "semaphore + stored ref by hand"
        case .queue: baselineName = "queue.sync + stored ref by hand"
        }
        return BenchmarkCase(
            "core/safe \(kindName) get\(suffix)",
            baseline: baselineName + baselineSuffix,
            target: target,
            operationsPerIteration: threads
        ) {
            let provider = Slot<ServiceProvider<BenchService>>(
                ServiceSafeProvider(mode: .lazy, safeThread: kind) { BenchService(number: 1) }
            )
            let stored = Slot(try! provider.value.getService())
            let subject: BenchmarkBody = { iterations in
                for _ in 0..<iterations {
                    blackHole(try! provider.value.getService())
                }
            }
            let baseline: BenchmarkBody
            switch kind {
            case .lock:
                let lock = NSLock()
                baseline = { iterations in
                    for _ in 0..<iterations {
                        lock.lock()
                        let service = stored.value
                        lock.unlock()
                        blackHole(service)
                    }
                }
            case .semaphore:
                let semaphore = DispatchSemaphore(value: 1)
                baseline = { iterations in
                    for _ in 0..<iterations {
                        semaphore.wait()
                        let service = stored.value
                        semaphore.signal()
                        blackHole(service)
                    }
                }
            case .queue:
                let queue = DispatchQueue(label: "ServiceContainerKitBenchmarks.baseline")
                baseline = { iterations in
                    for _ in 0..<iterations {
                        blackHole(queue.sync { stored.value })
                    }
                }
            }
            guard threads == 2 else {
                return .init(subject: subject, baseline: baseline)
            }
            let subjectThreads = WorkerPair(subject)
            let baselineThreads = WorkerPair(baseline)
            return .init(
                subject: subjectThreads.run,
                baseline: baselineThreads.run,
                tearDown: {
                    subjectThreads.shutDown()
                    baselineThreads.shutDown()
                }
            )
        }
    }

    // MARK: - Sessions

    static var sessions: [BenchmarkCase] {
        [
            BenchmarkCase("core/session get (made)", baseline: storedReference, target: 2.0) {
                let mediator = ServiceSessionMediator(session: BenchSession(id: 1))
                let provider = Slot(BenchSessionFactory().serviceProvider(mediator: mediator))
                let held = try! provider.value.getService()
                let stored = Slot(held)
                return .init(
                    subject: { iterations in
                        withExtendedLifetime(mediator) {
                            for _ in 0..<iterations {
                                blackHole(try! provider.value.getService())
                            }
                        }
                    },
                    baseline: { iterations in
                        for _ in 0..<iterations {
                            blackHole(readStored(stored))
                        }
                    }
                )
            },
            BenchmarkCase(
                "core/session switch + get",
                baseline: "kept-per-session dict under NSLock",
                target: nil
            ) {
                let sessions = [BenchSession(id: 1), BenchSession(id: 2)]
                let mediator = ServiceSessionMediator(session: sessions[0])
                let provider = Slot(BenchSessionFactory().serviceProvider(mediator: mediator))
                let byHand = SessionsByHand(session: sessions[0])
                for session in sessions + sessions {
                    mediator.updateSession(session)
                    _ = try! provider.value.getService()
                    byHand.update(session)
                    _ = byHand.get()
                }
                return .init(
                    subject: { iterations in
                        for index in 0..<iterations {
                            mediator.updateSession(sessions[index & 1])
                            blackHole(try! provider.value.getService())
                        }
                    },
                    baseline: { iterations in
                        for index in 0..<iterations {
                            byHand.update(sessions[index & 1])
                            blackHole(byHand.get())
                        }
                    }
                )
            },
        ]
    }

    // MARK: - A 3-deep graph

    static var graph: BenchmarkCase {
        BenchmarkCase("core/graph get (A->B->C)", baseline: "graph built by hand", target: 1.5) {
            let c = ServiceProvider<GraphC>(mode: .lazy) { GraphC() }
            let b = ServiceProvider<GraphB>(mode: .many) { GraphB(c: try c.getService()) }
            let a = Slot(ServiceProvider<GraphA>(mode: .many) { GraphA(b: try b.getService()) })
            let stored = Slot(try! c.getService())
            return .init(
                subject: { iterations in
                    for _ in 0..<iterations {
                        blackHole(try! a.value.getService())
                    }
                },
                baseline: { iterations in
                    for _ in 0..<iterations {
                        blackHole(buildGraphByHand(stored))
                    }
                }
            )
        }
    }

    /// What the three providers do, written out: two allocations and a read of the singleton.
    @inline(never)
    static func buildGraphByHand(_ c: Slot<GraphC>) -> GraphA {
        GraphA(b: GraphB(c: c.value))
    }
}

/// A session keyed by a user id.
struct BenchSession: ServiceSession {
    let id: Int
    var key: AnyHashable { id }
}

/// A lazy session service that is kept while its session is away and activated on return.
struct BenchSessionFactory: ServiceSessionFactory {
    let mode: ServiceSessionFactoryMode = .lazy

    func makeService(session: BenchSession) throws -> BenchService {
        BenchService(number: session.id)
    }

    func deactivateService(_ service: BenchService, session: BenchSession) -> Bool {
        true
    }
}

/// The session switch done by hand: the current service is put aside for its session and the
/// one kept for the new session (or a new one) becomes current, all under an `NSLock`.
final class SessionsByHand: @unchecked Sendable {
    // Every stored var is guarded by `lock`.
    private let lock = NSLock()
    private var key: AnyHashable
    private var current: BenchService?
    private var kept: [AnyHashable: BenchService] = [:]
    private var session: BenchSession

    init(session: BenchSession) {
        self.session = session
        key = session.key
    }

    func update(_ newSession: BenchSession) {
        lock.lock()
        defer { lock.unlock() }
        let newKey = newSession.key
        if newKey != key {
            kept[key] = current
            current = kept.removeValue(forKey: newKey)
        }
        key = newKey
        session = newSession
    }

    func get() -> BenchService {
        lock.lock()
        defer { lock.unlock() }
        if let current { return current }
        let made = BenchService(number: session.id)
        current = made
        return made
    }
}
