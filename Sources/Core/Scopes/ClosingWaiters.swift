/// The calls that wait for a closing that another call runs: a second `ServiceScope.close()`,
/// or a shutdown that meets providers an earlier shutdown still closes. Each returns once the
/// closing has ended, so that a caller that goes on (a server that exits) finds every service
/// closed that the closing closes.
///
/// Kept in the state of what closes, under its lock; the continuations are resumed after the
/// lock, as `end()` hands them over.
///
/// A call made inside a close of the closing it would wait for (a service's `close()` that
/// closes its own scope or shuts down its own container, in the closer's task or a task it
/// starts) does not wait: that closing is waiting for the close. A detached task, or a task
/// that was running already, is not inside it.
struct ClosingWaiters: Sendable {
    /// The closings (a `ServiceScope`, a `ShutdownRun`) whose closes this task runs, or whose
    /// closes started it: the closer's task is inside its own, and each `Task {}` a close
    /// starts inherits them. Held, so that no other object takes the identity of one.
    @TaskLocal static var closingsOfThisTask: [any AnyObject & Sendable] = []

    /// Whether this task is inside a close of `closing`.
    static func isInsideAClose(of closing: AnyObject) -> Bool {
        closingsOfThisTask.contains { $0 === closing }
    }

    /// Whether the closing has ended.
    private var ended = false
    /// `nil` until one waits, so that the state of a scope that nobody closes twice makes and
    /// releases no array (`core/request scope` 6,470 -> 6,463 instructions).
    private var waiting: [CheckedContinuation<Void, Never>]?

    /// Adds `waiter`, to be resumed when the closing ends; `false` when it has ended already,
    /// and the caller resumes `waiter` itself, after the lock.
    mutating func add(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        guard !ended else { return false }
        waiting = (waiting ?? []) + [waiter]
        return true
    }

    /// Marks the closing ended, and gives the waiters to resume after the lock.
    mutating func end() -> [CheckedContinuation<Void, Never>] {
        ended = true
        defer { waiting = nil }
        return waiting ?? []
    }
}

extension Locked {
    /// Returns once the closing whose waiters are at `waiters` in the state has ended.
    nonisolated(nonsending) borrowing func awaitEnd(of waiters: WritableKeyPath<State, ClosingWaiters>) async {
        await withCheckedContinuation { waiter in
            if !withLock({ $0[keyPath: waiters].add(waiter) }) {
                waiter.resume()
            }
        }
    }

    /// Marks the closing whose waiters are at `waiters` in the state ended, and resumes them.
    borrowing func end(_ waiters: WritableKeyPath<State, ClosingWaiters>) {
        for waiter in withLock({ $0[keyPath: waiters].end() }) {
            waiter.resume()
        }
    }
}
