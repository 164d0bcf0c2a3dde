import CServiceContainerKit
import Synchronization

/// What the current task is obtaining for the async providers: the async counterpart of
/// `ThreadContext`, carried by the task (a task-local value) instead of the thread, since an
/// async factory may resume on any thread.
///
/// A task that makes an async singleton runs its factory with the provider added to
/// `obtaining` and `making` set to its `AsyncMaking`; a task that runs a `many` factory adds its
/// provider only. A get that finds its own provider in `obtaining` is a dependency cycle within
/// one chain of tasks and fails at once.
///
/// Two makings may also wait for each other from different tasks (one task gets `A` whose
/// factory gets `B`, while another gets `B` whose factory gets `A`). Every wait of a making for
/// another is an edge of `AsyncWaits`; the wait that would close a loop fails as a cycle instead
/// of suspending for ever.
@usableFromInline
struct TaskContext: Sendable {
    /// The providers whose service is being obtained, innermost first.
    var obtaining: ObtainingChain?

    @TaskLocal static var current = TaskContext()

    /// This context with `provider` being obtained, and `making` as the making it runs and
    /// `keeper` as the singleton it makes, if given.
    func entering(_ provider: ObjectIdentifier?, making: UInt64? = nil, keeper: SingletonKeeper? = nil) -> TaskContext {
        TaskContext(obtaining: ObtainingChain(provider, making: making, keeper: keeper, outer: obtaining))
    }

    /// This context as the start of a making that the code running in it does not await: an
    /// `atOne` provider's, which its `init` starts (perhaps as a global's first use, inside
    /// another factory). A get of a singleton in that making does not count the obtainings
    /// outside it as its own: it waits for their makings, and a wait that closes a loop fails as
    /// a cycle (`AsyncWaits`). A `many` get counts them: it makes no making that a wait could
    /// name, and one that runs again inside them would run again and again (a `many` factory
    /// that makes such a provider and awaits it, whose factory gets the `many` service).
    func startingUnawaited() -> TaskContext {
        TaskContext(obtaining: ObtainingChain(nil, making: nil, keeper: nil, outer: obtaining, beginsUnawaited: true))
    }

    /// Marks the obtaining this context was entered for (`entering`) as over.
    func end() {
        obtaining?.end()
    }

    /// The innermost link that `matches`, among the obtainings that still run.
    ///
    /// A task that a factory starts with `Task {}` inherits the context of the factory's get:
    /// while that get runs, a get of the task that leads back to it is a cycle (the factory may
    /// await the task), and a scoped get of the task is kept by the singleton being made. Once
    /// that get has ended, its link no longer counts for the task; the links outside it count
    /// while their gets run (a making that got the service whose factory started the task may
    /// await the task too).
    ///
    /// The walk stops at the start of a making that the code around it does not await
    /// (`startingUnawaited()`), unless `acrossUnawaited`.
    @inline(__always)
    private func innermostLink(
        acrossUnawaited: Bool = false,
        where matches: (ObtainingChain) -> Bool
    ) -> ObtainingChain? {
        guard obtaining != nil else { return nil }  // outside every making: a scoped get's check
        var link = obtaining
        while let current = link {
            if current.beginsUnawaited, !acrossUnawaited { return nil }
            if !current.hasEnded, matches(current) { return current }
            link = current.outer
        }
        return nil
    }

    /// The making whose creation this task runs, if any (its `AsyncMaking.number`).
    var making: UInt64? {
        innermostLink { $0.making != nil }?.making
    }

    /// The innermost singleton whose making this chain of tasks runs, if any: a scoped get
    /// made meanwhile fails as a captive dependency.
    @inline(__always)
    var keeper: SingletonKeeper? {
        innermostLink { $0.keeper != nil }?.keeper
    }

    /// The `keeper` of the current task's context, which is read only while some chain of tasks
    /// names a running singleton making (`sck_task_keepers` says why): the load and its branch
    /// are inlined, the read is not.
    @inlinable @inline(__always)
    static var currentKeeper: SingletonKeeper? {
        sck_task_keepers_load() == 0 ? nil : keeperOfCurrent()
    }

    @usableFromInline @inline(never)
    static func keeperOfCurrent() -> SingletonKeeper? {
        current.keeper
    }

    /// How many links naming a singleton's making have not ended, in every task (what the tests
    /// read: `sck_task_keepers`).
    static var keepersRunning: Int {
        sck_task_keepers_load()
    }

    /// The cycle error when `provider` is already being obtained in this chain of tasks (also
    /// outside the makings that nothing awaits, when `acrossUnawaited`: a `many` get's check).
    /// Out of line: inlined into `whileObtaining`, it cost each async `many` get one more
    /// allocation from its task and about 170 instructions in all. (The async singletons' gets
    /// call it only on the way to a making, out of line already.)
    @inline(never)
    func cycle(at provider: ObjectIdentifier, _ service: Any.Type, acrossUnawaited: Bool = false) -> ServiceObtainError? {
        innermostLink(acrossUnawaited: acrossUnawaited) { $0.provider == provider } == nil
            ? nil : ThreadContext.cycleError(service)
    }

    /// Runs `body`, the making of a `many` service of type `service`, in the current task and on
    /// the caller's executor with `provider` being obtained; while a validation or a recorder
    /// runs, recorded as a making of `node`, when one is given. Not generic, so that a get
    /// compiled for its service type calls it without handing it any metadata.
    ///
    /// - Throws: a dependency cycle when `provider` is already being obtained in this chain of
    ///   tasks, or the shutdown error when it was shut down; `body` is not run then.
    @usableFromInline
    nonisolated(nonsending) static func whileObtaining(
        _ provider: ObjectIdentifier,
        service: Any.Type,
        node: ObjectIdentifier? = nil,
        _ body: nonisolated(nonsending) () async -> Void
    ) async throws(ServiceObtainError) {
        let isOn = GetRecording.isOn
        if isOn {
            try ShutdownRegistry.check(provider, service)
        }
        let context = current
        if let cycle = context.cycle(at: provider, service, acrossUnawaited: true) {
            throw cycle
        }
        let inner = context.entering(provider)
        if isOn, GetRecording.isRecording {
            let recording = node.flatMap(TaskRecording.making)
            await $current.withValue(inner, on: #isolation) { await TaskRecording.run(recording, body) }
        } else {
            await $current.withValue(inner, on: #isolation, body)
        }
        inner.end()
    }

    /// Runs `body`, the making of a synchronous singleton, with `keeper` as the innermost
    /// singleton of this task (or of this thread's task-local values, outside a task): a
    /// `Task {}` the factory starts is checked for captive gets while the making runs, as one an
    /// async factory starts is. The link names no provider, so that task's gets are not checked
    /// for cycles: a get of the provider being made waits for the making, as one from any other
    /// thread does, and a factory that waits for such a task waits for ever
    /// (`docs/concurrency.md`).
    @usableFromInline
    static func whileKeeping<Value>(_ keeper: SingletonKeeper, _ body: () -> Value) -> Value {
        let inner = current.entering(nil, keeper: keeper)
        defer { inner.end() }
        return $current.withValue(inner, operation: body)
    }

    /// Runs `body` with `context` as the task's context, and returns what it returns.
    static func with<Value: Sendable>(
        _ context: TaskContext,
        _ body: () async -> Value
    ) async -> Value {
        await $current.withValue(context, operation: body)
    }
}

/// The providers a chain of tasks is obtaining, innermost first: each get adds a link in front of
/// the ones it found, which stay shared, so that entering a provider allocates one small object
/// instead of copying an array of all of them. A link says which making it runs and which
/// singleton that making keeps, when it is the one that starts them, and whether its obtaining
/// has ended (`TaskContext.innermostLink(where:)` says why).
final class ObtainingChain: Sendable {
    /// The async provider obtained; `nil` for a synchronous making (`TaskContext.whileKeeping`).
    let provider: ObjectIdentifier?
    /// The `AsyncMaking.number` of the making this link starts, if it starts one.
    let making: UInt64?
    let keeper: SingletonKeeper?
    let outer: ObtainingChain?
    /// Whether this link starts a making that the obtainings outside it do not await
    /// (`TaskContext.startingUnawaited()`); it names no provider.
    let beginsUnawaited: Bool
    private let ended = Atomic<Bool>(false)

    init(
        _ provider: ObjectIdentifier?,
        making: UInt64?,
        keeper: SingletonKeeper?,
        outer: ObtainingChain?,
        beginsUnawaited: Bool = false
    ) {
        self.provider = provider
        self.making = making
        self.keeper = keeper
        self.outer = outer
        self.beginsUnawaited = beginsUnawaited
        if keeper != nil { sck_task_keepers_add(1) }
    }

    // A link naming a singleton that was never ended uncounts itself here.
    deinit {
        if keeper != nil { end() }
    }

    /// Whether the obtaining of `provider` has ended.
    var hasEnded: Bool {
        ended.load(ordering: .acquiring)
    }

    /// Marks the obtaining of `provider` as over; a link naming a singleton is then no longer
    /// counted (`TaskContext.currentKeeper`).
    func end() {
        guard keeper != nil else { return ended.store(true, ordering: .releasing) }
        if !ended.exchange(true, ordering: .releasing) {
            sck_task_keepers_add(-1)
        }
    }
}

/// The waits of makings for other makings, across tasks: `from` waits for `to` while its task
/// (or a child task of it) awaits `to`'s result. Only gets that wait for a making in progress
/// come here.
///
/// Makings are named by their `AsyncMaking.number`, not by their address: a task that a factory
/// started with `Task {}` may still wait, under its making's name, after that making ended and
/// was released, and a making made later at the same address would take over that wait, and
/// see a loop that is not there.
enum AsyncWaits {
    /// For each waiting making, the makings it waits for and the services they make (one entry
    /// per wait).
    private static let edges = Locked<[UInt64: [(to: UInt64, service: Any.Type)]]>([:])

    /// Records that `from` waits for `to`, a making of `service`. When `to` already waits
    /// (directly or through others) for `from`, so that this wait would never end, records
    /// nothing and returns the services of that chain, from `service` to the one `from` makes.
    static func begin(from: UInt64, to: UInt64, service: Any.Type) -> [Any.Type]? {
        edges.withLock { edges in
            if let loop = chain(from: to, making: service, to: from, in: edges) {
                return loop
            }
            edges[from, default: []].append((to, service))
            return nil
        }
    }

    /// Removes one wait of `from` for `to`.
    static func end(from: UInt64, to: UInt64) {
        edges.withLock { edges in
            guard var targets = edges[from], let index = targets.firstIndex(where: { $0.to == to }) else { return }
            targets.remove(at: index)
            edges[from] = targets.isEmpty ? nil : targets
        }
    }

    /// The services of the makings from `start` (which makes `service`) to `target`, when
    /// `target` is `start` or a making `start` waits for, directly or not.
    private static func chain(
        from start: UInt64,
        making service: Any.Type,
        to target: UInt64,
        in edges: [UInt64: [(to: UInt64, service: Any.Type)]]
    ) -> [Any.Type]? {
        // Each making reached, with the making it was reached from and the service it makes;
        // the path is built only once `target` is reached.
        var reachedFrom: [UInt64: (from: UInt64?, service: Any.Type)] = [start: (nil, service)]
        var pending = [start]
        while let making = pending.popLast() {
            if making == target {
                var services: [Any.Type] = []
                var step: UInt64? = making
                while let current = step, let reached = reachedFrom[current] {
                    services.append(reached.service)
                    step = reached.from
                }
                return services.reversed()
            }
            for edge in edges[making] ?? [] where reachedFrom[edge.to] == nil {
                reachedFrom[edge.to] = (making, edge.service)
                pending.append(edge.to)
            }
        }
        return nil
    }
}
