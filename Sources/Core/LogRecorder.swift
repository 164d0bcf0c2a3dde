import Foundation

/// The registry of loggers and the dispatcher of events to them.
///
/// Libraries built on ServiceContainerKit raise their own events with `record(_:_:)`; every
/// registered logger that adopts the event's protocol receives it on its `queue`.
public final class LogRecorder: @unchecked Sendable {
    /// The recorder every provider reports to.
    public static let shared = LogRecorder()

    // Guards `loggers`.
    private let lock = ServiceLock()
    private var loggers: [any Logger] = []
    private let mainMailbox: MainQueueMailbox

    /// Makes a recorder of its own (the library itself only reports to `shared`).
    public init() {
        mainMailbox = MainQueueMailbox()
    }

    /// A recorder whose main-queue deliveries are scheduled by `scheduleOnMain`, for tests.
    init(scheduleOnMain: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        mainMailbox = MainQueueMailbox(schedule: scheduleOnMain)
    }

    /// Starts delivering events to `logger`. Registering the same logger again does nothing.
    public func register(_ logger: any Logger) {
        lock.withLock {
            if !loggers.contains(where: { $0 === logger }) {
                loggers.append(logger)
            }
        }
    }

    /// Stops delivering events to `logger`.
    public func unregister(_ logger: any Logger) {
        lock.withLock {
            loggers.removeAll { $0 === logger }
        }
    }

    /// Whether `logger` is registered.
    public func contains(_ logger: any Logger) -> Bool {
        lock.withLock { loggers.contains { $0 === logger } }
    }

    /// Delivers `event` to every registered logger that adopts `EventLogger`, on its queue.
    ///
    /// An event raised by a logger while it handles another event on the same thread (say, it
    /// gets a service whose making fails) is not delivered: it would re-enter the logger and
    /// could repeat without end.
    public func record<EventLogger>(
        _ loggerType: EventLogger.Type,
        _ event: @escaping @Sendable (EventLogger) -> Void
    ) {
        let current = lock.withLock { loggers }
        if current.isEmpty || ThreadContext.isDeliveringLogEvent { return }
        for logger in current {
            guard logger is EventLogger else { continue }
            let deliver: @Sendable () -> Void = {
                if let receiver = logger as? EventLogger {
                    ThreadContext.withLogDelivery { event(receiver) }
                }
            }
            guard let queue = logger.queue else {
                deliver()
                continue
            }
            if queue.label == Self.mainQueueLabel {
                mainMailbox.post(deliver)
            } else {
                queue.async(execute: deliver)
            }
        }
    }

    /// The label of the main queue. Corelibs Dispatch hands out a new wrapper object for
    /// `DispatchQueue.main` on each access, so the main queue is recognized by its label.
    private static let mainQueueLabel = DispatchQueue.main.label

    /// Events waiting for the main queue, for tests and diagnostics.
    var pendingMainQueueEvents: Int { mainMailbox.pendingCount }

    /// Events dropped because the main queue was not serviced, for tests and diagnostics.
    var droppedMainQueueEvents: Int { mainMailbox.droppedCount }

    @usableFromInline
    func providerMakeFailure(type: Any.Type, error: ServiceObtainError) {
        record(ProvidersLogger.self) { $0.serviceProviderMakeFailure(type: type, error: error) }
    }
}

/// Buffers events for loggers on the main queue, so that delivery never blocks and memory stays
/// bounded when the main queue is not serviced.
///
/// On the main thread an event is delivered at once. Elsewhere it joins a buffer of at most
/// `capacity` events (the oldest is dropped beyond that), and a single drain is scheduled on
/// the main queue whenever the buffer turns non-empty.
final class MainQueueMailbox: @unchecked Sendable {
    static let capacity = 1024

    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    // Guards every stored var below.
    private let lock = ServiceLock()
    private var pending: [@Sendable () -> Void] = []
    private var drainScheduled = false
    private var dropped = 0

    init(schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { DispatchQueue.main.async(execute: $0) }) {
        self.schedule = schedule
    }

    func post(_ event: @escaping @Sendable () -> Void) {
        if Thread.isMainThread {
            drain()
            event()
            return
        }
        let needsDrain: Bool = lock.withLock {
            if pending.count == Self.capacity {
                pending.removeFirst()
                dropped += 1
            }
            pending.append(event)
            defer { drainScheduled = true }
            return !drainScheduled
        }
        if needsDrain {
            schedule { self.drain() }
        }
    }

    func drain() {
        let events: [@Sendable () -> Void] = lock.withLock {
            defer {
                pending.removeAll()
                drainScheduled = false
            }
            return pending
        }
        for event in events { event() }
    }

    var pendingCount: Int { lock.withLock { pending.count } }
    var droppedCount: Int { lock.withLock { dropped } }
}
