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

/// Suspends until `condition` holds, looking every millisecond.
func eventually(_ condition: @Sendable () -> Bool) async {
    while !condition() {
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// Runs `body` in a task of its own and waits for it at most `seconds`: a body that suspends
/// for ever (a wait that is never resumed) fails the test instead of stalling the run; the body
/// is then cancelled and left behind.
@discardableResult
func withAsyncTimeLimit<Value: Sendable>(
    seconds: Double = 10,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let outcome = FirstOutcome<Value>()
    let work = Task {
        do {
            outcome.finish(.success(try await body()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    let timer = Task {
        try? await Task.sleep(for: .seconds(seconds))
        outcome.finish(.failure(TimeLimitExceeded(seconds: seconds)))
    }
    let result = await outcome.wait()
    timer.cancel()
    if case .failure(let error as TimeLimitExceeded) = result {
        work.cancel()
        Issue.record(error, sourceLocation: sourceLocation)
    }
    return try result.get()
}

/// The first of several results, awaited by one task.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private let state = Mutex<(result: Result<Value, any Error>?, waiter: CheckedContinuation<Void, Never>?)>((nil, nil))

    func finish(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async -> Result<Value, any Error> {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.result == nil { state.waiter = continuation }
                return state.result != nil
            }
            if done { continuation.resume() }
        }
        return state.withLock { $0.result! }
    }
}
