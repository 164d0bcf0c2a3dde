import Foundation
import Synchronization
import Testing

@testable import ServiceContainerKit

/// A gate that tasks await until it is opened; awaiting an open gate returns at once.
///
/// An `NSLock`, not a `Mutex`: many tasks wait and open gates at once in the cycle tests, and on
/// Linux ThreadSanitizer does not see the ordering a contended `Mutex` gives (docs/core.md,
/// "Threads"), so it reported the state below as raced.
final class AsyncGate: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = lock.withLock {
                if !self.isOpen { waiters.append(continuation) }
                return self.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiters = lock.withLock {
            isOpen = true
            defer { self.waiters = [] }
            return self.waiters
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

