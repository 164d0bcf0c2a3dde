import Foundation

/// The registry of loggers and the dispatcher of events to them.
///
/// As in 3.0, `LogRecorder.shared` is the registered logger:
///
/// ```swift
/// MyLogger().register()
/// LogRecorder.shared is MyLogger  // true
/// ```
///
/// Unlike 3.0, registering another logger does not silence the earlier ones: every registered
/// logger keeps receiving the events of the protocols it adopts, and `shared` is the one
/// registered last. Libraries built on ServiceContainerKit raise their own events with
/// `LogRecorder.record(_:_:)`.
public final class LogRecorder: Sendable {
    /// The logger registered last (and not unregistered since), or `nil` when none is.
    ///
    /// ```swift
    /// if LogRecorder.shared == nil {
    ///     FailurePrinter().register()  // no logger yet: this one becomes LogRecorder.shared
    /// }
    /// ```
    public static var shared: (any Logger)? { recorder.newest }

    /// The recorder every provider reports to and `Logger.register()` registers with.
    @usableFromInline static let recorder = LogRecorder()

    /// Delivers `event` to every registered logger that adopts `EventLogger`, on its queue.
    ///
    /// ```swift
    /// LogRecorder.record(ServiceInjectLogger.self) { $0.entityInjectResolverDidAutoRemove(entityType: Settings.self, afterInjection: true) }
    /// ```
    public static func record<EventLogger>(
        _ loggerType: EventLogger.Type,
        _ event: @escaping @Sendable (EventLogger) -> Void
    ) {
        recorder.record(loggerType, event)
    }

    /// The registered loggers, oldest first.
    private let loggers = Locked<[any Logger]>([])
    private let mainMailbox: MainQueueMailbox

    /// A recorder of its own, for tests (the library only reports to `recorder`).
    init() {
        mainMailbox = MainQueueMailbox()
    }

    /// A recorder whose main-queue deliveries are scheduled by `scheduleOnMain`, for tests.
    init(scheduleOnMain: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        mainMailbox = MainQueueMailbox(schedule: scheduleOnMain)
    }

    /// Starts delivering events to `logger` and makes it the newest. A logger registered again
    /// gets each event once and becomes the newest.
    func register(_ logger: any Logger) {
        loggers.withLock { loggers in
            loggers.removeAll { $0 === logger }
            loggers.append(logger)
        }
    }

    /// Stops delivering events to `logger`.
    func unregister(_ logger: any Logger) {
        loggers.withLock { loggers in
            loggers.removeAll { $0 === logger }
        }
    }

    /// Whether `logger` is registered.
    func contains(_ logger: any Logger) -> Bool {
        loggers.withLock { $0.contains { $0 === logger } }
    }

    /// The logger registered last.
    var newest: (any Logger)? {
        loggers.withLock { $0.last }
    }

    /// Delivers `event` to every registered logger that adopts `EventLogger`, on its queue.
    ///
    /// An event raised by a logger while it handles another event on the same thread (say, it
    /// gets a service whose making fails) is not delivered: it would re-enter the logger and
    /// could repeat without end.
    func record<EventLogger>(
        _ loggerType: EventLogger.Type,
        _ event: @escaping @Sendable (EventLogger) -> Void
    ) {
        let current = loggers.withLock { $0 }
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

    func scopeCloseFailure(scope: ServiceScope, report: ServiceCloseReport) {
        record(ProvidersLogger.self) { $0.serviceScopeCloseFailure(scope: scope, report: report) }
    }

    func scopeNotClosed(label: String, services: [Any.Type]) {
        record(ProvidersLogger.self) { $0.serviceScopeNotClosed(label: label, services: services) }
    }
}

/// Buffers events for loggers on the main queue, so that delivery never blocks and memory stays
/// bounded when the main queue is not serviced.
///
/// On the main actor (`MainQueue.isCurrent`) an event is delivered at once, after the ones still
/// buffered. Elsewhere it joins a buffer of at most
/// `capacity` events (the oldest is dropped beyond that), and a single drain is scheduled on
/// the main queue whenever the buffer turns non-empty.
final class MainQueueMailbox: Sendable {
    static let capacity = 1024

    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let state = Locked(State())

    private struct State {
        var pending: [@Sendable () -> Void] = []
        var drainScheduled = false
        var dropped = 0
    }

    init(schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { DispatchQueue.main.async(execute: $0) }) {
        self.schedule = schedule
    }

    func post(_ event: @escaping @Sendable () -> Void) {
        if MainQueue.isCurrent {
            drain()
            event()
            return
        }
        let needsDrain: Bool = state.withLock { state in
            if state.pending.count == Self.capacity {
                state.pending.removeFirst()
                state.dropped += 1
            }
            state.pending.append(event)
            defer { state.drainScheduled = true }
            return !state.drainScheduled
        }
        if needsDrain {
            schedule { self.drain() }
        }
    }

    func drain() {
        let events: [@Sendable () -> Void] = state.withLock { state in
            defer {
                state.pending.removeAll()
                state.drainScheduled = false
            }
            return state.pending
        }
        for event in events { event() }
    }

    var pendingCount: Int { state.withLock { $0.pending.count } }
    var droppedCount: Int { state.withLock { $0.dropped } }
}
