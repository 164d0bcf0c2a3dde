import Synchronization

/// Holds the current session and tells the session providers bound to it when it changes.
///
/// ```swift
/// let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
/// let provider = UserDataFactory().serviceProvider(mediator: mediator)
/// mediator.updateSession(UserSession(userId: 2))  // provider's service now belongs to user 2
/// ```
///
/// Providers subscribe weakly and unsubscribe when they are released; both cost the same
/// whatever the number of providers. An update reaches the providers in the order they
/// subscribed, on the thread that applies it, with no state lock held while their factories and
/// hooks run (only the `makingLock` of a service being made, which other gets of that service
/// wait on).
///
/// Updates are applied one at a time, in the order they were made. An update made while
/// another is being applied (from a session hook, a factory, a `deinit` that the switch runs,
/// or on another thread) is queued: `session` returns it at once, and the thread applying
/// updates applies it right after the current one, before its own `updateSession` returns.
public final class ServiceSessionMediator<SessionType: ServiceSession>: Sendable {
    // Everything mutable is inside `state`. The session is kept there as an
    // `any ServiceSession`, so that the state is one concrete type for every mediator: the
    // mediator's generic code reaches it with no generic metadata looked up at run time.
    // Measured on `core/session release, 10,000`: with a state generic over the session type,
    // subscribing and unsubscribing a provider looked up seven metadata records each time.
    private let state: Locked<SessionMediatorState>

    /// Makes a mediator whose current session is `session`.
    ///
    /// ```swift
    /// let mediator = ServiceSessionMediator(session: User(id: "ann"))
    /// ```
    public init(session: SessionType) {
        state = Locked(SessionMediatorState(current: session, key: SessionKey(session.key)))
    }

    /// The current session: the one given to the latest `updateSession`, even while that
    /// update is still queued behind another.
    ///
    /// ```swift
    /// let user = mediator.session  // User(id: "ann") until updateSession(_:remakePolicy:)
    /// ```
    public var session: SessionType {
        // Only `init` and `updateSession` set it, both with a `SessionType`.
        state.withLock { $0.current } as! SessionType
    }

    /// Makes `session` the current one and updates every bound provider.
    ///
    /// ```swift
    /// mediator.updateSession(User(id: "bob"))  // the bound providers give Bob's services
    /// ```
    ///
    /// When no other update is being applied, the providers are updated before this returns;
    /// otherwise the update is queued and applied right after the current one, by the thread
    /// applying updates (see the type's documentation): `session` returns it at once, but the
    /// providers may not follow it yet when this returns.
    ///
    /// - Parameters:
    ///   - session: the new current session.
    ///   - remakePolicy: what happens to kept services; see
    ///     ``ServiceSessionRemakePolicy``. The default is `.none`.
    public func updateSession(_ session: SessionType, remakePolicy: ServiceSessionRemakePolicy = .none) {
        // The session's `key` is user code: it is read here, before the lock, once for every
        // provider. The session and key it replaces are released after the lock: a session's or
        // a key's deinit may read this mediator.
        let key = SessionKey(session.key)
        let (appliesNow, replaced) = state.withLock { state in
            let replaced = state.enqueue(session, key: key, policy: remakePolicy)
            guard !state.isApplying else { return (false, replaced) }
            state.isApplying = true
            return (true, replaced)
        }
        withExtendedLifetime(replaced) {}
        guard appliesNow else { return }
        // This thread applies every update queued until none is left, outside the lock. Each
        // subscriber holds its provider weakly, and strongly only while it applies an update:
        // a provider released meanwhile is released there, outside the lock.
        while let (update, subscribers) = state.withLock({ $0.nextUpdate() }) {
            for step in SessionUpdateStep.allCases {
                for apply in subscribers {
                    apply(update, step)
                }
            }
        }
    }

    /// Subscribes `apply`, to be called with every later update, and hands `start` the
    /// session, its key and the version it starts from, under the mediator's lock, so that no
    /// update falls between the two. `start` runs no user code (the key was read when the
    /// session was set). `apply` must hold its provider weakly: the provider unsubscribes when
    /// it is released.
    @usableFromInline
    func subscribe(
        _ apply: @escaping @Sendable (SessionUpdate, SessionUpdateStep) -> Void,
        start: (any ServiceSession, SessionKey, UInt64) -> Void
    ) -> SessionSubscription {
        state.withLock { state in
            start(state.current, state.currentKey, state.version)
            return state.subscribers.add(apply)
        }
    }

    /// The number of subscribed providers, for tests and diagnostics.
    var observersCount: Int {
        state.withLock { $0.subscribers.count }
    }

    /// The number of slots of the subscriber list, empty ones included, for tests.
    var subscriptionSlots: Int {
        state.withLock { $0.subscribers.slotCount }
    }
}

extension ServiceSessionMediator: SessionMediating {
    @usableFromInline
    func unsubscribe(_ subscription: SessionSubscription) {
        state.withLock { $0.subscribers.remove(subscription) }
    }
}

/// A mediator as its providers see it, whatever its session type.
@usableFromInline
protocol SessionMediating: AnyObject, Sendable {
    func unsubscribe(_ subscription: SessionSubscription)
}

/// One `updateSession` call, as the providers receive it.
@usableFromInline
struct SessionUpdate: Sendable {
    @usableFromInline let session: any ServiceSession
    /// The session's `key`, read once by the mediator, outside every lock.
    @usableFromInline let key: SessionKey
    /// Counts the mediator's updates: every provider gets them in increasing order.
    @usableFromInline let version: UInt64
    @usableFromInline let policy: ServiceSessionRemakePolicy
}

/// The two steps of an update, which every provider takes one after the other, as 3.0 applied
/// them: every provider switches first (its `deactivateService` and `activateService` run), then
/// every `atOne` provider makes the new session's service, so that its factory gets the other
/// providers' services of the new session, whatever order they subscribed in (unless the thread
/// that applies the update is inside a making: see `SessionServiceCell.apply`).
@usableFromInline
enum SessionUpdateStep: CaseIterable, Sendable {
    case switchSession
    case makeAtOne
}

/// The state of a mediator, reached only through its lock.
struct SessionMediatorState {
    var current: any ServiceSession
    var currentKey: SessionKey
    var version: UInt64 = 0
    /// Whether a thread is applying the queued updates.
    var isApplying = false
    /// The queued updates from `head` on, oldest first; the ones before `head` were taken (and
    /// are `nil`, so that clearing them releases nothing under the lock). Taking one is O(1):
    /// the taken slots are dropped when they are half of the queue, or all of it.
    private var pending: [SessionUpdate?] = []
    private var head = 0
    var subscribers = SessionSubscriptions()

    init(current: any ServiceSession, key: SessionKey) {
        self.current = current
        self.currentKey = key
    }

    /// Queues an update to `session`, whose key is `key`; returns the session and key it
    /// replaces as the current ones, for the caller to release after the lock.
    mutating func enqueue(
        _ session: any ServiceSession,
        key: SessionKey,
        policy: ServiceSessionRemakePolicy
    ) -> (any ServiceSession, SessionKey) {
        var replaced = (session, key)
        swap(&current, &replaced.0)
        swap(&currentKey, &replaced.1)
        version &+= 1
        pending.append(SessionUpdate(session: session, key: key, version: version, policy: policy))
        return replaced
    }

    /// Takes the oldest queued update, with the providers to hand it to; `nil` (and the applying
    /// thread stops) when none is left. Updates are taken out of the queue, so that the caller
    /// releases them after the lock.
    mutating func nextUpdate() -> (SessionUpdate, [@Sendable (SessionUpdate, SessionUpdateStep) -> Void])? {
        guard head < pending.count, let update = pending[head].take() else {
            pending.removeAll(keepingCapacity: true)
            head = 0
            isApplying = false
            return nil
        }
        head += 1
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= pending.count {
            pending.removeFirst(head)
            head = 0
        }
        return (update, subscribers.live)
    }
}

/// A provider's place in its mediator's list of subscribers.
@usableFromInline
final class SessionSubscription: Sendable {
    let apply: @Sendable (SessionUpdate, SessionUpdateStep) -> Void
    /// Its slot in the list; read and written only under the mediator's lock, which orders the
    /// accesses (relaxed atomic ones, as plain as a stored property's).
    let index: Atomic<Int>

    init(apply: @escaping @Sendable (SessionUpdate, SessionUpdateStep) -> Void, index: Int) {
        self.apply = apply
        self.index = Atomic(index)
    }
}

/// The subscribers of a mediator in the order they subscribed, with O(1) adding and removing.
///
/// A removed subscription leaves an empty slot; once more than half of the slots are empty, the
/// list is compacted, which spreads its cost over the removals that made the slots empty.
struct SessionSubscriptions {
    private var slots: [SessionSubscription?] = []
    private(set) var count = 0

    var slotCount: Int { slots.count }

    mutating func add(_ apply: @escaping @Sendable (SessionUpdate, SessionUpdateStep) -> Void) -> SessionSubscription {
        let subscription = SessionSubscription(apply: apply, index: slots.count)
        slots.append(subscription)
        count += 1
        return subscription
    }

    mutating func remove(_ subscription: SessionSubscription) {
        let index = subscription.index.load(ordering: .relaxed)
        guard slots.indices.contains(index), slots[index] === subscription else { return }
        slots[index] = nil
        count -= 1
        if slots.count > 32, count < slots.count / 2 {
            compact()
        }
    }

    private mutating func compact() {
        var kept: [SessionSubscription?] = []
        kept.reserveCapacity(count * 2)
        for case let subscription? in slots {
            subscription.index.store(kept.count, ordering: .relaxed)
            kept.append(subscription)
        }
        slots = kept
    }

    /// What to call for each subscriber, in order.
    var live: [@Sendable (SessionUpdate, SessionUpdateStep) -> Void] {
        var result: [@Sendable (SessionUpdate, SessionUpdateStep) -> Void] = []
        result.reserveCapacity(count)
        for case let subscription? in slots {
            result.append(subscription.apply)
        }
        return result
    }
}

/// A session for services that are remade on demand rather than per user: there is only ever
/// one void session.
///
/// ```swift
/// let mediator = ServiceSessionMediator(session: ServiceVoidSession())
/// // the same as ServiceVoidSessionMediator()
/// ```
public struct ServiceVoidSession: ServiceSession, Hashable {
    /// The same key for every void session.
    ///
    /// ```swift
    /// print(ServiceVoidSession().key == AnyHashable(0))  // true, for every void session
    /// ```
    public var key: AnyHashable { AnyHashable(0) }

    /// Makes the void session.
    ///
    /// ```swift
    /// let mediator = ServiceSessionMediator(session: ServiceVoidSession())
    /// ```
    public init() {}
}

/// A mediator of the void session, whose `clearServices()` makes every bound provider drop
/// its service so the next get makes a new one.
///
/// ```swift
/// let mediator = ServiceVoidSessionMediator()
/// let cache = CacheFactory().serviceProvider(mediator: mediator)
/// mediator.clearServices()  // the next get of `cache` makes a new service
/// ```
///
/// It is another name for `ServiceSessionMediator<ServiceVoidSession>`, not a subclass: the
/// mediator is a final class, so that the compiler checks that it is `Sendable`.
public typealias ServiceVoidSessionMediator = ServiceSessionMediator<ServiceVoidSession>

extension ServiceSessionMediator where SessionType == ServiceVoidSession {
    /// Makes a mediator of the void session.
    ///
    /// ```swift
    /// let mediator = ServiceVoidSessionMediator()
    /// ```
    public convenience init() {
        self.init(session: ServiceVoidSession())
    }

    /// Drops the service of every bound provider, each after its factory's
    /// `deactivateService`; the next get makes a new one (`atOne` services are made again at
    /// once). The same as `updateSession(ServiceVoidSession(), remakePolicy: .clearAll)`.
    ///
    /// ```swift
    /// let mediator = ServiceVoidSessionMediator()
    /// mediator.clearServices()  // the next get of every bound provider makes a new service
    /// ```
    public func clearServices() {
        updateSession(ServiceVoidSession(), remakePolicy: .clearAll)
    }
}
