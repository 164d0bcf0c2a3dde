import Dispatch
import Foundation
import Synchronization
import Testing

// Time limits for the tests that could hang: a deadlock, or a wait that nothing ends, becomes a
// recorded failure within seconds instead of a run that never finishes.
//
// Swift Testing's `.timeLimit` trait is no substitute: it counts whole minutes, covers a test as
// a whole, and only cancels the test's task, which does not wake a thread blocked in a wait.
//
// The test targets that need them depend on this module (`TestSupport`, in no product).

/// Why a wait with a time limit failed.
public struct TimeLimitExceeded: Error, Equatable, CustomStringConvertible {
    public let seconds: Double

    public init(seconds: Double) {
        self.seconds = seconds
    }

    public var description: String { "did not finish within \(seconds) s: a deadlock or a hang" }
}

/// Waits with `wait` at most `seconds`; when the time runs out, records a failure and throws
/// `TimeLimitExceeded`. The one time-out of the waits below.
private func waitOrFail(
    _ wait: (DispatchTime) -> DispatchTimeoutResult,
    seconds: Double,
    _ comment: Comment?,
    _ sourceLocation: SourceLocation
) throws {
    guard wait(.now() + seconds) == .success else {
        let error = TimeLimitExceeded(seconds: seconds)
        Issue.record(error, comment, sourceLocation: sourceLocation)
        throw error
    }
}

/// Runs `body` on a thread of its own and waits for it at most `seconds`: a body that hangs
/// (a deadlock) fails the test instead of stalling the run. The stuck thread is left behind.
@discardableResult
public func withTimeLimit<Value: Sendable>(
    seconds: Double = 10,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () throws -> Value
) throws -> Value {
    let result = Mutex<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let outcome = Result { try body() }
        result.withLock { $0 = outcome }
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    try waitOrFail(done.wait(timeout:), seconds: seconds, nil, sourceLocation)
    return try result.withLock { $0! }.get()
}

/// Runs `body` on a thread of its own, outside every task, and awaits it without holding a
/// thread of the concurrency pool, which the tasks `body` starts and waits for may need. Give it
/// a time limit with `withAsyncTimeLimit`.
public func onThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// What `waitWithTimeLimit` waits for: a semaphore to be signalled, or a group to be left by
/// every member.
public protocol TimedWait {
    func wait(timeout: DispatchTime) -> DispatchTimeoutResult
}

extension DispatchSemaphore: TimedWait {}
extension DispatchGroup: TimedWait {}

/// Waits at most `seconds` for `semaphore` (or group). When the time runs out (a deadlock),
/// records a failure and throws `TimeLimitExceeded`: the test stops there instead of going on
/// into a call that could hang as well.
public func waitWithTimeLimit(
    _ semaphore: some TimedWait,
    seconds: Double = 10,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try waitOrFail(semaphore.wait(timeout:), seconds: seconds, comment, sourceLocation)
}

/// Runs `body` in a task of its own and waits for it at most `seconds`: a body that suspends
/// for ever (a wait that is never resumed) fails the test instead of stalling the run; the body
/// is then cancelled and left behind.
///
/// The limit is kept by a task too: code that blocks the threads of the concurrency pool (a
/// deadlock between locks) belongs in `withTimeLimit`, on a thread of its own. It counts from
/// the moment the body starts: while long synchronous tests running beside this one hold every
/// thread of the pool, the body cannot start, and that is no hang of its own.
@discardableResult
public func withAsyncTimeLimit<Value: Sendable>(
    seconds: Double = 10,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let outcome = FirstOutcome<Value>()
    let work = Task {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let timer = Task {
            try? await Task.sleep(until: deadline)
            outcome.finish(.failure(TimeLimitExceeded(seconds: seconds)))
        }
        defer { timer.cancel() }
        do {
            outcome.finish(.success(try await body()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    let result = await outcome.wait()
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
