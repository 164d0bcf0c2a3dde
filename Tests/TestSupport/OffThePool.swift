import Foundation
import Testing

// Swift Testing runs a synchronous test on a thread of the concurrency pool, which has as many
// threads as the machine has cores, and runs the async tests of the same run on the same threads.
// A synchronous test that blocks for long (threads it races and waits for, a process it waits
// for) holds its thread all that time; two of them hold a two-core machine's whole pool, and
// every async test beside them stops where it is. Under ThreadSanitizer, where such a test takes
// seconds, dozens of async tests at once missed their 10-second time limits.

/// Runs a test's own task on threads of its own, outside the concurrency pool: a synchronous
/// test that blocks for long then holds none of the pool's threads. Its child tasks prefer those
/// threads too; a `Task {}` it starts runs on the pool, as it would anywhere.
///
/// ```swift
/// @Test("Gets race session switches on three threads", .offThePool)
/// func racingSwitches() throws { ... }
/// ```
public struct OffThePoolTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self  // each test case, not the suite around them
    }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// Runs the test on threads of its own, outside the concurrency pool (`OffThePoolTrait`).
    public static var offThePool: Self { Self() }
}

/// A task executor that runs each job on a new thread: a job that blocks its thread blocks no
/// other job, whatever else blocks. A test's task runs a job each time it resumes, a few hundred
/// at most, so a thread each costs little.
public final class ThreadPerJobExecutor: TaskExecutor {
    public static let shared = ThreadPerJobExecutor()

    /// Whether the caller runs on one of its threads.
    public static var isCurrent: Bool { Thread.current.threadDictionary[threadKey] != nil }
    private static let threadKey = "TestSupport.ThreadPerJobExecutor"

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread {
            Thread.current.threadDictionary[Self.threadKey] = true
            job.runSynchronously(on: executor)
        }
        thread.stackSize = 8 << 20  // as a test's body gets on the pool
        thread.start()
    }
}
