import Foundation
import Synchronization
import Testing

@testable import ServiceContainerKit

/// A gate that tasks await until it is opened; awaiting an open gate returns at once.
final class AsyncGate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Suspends until `condition` holds, looking every millisecond, or until the task is cancelled
/// (by `withAsyncTimeLimit`, when the time ran out).
func eventually(_ condition: @Sendable () -> Bool) async {
    while !condition(), !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// A task executor on dispatch's threads rather than the pool of the tasks: a test's task may
/// block its thread (a synchronous factory waiting for a task it started) without taking a
/// thread from the tests running beside it. A `Task {}` started there runs on the pool.
final class BlockingTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "blocking task executor", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
