import Dispatch
import Foundation
import Testing
import TestSupport

/// The time limits that keep a deadlock from stalling the run (the `TestSupport` module, which
/// every test target that needs them shares) must fail, and in time. The bodies here hang for a
/// minute, so that a limit that does not work fails these tests too, rather than hanging them.
@Suite("Time limits of the tests")
struct TimeLimitTests {
    static let exceeded = TimeLimitExceeded(seconds: 0.2)

    /// Runs `body`, which must fail after 0.2 s, and returns what it threw.
    func expectTimeLimitExceeded(_ body: () async throws -> Void) async -> (any Error)? {
        var thrown: (any Error)?
        let start = ContinuousClock.now
        await withKnownIssue("the body hangs on purpose") {
            do {
                try await body()
            } catch {
                thrown = error
            }
        } matching: { issue in
            issue.error as? TimeLimitExceeded == Self.exceeded
        }
        #expect(ContinuousClock.now - start < .seconds(30), "the limit is kept, not the hang")
        return thrown
    }

    @Test("A synchronous test marked offThePool runs on a thread of its own", .offThePool)
    func offThePoolSync() throws {
        #expect(ThreadPerJobExecutor.isCurrent)
    }

    @Test("An async test marked offThePool runs there across its suspensions, with its child tasks", .offThePool)
    func offThePoolAsync() async {
        #expect(Self.runsOffThePool())
        try? await Task.sleep(for: .milliseconds(1))
        #expect(Self.runsOffThePool())
        async let child = Self.runsOffThePool()
        #expect(await child)
    }

    @Test("A test not marked offThePool runs on the pool")
    func onThePool() {
        #expect(!ThreadPerJobExecutor.isCurrent)
    }

    private nonisolated static func runsOffThePool() -> Bool { ThreadPerJobExecutor.isCurrent }

    @Test("withTimeLimit returns what its body returns, and throws what it throws")
    func withTimeLimitPasses() throws {
        #expect(try withTimeLimit { 42 } == 42)
        #expect(throws: TestError(code: 3)) { try withTimeLimit { throw TestError(code: 3) } }
    }

    @Test("withTimeLimit fails a body that hangs, once its time is up")
    func withTimeLimitFails() async {
        let blocker = DispatchSemaphore(value: 0)
        defer { blocker.signal() }  // lets the stuck thread end
        let thrown = await expectTimeLimitExceeded {
            try withTimeLimit(seconds: 0.2) { _ = blocker.wait(timeout: .now() + 60) }
        }
        #expect(thrown as? TimeLimitExceeded == Self.exceeded)
        #expect("\(Self.exceeded)" == "did not finish within 0.2 s: a deadlock or a hang")
    }

    @Test("waitWithTimeLimit fails when the semaphore or group is not signalled in time")
    func waitWithTimeLimitFails() async throws {
        let signalled = DispatchSemaphore(value: 0)
        signalled.signal()
        try waitWithTimeLimit(signalled)
        let left = DispatchGroup()
        try waitWithTimeLimit(left)

        let never = DispatchSemaphore(value: 0)
        let semaphoreError = await expectTimeLimitExceeded {
            try waitWithTimeLimit(never, seconds: 0.2, "nothing signals it")
        }
        #expect(semaphoreError as? TimeLimitExceeded == Self.exceeded)
        let entered = DispatchGroup()
        entered.enter()
        defer { entered.leave() }
        let groupError = await expectTimeLimitExceeded {
            try waitWithTimeLimit(entered, seconds: 0.2)
        }
        #expect(groupError as? TimeLimitExceeded == Self.exceeded)
    }

    @Test("raceOnThreads fails when one of its threads hangs")
    func raceOnThreadsFails() async throws {
        #expect(try raceOnThreads(3) { $0 * 2 } == [0, 2, 4])
        let blocker = DispatchSemaphore(value: 0)
        defer { blocker.signal() }
        let thrown = await expectTimeLimitExceeded {
            _ = try raceOnThreads(2, seconds: 0.2) { index in
                if index == 1 { _ = blocker.wait(timeout: .now() + 60) }
                return index
            }
        }
        #expect(thrown as? TimeLimitExceeded == Self.exceeded)
    }

    @Test("withAsyncTimeLimit fails a body that is not resumed in time")
    func withAsyncTimeLimitFails() async throws {
        #expect(try await withAsyncTimeLimit { await Task.yield(); return "done" } == "done")
        let thrown = await expectTimeLimitExceeded {
            try await withAsyncTimeLimit(seconds: 0.2) { try await Task.sleep(for: .seconds(60)) }
        }
        #expect(thrown as? TimeLimitExceeded == Self.exceeded)
    }
}
