import CServiceContainerKit
import Synchronization

/// Records which provider's get asked for which, for `ServiceValidator` and
/// `ServiceGraphRecorder`: the one mechanism behind both.
///
/// Three kinds of gets are recorded, each with the identity of what it runs in:
/// - a making (`ThreadContext.withEntered`: a `lazy`, `weak`, `many`, session, params or safe
///   get that runs a factory), under the identity the cycle check uses;
/// - any get of a provider made while this thread records (`RecordedSource`), under its
///   `RecordingNode`, with its time;
/// - any get of a provider asked by a recorded making (`recordGet(of:service:)`), under the
///   provider's identity, whatever its state: a read of a service held ready is an edge too.
///
/// Each thread keeps the gets it is in (`ThreadRecording.frames`), so the get that asked for a
/// service is the innermost one when it starts. An async get is recorded the same way, under the
/// identity of its provider's source: its task keeps the making it runs (`TaskRecording`),
/// which asks for what its factory gets, async or not.
@usableFromInline
package enum GetRecording {
    /// Whether any validation or recorder runs, or a container was ever shut down: the one
    /// check of a get while nothing records, one relaxed load of a C global
    /// (`CServiceContainerKit.h` says why C) and a branch. The locators ask it too, for the
    /// services they keep without a provider.
    @inlinable
    package static var isOn: Bool { sck_recording_users_load() != 0 }

    /// How many validations and graph recorders are running.
    static var users: Int { sck_recording_users_load() & (SCK_SHUTDOWN_HAPPENED - 1) }

    /// Whether a container was ever shut down in this process (`ServiceShutdown`).
    static var shutdownHappened: Bool { sck_recording_users_load() & SCK_SHUTDOWN_HAPPENED != 0 }

    /// Turns the slow path of every get on for good: a container is being shut down.
    static func noteShutdown() {
        if !shutdownHappened {
            shutdownFlag.withLock { isSet in
                guard !isSet else { return }
                isSet = true
                sck_recording_users_add(SCK_SHUTDOWN_HAPPENED)
            }
        }
    }

    private static let shutdownFlag = Locked(false)

    /// Counts a validation or a recorder that starts (`1`) or ends (`-1`).
    static func count(_ delta: Int) {
        sck_recording_users_add(delta)
    }

    /// The logs of the recorders running on every thread.
    private static let recorders = Locked<[GetLog]>([])
    /// How many recorders run: read without the lock, so that while only validations run, the
    /// gets of the threads that run none take no lock they would all contend for.
    private static let recorderCount = Atomic<Int>(0)

    /// How many recorders run.
    static var runningRecorders: Int { recorders.withLock { $0.count } }

    /// Whether a recorder runs, read without the lock.
    static var recordersRun: Bool { recorderCount.load(ordering: .acquiring) > 0 }

    /// Starts sending every thread's gets to `log` (`ServiceGraphRecorder`).
    static func addRecorder(_ log: GetLog) {
        recorders.withLock { recorders in
            recorders.append(log)
            recorderCount.store(recorders.count, ordering: .releasing)
        }
    }

    /// Stops sending gets to `log`.
    static func removeRecorder(_ log: GetLog) {
        recorders.withLock { recorders in
            recorders.removeAll { $0 === log }
            recorderCount.store(recorders.count, ordering: .releasing)
        }
    }

    /// The logs a get on the current thread goes to: the validation running on it or on its
    /// task, else the running recorders.
    static func logs() -> [GetLog] {
        if let log = ThreadContext.recording?.log {
            return [log]
        }
        if let log = TaskRecording.active?.log {
            return [log]
        }
        guard recordersRun else { return [] }
        return recorders.withLock { $0 }
    }

    /// Whether a validation or a recorder runs (not only a shutdown that happened).
    static var isRecording: Bool { users > 0 }

    /// The logs of the validations running on every thread.
    private static let validations = Locked<[GetLog]>([])

    /// Runs `body` with `log` counted as a running validation's: a validation including async
    /// providers, from the building of its container to its last awaited get
    /// (`beginValidation`).
    nonisolated(nonsending) static func whileValidating<Result>(
        _ log: GetLog,
        _ body: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        beginValidation(log)
        defer { endValidation(log) }
        return try await body()
    }

    /// Counts `log` as a running validation's until `endValidation(log)`: recording is on, so
    /// that the threads and tasks that carry `log` record for it, and a provider released
    /// meanwhile is renamed in it (`retire`). The pairs nest: `whileValidating` counts a log
    /// around the synchronous part of its validation, which counts it too (`withThreadLog`).
    private static func beginValidation(_ log: GetLog) {
        validations.withLock { $0.append(log) }
        count(1)
    }

    /// Ends what the matching `beginValidation(log)` began.
    private static func endValidation(_ log: GetLog) {
        count(-1)
        let found = validations.withLock { logs in
            logs.lastIndex { $0 === log }.map { logs.remove(at: $0) } != nil
        }
        assert(found, "endValidation(_:) of a log with no beginValidation(_:) left")
    }

    /// Runs `body` with `log` recording the gets of this thread (a validation).
    static func withThreadLog<Result>(_ log: GetLog, _ body: () throws -> Result) rethrows -> Result {
        let recording = ThreadContext.recordingState
        let outer = recording.log
        recording.log = log
        beginValidation(log)
        defer {
            endValidation(log)
            recording.log = outer
        }
        return try body()
    }

    /// Runs `body`, the async part of a validation, with `recording` (of its log) recording the
    /// gets of this task and of the tasks it starts, as `withThreadLog` does for a thread; then
    /// ends `recording`, so that a task started meanwhile that outlives the validation records
    /// for it no more. The validation counts as running around it, from the building of its
    /// container on (`whileValidating`).
    nonisolated(nonsending) static func withTaskLog<Result>(
        _ recording: TaskRecording,
        _ body: nonisolated(nonsending) () async -> Result
    ) async -> Result {
        guard recording.log != nil else { return await body() }
        defer { _ = recording.end() }
        return await TaskRecording.$current.withValue(recording, on: #isolation, body)
    }

    /// The making whose gets this thread records now: the innermost get of the thread, else the
    /// making its task runs (`asksInTask`).
    @inline(__always)
    static var asker: ObjectIdentifier? {
        let recording = ThreadContext.recording
        if let node = recording?.frames.last?.node {  // not the whole frame, which a binding copies
            return node
        }
        return asksInTask(recording) ? TaskRecording.active?.node : nil
    }

    /// Whether a get outside every get of this thread, which has `recording`, belongs to the
    /// making its task runs: not on a thread that runs a synchronous validation, whose gets are
    /// its own (and which reads no task-local value for each of them), nor while the thread
    /// delivers a log event, whose gets are the logger's (`ThreadContext.withLogDelivery(_:)`).
    private static func asksInTask(_ recording: ThreadRecording?) -> Bool {
        recording?.log == nil && !ThreadContext.isDeliveringLogEvent
    }

    /// Renames `identity`, whose object is being released, in every running log
    /// (`KeptIdentities`): a provider made later at the same address is then a node of its own.
    static func retire(_ identity: ObjectIdentifier) {
        guard users > 0 else { return }
        for log in recorders.withLock({ $0 }) + validations.withLock({ $0 }) {
            log.retire(identity)
        }
    }

    /// The node of a provider being made now, when this thread records: its gets are then
    /// recorded for as long as it lives.
    @usableFromInline
    static func nodeForNewProvider() -> RecordingNode? {
        guard isOn, !logs().isEmpty else { return nil }
        return RecordingNode()
    }

    /// Records a get of `node`, a `service`: its asker, and for a making its time and outcome.
    /// `covering` are the identities of the makings the get may run (a recorded provider's);
    /// `running` is the identity of another provider whose factory the making runs (a provider
    /// made by `convert(params:)` runs its params provider's).
    @usableFromInline
    static func record<Value>(
        node: ObjectIdentifier,
        service: Any.Type,
        isMaking: Bool,
        covering: [ObjectIdentifier] = [],
        running other: ObjectIdentifier? = nil,
        _ body: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        let logs = logs()
        if logs.isEmpty {
            return try body()
        }
        let recording = ThreadContext.recordingState
        let asker = asker
        for log in logs {
            log.asked(by: asker, for: node, service: service, isCycle: false, covering: covering)
            if let other {
                log.asked(by: node, for: other, service: service, isCycle: false)
            }
        }
        // The outermost get of the thread is a wait of the making its task runs, if any.
        let waiting = recording.frames.isEmpty && asksInTask(recording) ? TaskRecording.active : nil
        waiting?.beginWait()
        recording.frames.append(ThreadRecording.Frame(node: node, covering: covering, start: .now))
        let result = Result { () throws(ServiceObtainError) -> Value in try body() }
        let frame = recording.frames.removeLast()
        let total = frame.start.duration(to: .now)
        waiting?.endWait()
        if !recording.frames.isEmpty {
            recording.frames[recording.frames.count - 1].asked += total
        }
        let failure = result.obtainError
        if isMaking || failure != nil {
            let own = isMaking ? total - frame.asked : nil
            for log in logs {
                log.finished(node, own: own, failure: failure)
            }
        }
        return try result.get()
    }

    /// Records a get of the provider `node` asked by the making that runs on this thread, if
    /// any: the edge from that making to the provider, whatever the provider's state (a service
    /// held ready included, which runs nothing else that records).
    @usableFromInline @inline(never)
    static func recordGet(of node: ObjectIdentifier, service: Any.Type) {
        guard let asker else { return }
        for log in logs() {
            log.asked(by: asker, for: node, service: service, isCycle: false)
        }
    }

    /// Records an async get of `node`, a `service`, that `body` makes: its asker (the making
    /// that runs in this task, if any), its time, as a wait of the asker, and its failure, but
    /// not a cancelled get's (the making it waited for goes on). The making it may start records
    /// its own time (`TaskRecording.run`).
    nonisolated(nonsending) static func recordAsync<Value>(
        of node: ObjectIdentifier,
        service: Any.Type,
        _ body: nonisolated(nonsending) () async throws(ServiceObtainError) -> Value
    ) async throws(ServiceObtainError) -> Value {
        let logs = logs()
        if logs.isEmpty {
            return try await body()
        }
        let asker = TaskRecording.active
        for log in logs {
            log.asked(by: asker?.node, for: node, service: service, isCycle: false)
        }
        asker?.beginWait()
        defer { asker?.endWait() }
        do {
            return try await body()
        } catch {
            if !(error.error is CancellationError && Task.isCancelled) {
                for log in logs {
                    log.finished(node, own: nil, failure: error)
                }
            }
            throw error
        }
    }

    /// Records a making of `node` (`id` unless given) that `ThreadContext.withEntered` runs:
    /// out of line, so that the making paths, which inline `withEntered`, grow by a call only.
    @usableFromInline @inline(never)
    static func recordMaking<Value>(
        _ id: ObjectIdentifier,
        node: ObjectIdentifier?,
        service: Any.Type,
        _ body: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        try ShutdownRegistry.check(id, service)
        // A node of its own that is not `id` (a converted provider's) runs the making of `id`.
        let running = node.flatMap { $0 == id ? nil : id }
        return try record(node: node ?? id, service: service, isMaking: true, running: running, body)
    }

    /// Records a dependency cycle: the get that asked for `node`, which is being obtained, is
    /// the innermost one below the refused get itself (the recorded gets of `node`'s own
    /// provider, innermost): another provider's making, or `node`'s own when its factory asked
    /// for itself, an edge to itself.
    static func recordCycle(node: ObjectIdentifier, service: Any.Type) {
        let logs = logs()
        guard !logs.isEmpty else { return }
        let frames = ThreadContext.recordingState.frames
        var end = frames.count
        while end > 0, frames[end - 1].covering.contains(node) {
            end -= 1
        }
        let asker = end > 0 ? frames[end - 1].node : nil
        for log in logs {
            log.asked(by: asker, for: node, service: service, isCycle: true)
        }
    }

    /// Makes the service of an `atOne` provider, recorded under `node` when there is one.
    @usableFromInline
    static func makeAtOne<Service>(
        _ node: RecordingNode?,
        _ factory: () throws -> Service
    ) -> Result<Service, ServiceObtainError> {
        guard let node else {
            return FactoryCall.result(Service.self, factory)
        }
        return Result { () throws(ServiceObtainError) -> Service in
            try record(node: ObjectIdentifier(node), service: Service.self, isMaking: true) {
                () throws(ServiceObtainError) -> Service in
                try FactoryCall.make(Service.self, factory)
            }
        }
    }
}

/// What a task records, a task-local value: the validation it runs, if any, and the async
/// making it runs, whose own time it keeps (`GetRecording.recordAsync`). A task started in it
/// inherits it, as a child task does; a making's task gets one of its own. It ends with its
/// making (or its validation): a task started meanwhile that outlives it records no more for it.
final class TaskRecording: Sendable {
    /// The identity the making this task runs is recorded under; `nil` outside any making.
    let node: ObjectIdentifier?
    private let state: Locked<State>

    private struct State {
        /// The log of the validation this task runs for; `nil` for the running recorders, and
        /// once the recording ended.
        var log: GetLog?
        var hasEnded = false
        /// The gets the making waits for now, from its task and the tasks it started.
        var waits = 0
        var waitsBegan = ContinuousClock.now
        /// The time during which the making waited for at least one get: gets that ran side by
        /// side (`async let`, a task group) count once.
        var waited = Duration.zero
    }

    @TaskLocal fileprivate static var current: TaskRecording?

    init(log: GetLog?, node: ObjectIdentifier?) {
        self.node = node
        state = Locked(State(log: log))
    }

    /// The recording of this task, while it has not ended. Once a container was shut down,
    /// every get asks while nothing records: one load then, not a task-local look-up.
    static var active: TaskRecording? {
        guard GetRecording.isRecording, let recording = current, !recording.hasEnded else { return nil }
        return recording
    }

    private var hasEnded: Bool { state.withLock { $0.hasEnded } }

    /// The log of the validation this task runs for, while the recording runs.
    var log: GetLog? { state.withLock { $0.log } }

    func beginWait() {
        state.withLock { state in
            if state.waits == 0 { state.waitsBegan = .now }
            state.waits += 1
        }
    }

    func endWait() {
        state.withLock { state in
            state.waits -= 1
            if state.waits == 0 { state.waited += state.waitsBegan.duration(to: .now) }
        }
    }

    /// Ends the recording: its log is let go of. The time it waited.
    func end() -> Duration {
        state.withLock { state in
            state.hasEnded = true
            state.log = nil
            return state.waited
        }
    }

    /// The recording of a making of `node` that starts now, on this task: `nil` when nothing
    /// records it.
    static func making(_ node: ObjectIdentifier) -> TaskRecording? {
        let log = active?.log
        guard log != nil || GetRecording.recordersRun else { return nil }
        return TaskRecording(log: log, node: node)
    }

    /// Runs `body` with `recording` as this task's (a validation's synchronous part).
    static func with<Value>(_ recording: TaskRecording, _ body: () throws -> Value) rethrows -> Value {
        try $current.withValue(recording, operation: body)
    }

    /// Runs `body`, a making, in `recording`, then records the making's own time: not counting
    /// the time it waited for the gets it asked for. The recording ends with the making.
    nonisolated(nonsending) static func run<Value>(
        _ recording: TaskRecording?,
        _ body: nonisolated(nonsending) () async -> Value
    ) async -> Value {
        guard let recording, let node = recording.node else {
            return await body()
        }
        let start = ContinuousClock.now
        let value = await $current.withValue(recording, on: #isolation, body)
        let logs = recording.log.map { [$0] } ?? GetRecording.logs()
        let own = max(.zero, start.duration(to: .now) - recording.end())
        for log in logs {
            log.finished(node, own: own, failure: nil)
        }
        return value
    }

    /// Runs `body`, which delivers a log event, outside the recording of this task: the gets of
    /// a logger, and of a task it starts, are its own.
    static func outside(_ body: () -> Void) {
        guard current != nil else { return body() }
        $current.withValue(nil, operation: body)
    }
}

/// What one thread records: the validation it runs, and the gets it is in, innermost last.
/// Only its own thread touches it.
final class ThreadRecording {
    struct Frame {
        let node: ObjectIdentifier
        /// The identities of the makings this get may run itself.
        let covering: [ObjectIdentifier]
        let start: ContinuousClock.Instant
        /// The time of the gets this one asked for, which is not its own.
        var asked: Duration = .zero
    }

    var log: GetLog?
    var frames: [Frame] = []
}

/// The identity under which the gets of a provider made while recording are recorded.
@usableFromInline
final class RecordingNode: Sendable {
    @usableFromInline init() {}

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)
}

/// The source of a provider made while recording: every get, a read of a held service included,
/// is recorded under `node`, then answered by the provider's own `source`.
@usableFromInline
final class RecordedSource<Service>: Sendable {
    let node: RecordingNode
    let source: ServiceSource<Service>

    init(node: RecordingNode, source: ServiceSource<Service>) {
        self.node = node
        self.source = source
        let identities = source.recordingIdentities
        for log in GetRecording.logs() {
            log.alias(identities, to: ObjectIdentifier(node))
        }
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    @usableFromInline
    func get() throws(ServiceObtainError) -> Service {
        guard GetRecording.isOn else {
            return try unrecordedGet()
        }
        return try GetRecording.record(
            node: ObjectIdentifier(node), service: Service.self, isMaking: false, covering: source.recordingIdentities
        ) { () throws(ServiceObtainError) -> Service in
            try unrecordedGet()
        }
    }

    private func unrecordedGet() throws(ServiceObtainError) -> Service {
        if let held = source.held {
            return held.service
        }
        return try source.get()
    }
}

/// What a validation or a recorder saw, in the identities the gets were recorded under:
/// `ServiceGraph.assemble` maps them to the providers of a container.
final class GetLog: Sendable {
    struct Edge: Hashable {
        let from: ObjectIdentifier
        let to: ObjectIdentifier
        let isCycle: Bool
    }

    /// What the log saw, as `snapshot` gives it: each object by its identity, or, once it was
    /// released, by the identity of a `Retired` that stands for it.
    struct State {
        /// The service type of each identity, and the identities in the order they were seen.
        var services: [ObjectIdentifier: Any.Type] = [:]
        var order: [ObjectIdentifier] = []
        var edgeOrder: [Edge] = []
        /// The identity of the provider each other identity belongs to: the makings of a
        /// recorded provider are recorded under its source's identities.
        var aliases: [ObjectIdentifier: ObjectIdentifier] = [:]
        /// The time spent in each identity's makings, not counting the gets they asked for.
        var ownTimes: [ObjectIdentifier: Duration] = [:]
        /// The last failure of a get of each identity.
        var failures: [ObjectIdentifier: ServiceObtainError] = [:]
        /// What stands for the released objects, kept so that no other object takes the
        /// identities they were renamed to.
        var retired: [Retired] = []
    }

    /// What the log keeps: the same, under the number of the entry each object got when the log
    /// first saw it (`live`). The release of an object ends its entry's tie to its identity, one
    /// removal however much the log holds; an object made later at the same address gets an
    /// entry of its own.
    private struct Entries {
        struct Edge: Hashable {
            let from: Int
            let to: Int
            let isCycle: Bool
        }

        /// The entry of each object the log saw that is alive.
        var live: [ObjectIdentifier: Int] = [:]
        /// The identity of each entry's object, or of the `Retired` that stands for it.
        var identities: [ObjectIdentifier] = []
        var retired: [Retired] = []
        var services: [Int: Any.Type] = [:]
        var order: [Int] = []
        var edges: Set<Edge> = []
        var edgeOrder: [Edge] = []
        var aliases: [Int: Int] = [:]
        var ownTimes: [Int: Duration] = [:]
        var failures: [Int: ServiceObtainError] = [:]

        /// Ties the entries of `identities` to `target`, each to the first one it was tied to.
        mutating func alias(_ identities: [ObjectIdentifier], to target: Int) {
            for identity in identities {
                let entry = entry(identity)
                if aliases[entry] == nil {
                    aliases[entry] = target
                }
            }
        }

        mutating func entry(_ identity: ObjectIdentifier) -> Int {
            if let entry = live[identity] { return entry }
            let entry = identities.count
            identities.append(identity)
            live[identity] = entry
            return entry
        }
    }

    private let entries = Locked(Entries())

    /// Records a get of `node` asked by `asker`. `covering` are the identities of the makings
    /// the get may run, which belong to `node`: tied to it here too, as `RecordedSource` ties
    /// them when it is made, for a log that began after that.
    func asked(
        by asker: ObjectIdentifier?,
        for node: ObjectIdentifier,
        service: Any.Type,
        isCycle: Bool,
        covering: [ObjectIdentifier] = []
    ) {
        entries.withLock { entries in
            let to = entries.entry(node)
            if entries.services.updateValue(service, forKey: to) == nil {
                entries.order.append(to)
            }
            entries.alias(covering, to: to)
            guard let asker else { return }
            let edge = Entries.Edge(from: entries.entry(asker), to: to, isCycle: isCycle)
            if entries.edges.insert(edge).inserted {
                entries.edgeOrder.append(edge)
            }
        }
    }

    func finished(_ node: ObjectIdentifier, own: Duration?, failure: ServiceObtainError?) {
        let replaced = entries.withLock { entries -> ServiceObtainError? in
            let entry = entries.entry(node)
            if let own {
                entries.ownTimes[entry, default: .zero] += own
            }
            guard let failure else { return nil }
            return entries.failures.updateValue(failure, forKey: entry)
        }
        // Released after the lock: an error may hold the last reference to a provider, whose
        // release retires its identity here (`retire(_:)`), under this lock.
        withExtendedLifetime(replaced) {}
    }

    func alias(_ identities: [ObjectIdentifier], to node: ObjectIdentifier) {
        entries.withLock { entries in entries.alias(identities, to: entries.entry(node)) }
    }

    /// Ends the tie of `identity`, whose object is being released, to what this log saw, so that
    /// an object made later at the same address is not taken for it: its gets stay in the graph,
    /// named by their service type.
    func retire(_ identity: ObjectIdentifier) {
        entries.withLock { entries in
            guard let entry = entries.live.removeValue(forKey: identity) else { return }
            let stand = Retired()
            entries.retired.append(stand)
            entries.identities[entry] = ObjectIdentifier(stand)
        }
    }

    /// An identity no live object has: what stands for a released one.
    final class Retired: Sendable {}

    var snapshot: State {
        entries.withLock { entries in
            let id = entries.identities
            return State(
                services: Dictionary(uniqueKeysWithValues: entries.services.map { (id[$0.key], $0.value) }),
                order: entries.order.map { id[$0] },
                edgeOrder: entries.edgeOrder.map { Edge(from: id[$0.from], to: id[$0.to], isCycle: $0.isCycle) },
                aliases: Dictionary(uniqueKeysWithValues: entries.aliases.map { (id[$0.key], id[$0.value]) }),
                ownTimes: Dictionary(uniqueKeysWithValues: entries.ownTimes.map { (id[$0.key], $0.value) }),
                failures: Dictionary(uniqueKeysWithValues: entries.failures.map { (id[$0.key], $0.value) }),
                retired: entries.retired
            )
        }
    }
}
