/// What closing services found: the services whose `close()` threw or ran past its time limit.
///
/// ```swift
/// let report = await scope.close()
/// if !report.isClean {
///     print(report)  // one line per failure: path, type, error
/// }
/// ```
public struct ServiceCloseReport: Sendable, CustomStringConvertible {
    /// A service that did not close cleanly.
    public struct Failure: Sendable, CustomStringConvertible {
        /// Where the service's provider is in the container that was walked (`storage.pool`);
        /// `nil` for a scope's service, which has no path.
        public let path: String?
        /// The service's type, as its provider declares it.
        public let service: Any.Type
        /// What `close()` threw, or a ``ServiceCloseTimeoutError`` when it ran past its time.
        public let error: any Error

        /// The path (if any), the type and the error, on one line.
        public var description: String {
            let type = ServiceObtainError.name(of: service)
            let error = ServiceObtainError.describe(error)
            guard let path else { return "\(type): \(error)" }
            return "\(path) (\(type)): \(error)"
        }
    }

    /// The services that did not close cleanly, in the order they were closed.
    public internal(set) var failures: [Failure]

    /// How many services had their `close()` called, whether it succeeded or not.
    public internal(set) var closedCount: Int

    /// Whether every service closed without an error and in time.
    public var isClean: Bool { failures.isEmpty }

    /// A line saying how many services closed, then a line per failure.
    public var description: String {
        var lines = ["closed \(closedCount) service\(closedCount == 1 ? "" : "s"), \(failures.count) failed"]
        lines += failures.map { "- \($0)" }
        return lines.joined(separator: "\n")
    }

    /// Closes `services` one after the other, in the order given, each within `timeout`, each
    /// once (an instance listed twice is closed at its first place).
    static func close(
        _ services: [(service: any ClosableService, type: Any.Type, path: String?)],
        timeout: Duration
    ) async -> ServiceCloseReport {
        var report = ServiceCloseReport(failures: [], closedCount: 0)
        var closed: Set<ObjectIdentifier> = []
        for (service, serviceType, path) in services {
            if type(of: service as Any) is AnyClass, !closed.insert(ObjectIdentifier(service as AnyObject)).inserted {
                continue
            }
            report.closedCount += 1
            if let error = await awaitWithin(timeout, { try await service.close() }) {
                report.failures.append(Failure(path: path, service: serviceType, error: error))
            }
        }
        return report
    }

    /// Runs `operation` in a task of its own and returns its error, or a
    /// ``ServiceCloseTimeoutError`` once `timeout` has passed (the task is then cancelled and
    /// left to end on its own); `nil` when it ended in time without an error.
    static func awaitWithin(
        _ timeout: Duration,
        _ operation: @escaping @Sendable () async throws -> Void
    ) async -> (any Error)? {
        let race = Race()
        return await withCheckedContinuation { continuation in
            race.begin(continuation)
            let work = Task {
                do {
                    try await operation()
                    race.end(with: nil)
                } catch {
                    race.end(with: error)
                }
            }
            race.keep(
                timer: Task {
                    try? await Task.sleep(for: timeout)
                    work.cancel()
                    race.end(with: ServiceCloseTimeoutError(timeout: timeout))
                }
            )
        }
    }

    /// An operation against its time limit: the first to end resumes the waiter.
    private final class Race: Sendable {
        private let state = Locked(State())

        private struct State: Sendable {
            var waiter: CheckedContinuation<(any Error)?, Never>?
            var timer: Task<Void, Never>?
            var isOver = false
        }

        func begin(_ waiter: CheckedContinuation<(any Error)?, Never>) {
            state.withLock { $0.waiter = waiter }
        }

        /// Keeps the timer, to cancel it when the operation ends first.
        func keep(timer: Task<Void, Never>) {
            let isOver = state.withLock { state in
                state.timer = timer
                return state.isOver
            }
            if isOver {
                timer.cancel()
            }
        }

        func end(with error: (any Error)?) {
            let (waiter, timer) = state.withLock { state in
                guard !state.isOver else { return (nil, nil) as (CheckedContinuation<(any Error)?, Never>?, Task<Void, Never>?) }
                state.isOver = true
                return (state.waiter.take(), state.timer.take())
            }
            timer?.cancel()
            waiter?.resume(returning: error)
        }
    }
}

/// The error of a service's `close()` that did not end within its time limit: it was
/// cancelled, and the closing went on without it.
public struct ServiceCloseTimeoutError: Error, Sendable, CustomStringConvertible {
    /// The time limit it ran past.
    public let timeout: Duration

    /// "did not finish within" and the time limit.
    public var description: String { "did not finish within \(timeout)" }
}
