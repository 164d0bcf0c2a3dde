import Synchronization

/// Waits until the service group shuts the calling service down gracefully.
///
/// - Throws: `CancellationError` when the task is cancelled first. Outside a service group,
///   no shutdown comes: it waits for the cancellation.
public func gracefulShutdown() async throws {
    try await (GracefulShutdownTrigger.current ?? GracefulShutdownTrigger()).wait()
}

/// The graceful shutdown of one service of a group: triggered once, waited for by any number of
/// the service's tasks (a task-local value, which the service's child tasks see too).
final class GracefulShutdownTrigger: Sendable {
    @TaskLocal static var current: GracefulShutdownTrigger?

    private struct State {
        var isTriggered = false
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Resumes every waiter, and every later `wait()` at once.
    func trigger() {
        let waiters = state.withLock { state in
            state.isTriggered = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Returns once `trigger()` was called; throws `CancellationError` if the task is cancelled
    /// first.
    func wait() async throws {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    if state.isTriggered { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = waiter
                    return nil
                }
                if let now {
                    waiter.resume(with: now)
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }
}
