import Synchronization

/// The providers that `ServiceShutdown` shut down, by the object their gets are checked under
/// (`ShutdownProvider.shutdownKey`): a get of one fails.
///
/// A get looks here only on its slow path, which is on for good in a process once a container
/// was shut down (`GetRecording.noteShutdown()`): a get of a made service costs nothing more
/// before that. A making looks here too (`GetRecording.recordMaking`), by the identity its cycle
/// check uses, which is the key of the providers whose get goes straight to a making (a params
/// provider's maker). The objects are held weakly, so a shut-down container is released as any
/// other: an entry matches only while its object lives, and no other living object has its
/// address. Entries whose object died are dropped at the next shutdown.
enum ShutdownRegistry {
    private static let state = Locked(State())

    private struct State: Sendable {
        var entries: [ObjectIdentifier: UncheckedSendable<WeakObject>] = [:]
        /// The count at which entries whose object died are dropped: twice the live ones after
        /// the last drop, so that dropping costs a constant per entry added.
        var pruneAt = 64
    }

    /// Shuts down the providers checked under `keys`, from now on, and gives those that were
    /// not shut down before.
    static func add(_ keys: [AnyObject]) -> Set<ObjectIdentifier> {
        GetRecording.noteShutdown()
        let (fresh, dropped) = state.withLock { state in
            var dead: [UncheckedSendable<WeakObject>] = []
            if state.entries.count + keys.count >= state.pruneAt {
                dead = Array(state.entries.values.filter { $0.value.object == nil })
                state.entries = state.entries.filter { $0.value.value.object != nil }
                state.pruneAt = max(64, 2 * (state.entries.count + keys.count))
            }
            var fresh: Set<ObjectIdentifier> = []
            fresh.reserveCapacity(keys.count)
            for key in keys {
                let id = ObjectIdentifier(key)
                if let entry = state.entries[id], entry.value.object != nil { continue }
                state.entries[id] = UncheckedSendable(WeakObject(key))
                fresh.insert(id)
            }
            return (fresh, dead)
        }
        withExtendedLifetime(dropped) {}
        return fresh
    }

    /// Whether the provider checked under the object `key` names was shut down.
    static func isShutDown(_ key: ObjectIdentifier) -> Bool {
        guard GetRecording.shutdownHappened else { return false }
        return state.withLock { $0.entries[key].map { $0.value.object != nil } ?? false }
    }

    /// Fails a get of a `service` whose provider (checked under `key`) was shut down.
    static func check(_ key: AnyObject, _ service: Any.Type) throws(ServiceObtainError) {
        try check(ObjectIdentifier(key), service)
    }

    /// Fails a get of a `service` whose provider (checked under the object `key` names) was shut
    /// down.
    static func check(_ key: ObjectIdentifier, _ service: Any.Type) throws(ServiceObtainError) {
        if isShutDown(key) {
            throw ServiceObtainError(service: service, error: ServiceFactoryError.shutDown(service: service))
        }
    }
}

/// The order in which makings end, across the process: each made singleton keeps the tick its
/// making ended at, and a shutdown closes the latest first.
@usableFromInline
enum MakingClock {
    private static let last = Atomic<UInt64>(0)

    /// A tick later than every one before it.
    @usableFromInline
    static func tick() -> UInt64 {
        last.add(1, ordering: .relaxed).newValue
    }
}

/// A service a provider made that closes, with its type and the tick its making ended at.
struct MadeService: Sendable {
    let service: any ClosableService
    let type: Any.Type
    let madeAt: UInt64
}

/// A provider that `ServiceShutdown` shuts down: its gets are refused afterwards, and the
/// services it made that close are closed.
protocol ShutdownProvider: AnyObject {
    /// The object its gets are checked under once it is shut down.
    var shutdownKey: AnyObject { get }
    /// The services it made that close and are still alive: not those handed in, not `many`
    /// ones, not those of scopes.
    func madeClosables() -> [MadeService]
}

// MARK: - The providers

extension ServiceSource {
    /// The object a get of a provider of this source is checked under after a shutdown: the
    /// source's own, or `nil` for a provider that holds its service (it is checked under
    /// itself).
    var shutdownKey: AnyObject? {
        switch self {
        case .holdsService, .madeAtOne: nil
        case .lazy(let source): source
        case .weak(let source): source
        case .many(let source): source
        case .scoped(let source): source
        case .session(let cell): cell
        case .safe(let source): source
        case .failed(let source): source
        case .recorded(let source): source
        }
    }

    /// The services this source made that close; `instance` is the service its provider holds.
    func madeClosables(instance: Service?) -> [MadeService] {
        switch self {
        case .madeAtOne(let mark):
            guard let closable = instance.flatMap({ $0 as? any ClosableService }) else { return [] }
            return [MadeService(service: closable, type: Service.self, madeAt: mark.madeAt)]
        case .lazy(let source):
            guard let (service, madeAt) = source.made, let closable = service as? any ClosableService else { return [] }
            return [MadeService(service: closable, type: Service.self, madeAt: madeAt)]
        case .weak(let source):
            return source.state.withLock { $0.held }?.madeClosable().map { [$0] } ?? []
        case .session(let cell):
            return cell.madeClosables()
        case .safe(let source):
            return source.inner.madeClosables()
        case .recorded(let source):
            return source.source.madeClosables(instance: source.instance?.value)
        case .holdsService, .many, .scoped, .failed:
            return []
        }
    }
}

extension ServiceProvider: ShutdownProvider {
    var shutdownKey: AnyObject { source.shutdownKey ?? self }

    func madeClosables() -> [MadeService] {
        source.madeClosables(instance: instance)
    }
}

extension AsyncServiceSource {
    /// The services this source made that close.
    var madeClosables: [MadeService] {
        switch self {
        case .atOne(let source):
            guard let service = source.cell.value, let closable = service as? any ClosableService else { return [] }
            return [MadeService(service: closable, type: Service.self, madeAt: source.madeAt.load(ordering: .relaxed))]
        case .lazy(let source):
            guard let (service, madeAt) = source.made, let closable = service as? any ClosableService else { return [] }
            return [MadeService(service: closable, type: Service.self, madeAt: madeAt)]
        case .weak(let source):
            return source.madeClosable.map { [$0] } ?? []
        case .sync(let provider):
            return provider.madeClosables()
        case .holdsService, .many, .scoped:
            return []
        }
    }
}

extension ServiceAsyncProvider: ShutdownProvider {
    var shutdownKey: AnyObject { self }

    func madeClosables() -> [MadeService] {
        source.madeClosables
    }
}

extension ServiceParamsProvider: ShutdownProvider {
    /// The maker, whose making every get runs (`GetRecording.recordMaking` checks it).
    var shutdownKey: AnyObject { maker }

    func madeClosables() -> [MadeService] { [] }
}

extension ServiceAsyncParamsProvider: ShutdownProvider {
    var shutdownKey: AnyObject { self }

    func madeClosables() -> [MadeService] { [] }
}

extension ServiceMainActorProvider: ShutdownProvider {
    /// Its services belong to the main actor and are not closed by a shutdown; its gets are
    /// refused afterwards.
    nonisolated var shutdownKey: AnyObject { self }

    nonisolated func madeClosables() -> [MadeService] { [] }
}
