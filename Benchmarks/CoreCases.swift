import Dispatch
import Foundation
import ServiceContainerKit

/// The cases of the `ServiceContainerKit` providers.
///
/// Every case and baseline runs one `@inline(never)` operation per iteration on a `Holder`
/// that keeps its provider (or stored reference, or closure) in a `let`, as an app's container
/// does; see `repeatOperation`.
enum CoreCases {
    static let storedReference = "stored ref, non-inlined call"
    static let closureCall = "closure call (allocates)"
    static let paramsClosureCall = "closure(params) call (allocates)"

    static var all: [BenchmarkCase] {
        singletonGets + [mainActorGet] + madeOnEveryGet + safeProviders + sessions + [graph]
    }

    // MARK: - Operations

    @inline(never)
    static func get<Service>(_ holder: Holder<ServiceProvider<Service>>) -> Service {
        try! holder.value.getService()
    }

    @inline(never)
    static func call<Service>(_ holder: Holder<@Sendable () throws -> Service>) -> Service {
        try! holder.value()
    }

    @inline(never)
    static func get<Service>(_ holder: Holder<ServiceParamsProvider<Service, Int>>, params: Int) -> Service {
        try! holder.value.getService(params: params)
    }

    @inline(never)
    static func call<Service>(_ holder: Holder<@Sendable (Int) throws -> Service>, params: Int) -> Service {
        try! holder.value(params)
    }

    // MARK: - Singleton gets: the target is a plain stored reference read

    static var singletonGets: [BenchmarkCase] {
        [
            singletonGet("core/instance get", instructions: .extra(25)) { ServiceProvider(BenchService(number: 1)) },
            singletonGet("core/atOne get", instructions: .extra(25)) {
                ServiceProvider(mode: .atOne) { BenchService(number: 1) }
            },
            singletonGet("core/lazy get (made)", instructions: .extra(25)) {
                ServiceProvider(mode: .lazy) { BenchService(number: 1) }
            },
            singletonGet("core/weak get (held)") { ServiceProvider(mode: .weak) { BenchService(number: 1) } },
        ]
    }

    /// A get of a made `lazy` service of a `ServiceMainActorProvider`, on the main actor,
    /// against reading the same service from a stored reference there.
    static var mainActorGet: BenchmarkCase {
        BenchmarkCase(
            "core/main-actor get (made)",
            baseline: storedReference,
            target: 2.0,
            runsOnOtherThreads: true,
            instructions: .extra(50)
        ) {
            let provider = Holder(ServiceMainActorProvider(mode: .lazy) { BenchService(number: 1) })
            let stored = Holder(onMain { try! provider.value.getService() })
            return .init(
                subject: { iterations in
                    onMain {
                        for _ in 0..<iterations {
                            blackHole(getOnMain(provider))
                        }
                    }
                },
                baseline: { iterations in
                    onMain {
                        for _ in 0..<iterations {
                            blackHole(readStored(stored))
                        }
                    }
                },
                probe: { onMain { getOnMain(provider) === stored.value } ? nil : "a get gave another service" }
            )
        }
    }

    @MainActor @inline(never)
    static func getOnMain(_ holder: Holder<ServiceMainActorProvider<BenchService>>) -> BenchService {
        try! holder.value.getService()
    }

    /// Runs `body` on the main actor: at once on the main thread (the counted runs), else in a
    /// block of the main queue, which `dispatchMain()` serves (the timed runs).
    static func onMain<Value: Sendable>(_ body: @MainActor () -> Value) -> Value {
        if Thread.isMainThread {
            return MainActor.assumeIsolated(body)
        }
        return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
    }

    /// A get of a kept service against reading the same service from a stored reference.
    /// The provider is asked once before measuring, so lazy and weak services exist; the stored
    /// reference holds the service for the whole case, so a weak one stays alive.
    static func singletonGet(
        _ name: String,
        instructions: InstructionCeiling? = nil,
        make: @escaping () -> ServiceProvider<BenchService>
    ) -> BenchmarkCase {
        BenchmarkCase(name, baseline: storedReference, target: 2.0, instructions: instructions) {
            let provider = Holder(make())
            let stored = Holder(try! provider.value.getService())
            return .init(
                subject: { repeatOperation($0, on: provider, get) },
                baseline: { repeatOperation($0, on: stored, readStored) },
                probe: { probeKeptService(make) ?? (get(provider) === stored.value ? nil : "a get gave another service") }
            )
        }
    }

    /// Switches the session of a new provider back and forth, getting and releasing its service
    /// each time: the service is the current session's, and the one kept for a session comes back.
    static func probeSessionSwitches() -> String? {
        let mediator = ServiceSessionMediator(session: BenchSession(id: 1))
        let provider = BenchSessionFactory().serviceProvider(mediator: mediator)
        var numbers: [Int] = []
        for id in [1, 2, 1, 2] {
            mediator.updateSession(BenchSession(id: id))
            guard let service = try? provider.getService() else { return "no service for session \(id)" }
            numbers.append(service.number)
        }
        return numbers == [1, 2, 1, 2] ? nil : "sessions 1, 2, 1, 2 gave services \(numbers)"
    }

    /// Gets a service of a new provider from `make`, lets it go, and gets one again: a provider
    /// that keeps its service gives the same one (and a weak one, whose service died, a new one)
    /// with the number it was made with.
    static func probeKeptService(_ make: () -> ServiceProvider<BenchService>) -> String? {
        let provider = make()
        weak var released: BenchService?
        do { released = try? provider.getService() }
        guard let again = try? provider.getService() else { return "no service after the first was released" }
        guard again.number == 1 else { return "the service got after a release is number \(again.number), not 1" }
        if released != nil, released !== again { return "a kept service was replaced" }
        return nil
    }

    // MARK: - Made on every get: the target is calling the factory closure yourself

    static var madeOnEveryGet: [BenchmarkCase] {
        [
            BenchmarkCase("core/many get", baseline: closureCall, target: 1.3) {
                let factory: @Sendable () throws -> BenchService = { BenchService(number: 1) }
                let provider = Holder(ServiceProvider(mode: .many, factory: factory))
                let closure = Holder(factory)
                return .init(
                    subject: { repeatOperation($0, on: provider, get) },
                    baseline: { repeatOperation($0, on: closure, call) },
                    probe: { get(provider) !== get(provider) ? nil : "two gets gave the same service" }
                )
            },
            BenchmarkCase("core/params get", baseline: paramsClosureCall, target: 1.3) {
                let factory: @Sendable (Int) throws -> BenchService = { BenchService(number: $0) }
                let provider = Holder(ServiceParamsProvider(factory: factory))
                let closure = Holder(factory)
                return .init(
                    subject: { iterations in
                        for index in 0..<iterations {
                            blackHole(get(provider, params: index))
                        }
                    },
                    baseline: { iterations in
                        for index in 0..<iterations {
                            blackHole(call(closure, params: index))
                        }
                    },
                    probe: {
                        let numbers = [get(provider, params: 3).number, get(provider, params: 5).number]
                        return numbers == [3, 5] ? nil : "params 3 and 5 made services \(numbers)"
                    }
                )
            },
            BenchmarkCase("core/convert(params:) get", baseline: paramsClosureCall, target: 1.3) {
                let factory: @Sendable (Int) throws -> BenchService = { BenchService(number: $0) }
                let provider = Holder(ServiceParamsProvider(factory: factory).convert(params: opaque(7)))
                let closure = Holder(factory)
                let params = opaque(7)
                return .init(
                    subject: { repeatOperation($0, on: provider, get) },
                    baseline: { iterations in
                        for _ in 0..<iterations {
                            blackHole(call(closure, params: params))
                        }
                    }
                )
            },
        ]
    }

    // MARK: - Safe providers: the target is the same primitive taken by hand

    static var safeProviders: [BenchmarkCase] {
        let kinds: [(name: String, kind: ServiceSafeProviderKind, target: TimeTarget?)] = [
            ("lock", .lock, 2.0), ("semaphore", .semaphore, nil), ("queue", .queue(), nil),
        ]
        return kinds.map { safeGet($0.name, $0.kind, target: $0.target, threads: 1) }
            + kinds.map { safeGet($0.name, $0.kind, target: nil, threads: 2) }
    }

    /// A reference guarded by the primitive of a safe provider, read by hand.
    final class Guarded: @unchecked Sendable {
        // `service` never changes; the primitives synchronize themselves.
        let service: BenchService
        let lock = NSLock()
        let semaphore = DispatchSemaphore(value: 1)
        let queue = DispatchQueue(label: "ServiceContainerKitBenchmarks.baseline")

        init(_ service: BenchService) {
            self.service = service
        }
    }

    @inline(never)
    static func readUnderLock(_ holder: Holder<Guarded>) -> BenchService {
        let guarded = holder.value
        guarded.lock.lock()
        defer { guarded.lock.unlock() }
        return guarded.service
    }

    @inline(never)
    static func readUnderSemaphore(_ holder: Holder<Guarded>) -> BenchService {
        let guarded = holder.value
        guarded.semaphore.wait()
        defer { guarded.semaphore.signal() }
        return guarded.service
    }

    @inline(never)
    static func readOnQueue(_ holder: Holder<Guarded>) -> BenchService {
        let guarded = holder.value
        return guarded.queue.sync { guarded.service }
    }

    /// A lazy singleton (already made) behind a safe provider of `kind`, against the same
    /// primitive taken by hand around a stored reference read.
    static func safeGet(
        _ kindName: String,
        _ kind: ServiceSafeProviderKind,
        target: TimeTarget?,
        threads: Int
    ) -> BenchmarkCase {
        let baselineName: String
        switch kind {
        case .lock: baselineName = "NSLock + stored ref by hand"
        case .semaphore: baselineName = "semaphore + stored ref by hand"
        case .queue: baselineName = "queue.sync + stored ref by hand"
        }
        return BenchmarkCase(
            "core/safe \(kindName) get" + (threads == 1 ? "" : ", 2 threads"),
            baseline: baselineName + (threads == 1 ? "" : ", 2 thr."),
            target: target,
            operationsPerIteration: threads,
            instructions: kindName == "lock" && threads == 1 ? .ratio(1.5) : nil
        ) {
            let provider = Holder<ServiceProvider<BenchService>>(
                ServiceSafeProvider(mode: .lazy, safeThread: kind) { BenchService(number: 1) }
            )
            let guarded = Holder(Guarded(try! provider.value.getService()))
            let subject: BenchmarkBody = { repeatOperation($0, on: provider, get) }
            let baseline: BenchmarkBody
            // Each kind gets its own loop, so the read is a direct call, as the subject's is.
            switch kind {
            case .lock: baseline = { repeatOperation($0, on: guarded, readUnderLock) }
            case .semaphore: baseline = { repeatOperation($0, on: guarded, readUnderSemaphore) }
            case .queue: baseline = { repeatOperation($0, on: guarded, readOnQueue) }
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
                let provider = Holder(BenchSessionFactory().serviceProvider(mediator: mediator))
                let stored = Holder(try! provider.value.getService())
                return .init(
                    subject: { iterations in
                        withExtendedLifetime(mediator) {
                            repeatOperation(iterations, on: provider, get)
                        }
                    },
                    baseline: { repeatOperation($0, on: stored, readStored) },
                    probe: { probeSessionSwitches() ?? (get(provider) === stored.value ? nil : "a get gave another service") }
                )
            },
            BenchmarkCase(
                "core/session switch + get",
                baseline: "kept-per-session dict under NSLock",
                target: nil
            ) {
                let sessions = [BenchSession(id: 1), BenchSession(id: 2)]
                let mediator = ServiceSessionMediator(session: sessions[0])
                let provider = Holder(BenchSessionFactory().serviceProvider(mediator: mediator))
                let switching = Holder((mediator, provider.value))
                let byHand = Holder(SessionsByHand(session: sessions[0]))
                for session in sessions + sessions {
                    _ = switchAndGet(switching, to: session)
                    _ = switchAndGetByHand(byHand, to: session)
                }
                return .init(
                    subject: { iterations in
                        for index in 0..<iterations {
                            blackHole(switchAndGet(switching, to: sessions[index & 1]))
                        }
                    },
                    baseline: { iterations in
                        for index in 0..<iterations {
                            blackHole(switchAndGetByHand(byHand, to: sessions[index & 1]))
                        }
                    }
                )
            },
            sessionProvidersRelease,
            sessionProvidersReleaseGrowth,
            sessionSwitchOfMany,
            sessionSwitchGrowth,
        ]
    }

    static let releasedProviders = 10_000

    /// Releasing the providers of one mediator, each of which unsubscribes, against releasing
    /// as many plain objects.
    static var sessionProvidersRelease: BenchmarkCase {
        BenchmarkCase(
            "core/session release, \(releasedProviders.formatted)",
            baseline: "release \(releasedProviders.formatted) plain objects",
            target: nil
        ) {
            let mediator = ServiceSessionMediator(session: BenchSession(id: 1))
            let providers = Holder(Batches<ServiceProvider<BenchService>>())
            let objects = Holder(Batches<BenchService>())
            return .init(
                subject: { iterations in
                    for _ in 0..<iterations { providers.value.releaseOne() }
                },
                baseline: { iterations in
                    for _ in 0..<iterations { objects.value.releaseOne() }
                },
                setUpSubject: { iterations in
                    providers.value.fill(iterations, batchSize: releasedProviders) {
                        BenchSessionFactory().serviceProvider(mediator: mediator)
                    }
                },
                setUpBaseline: { iterations in
                    objects.value.fill(iterations, batchSize: releasedProviders) { BenchService(number: 0) }
                }
            )
        }
    }

    /// The same release of 10,000 providers against releasing them 1,000 at a time from ten
    /// mediators: unsubscribing costs the same whatever the number of providers.
    static var sessionProvidersReleaseGrowth: BenchmarkCase {
        let batches = 10
        return BenchmarkCase(
            "core/session release, \(releasedProviders.formatted) vs 10x\((releasedProviders / batches).formatted)",
            baseline: "release \(batches) x \((releasedProviders / batches).formatted) providers",
            target: 1.3
        ) {
            let mediators = (0..<batches).map { ServiceSessionMediator(session: BenchSession(id: $0)) }
            let large = Holder(Batches<ServiceProvider<BenchService>>())
            let small = Holder(Batches<ServiceProvider<BenchService>>())
            return .init(
                subject: { iterations in
                    for _ in 0..<iterations { large.value.releaseOne() }
                },
                baseline: { iterations in
                    for _ in 0..<iterations * batches { small.value.releaseOne() }
                },
                setUpSubject: { iterations in
                    large.value.fill(iterations, batchSize: releasedProviders) {
                        BenchSessionFactory().serviceProvider(mediator: mediators[0])
                    }
                },
                setUpBaseline: { iterations in
                    var next = 0
                    small.value.fill(iterations * batches, batchSize: releasedProviders / batches) {
                        defer { next += 1 }
                        return BenchSessionFactory().serviceProvider(
                            mediator: mediators[next / (releasedProviders / batches) % batches]
                        )
                    }
                }
            )
        }
    }

    static let switchedProviders = 1_000

    /// A session switch that deactivates and keeps the service of every provider bound to the
    /// mediator and activates the one kept for the new session, against writing as many
    /// dictionary entries.
    static var sessionSwitchOfMany: BenchmarkCase {
        BenchmarkCase(
            "core/session switch, \(switchedProviders.formatted)",
            baseline: "\(switchedProviders.formatted) dictionary writes",
            target: nil
        ) {
            let sessions = [BenchSession(id: 1), BenchSession(id: 2)]
            let (mediator, providers) = boundProviders(switchedProviders, sessions: sessions)
            let dictionary = Holder(DictionaryWrites(count: switchedProviders))
            return .init(
                subject: { iterations in
                    withExtendedLifetime(providers) {
                        for index in 0..<iterations { switchSession(mediator, to: sessions[index & 1]) }
                    }
                },
                baseline: { iterations in
                    for index in 0..<iterations { dictionary.value.writeAll(index) }
                }
            )
        }
    }

    /// The same switch against ten switches of mediators with 100 providers each: a switch
    /// costs the same per provider whatever their number.
    static var sessionSwitchGrowth: BenchmarkCase {
        let batches = 10
        return BenchmarkCase(
            "core/session switch, \(switchedProviders.formatted) vs 10x\((switchedProviders / batches).formatted)",
            baseline: "switch \(batches) mediators of \((switchedProviders / batches).formatted) providers",
            target: 1.3
        ) {
            let sessions = [BenchSession(id: 1), BenchSession(id: 2)]
            let (mediator, providers) = boundProviders(switchedProviders, sessions: sessions)
            let small = (0..<batches).map { _ in boundProviders(switchedProviders / batches, sessions: sessions) }
            return .init(
                subject: { iterations in
                    withExtendedLifetime(providers) {
                        for index in 0..<iterations { switchSession(mediator, to: sessions[index & 1]) }
                    }
                },
                baseline: { iterations in
                    withExtendedLifetime(small) {
                        for index in 0..<iterations {
                            for (mediator, _) in small { switchSession(mediator, to: sessions[index & 1]) }
                        }
                    }
                }
            )
        }
    }

    /// A mediator with `count` providers whose services exist for both `sessions`.
    static func boundProviders(
        _ count: Int,
        sessions: [BenchSession]
    ) -> (Holder<ServiceSessionMediator<BenchSession>>, [ServiceProvider<BenchService>]) {
        let mediator = Holder(ServiceSessionMediator(session: sessions[0]))
        let providers = (0..<count).map { _ in BenchSessionFactory().serviceProvider(mediator: mediator.value) }
        for session in sessions + sessions {
            mediator.value.updateSession(session)
            for provider in providers { _ = try! provider.getService() }
        }
        return (mediator, providers)
    }

    @inline(never)
    static func switchSession(_ mediator: Holder<ServiceSessionMediator<BenchSession>>, to session: BenchSession) {
        mediator.value.updateSession(session)
    }

    @inline(never)
    static func switchAndGet(
        _ holder: Holder<(ServiceSessionMediator<BenchSession>, ServiceProvider<BenchService>)>,
        to session: BenchSession
    ) -> BenchService {
        holder.value.0.updateSession(session)
        return try! holder.value.1.getService()
    }

    @inline(never)
    static func switchAndGetByHand(_ holder: Holder<SessionsByHand>, to session: BenchSession) -> BenchService {
        holder.value.update(session)
        return holder.value.get()
    }

    // MARK: - A 3-deep graph

    static var graph: BenchmarkCase {
        BenchmarkCase("core/graph get (A->B->C)", baseline: "graph built by hand", target: 1.5) {
            let c = ServiceProvider<GraphC>(mode: .lazy) { GraphC() }
            let b = ServiceProvider<GraphB>(mode: .many) { GraphB(c: try c.getService()) }
            let a = Holder(ServiceProvider<GraphA>(mode: .many) { GraphA(b: try b.getService()) })
            let stored = Holder(try! c.getService())
            return .init(
                subject: { repeatOperation($0, on: a, get) },
                baseline: { repeatOperation($0, on: stored, buildGraphByHand) }
            )
        }
    }

    /// What the three providers do, written out: two allocations and a read of the singleton.
    @inline(never)
    static func buildGraphByHand(_ c: Holder<GraphC>) -> GraphA {
        GraphA(b: GraphB(c: c.value))
    }
}

/// Batches of objects made before a round and released one batch per iteration.
final class Batches<Element> {
    private var batches: [[Element]] = []

    /// Makes `count` batches of `batchSize` elements with `make`, replacing what is left.
    func fill(_ count: Int, batchSize: Int, make: () -> Element) {
        batches = (0..<count).map { _ in (0..<batchSize).map { _ in make() } }
    }

    /// Releases the last batch.
    @inline(never)
    func releaseOne() {
        _ = batches.popLast()
    }

    /// The elements of the first batch.
    var all: [Element] { batches.first ?? [] }
}

/// Writes `count` entries of a dictionary that already holds them, as a switch updates the
/// entry of each provider.
final class DictionaryWrites {
    private var entries: [Int: BenchService] = [:]
    private let services: [BenchService]

    init(count: Int) {
        services = (0..<count).map { BenchService(number: $0) }
        for (index, service) in services.enumerated() { entries[index] = service }
    }

    @inline(never)
    func writeAll(_ round: Int) {
        for index in services.indices {
            entries[index] = services[(index &+ round) % services.count]
        }
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
