import Foundation
import Synchronization
import Testing

// Swift Testing runs a synchronous test on a thread of the concurrency pool, which has as many
// threads as the machine has cores, and runs the async tests of the same run on the same threads.
// A synchronous test that blocks for long (threads it races and waits for, a process it waits
// for) holds its thread all that time; two of them hold a two-core machine's whole pool, and
// the async tests running beside them in a parallel run wait until they are done, past their
// time limits.

/// Runs a test's own task on threads of its own, outside the concurrency pool
/// (`ThreadPerJobExecutor`): a synchronous test that blocks for long then holds none of the
/// pool's threads. Its child tasks (`async let`, a task group's) prefer those threads too; a
/// `Task {}` it starts runs on the pool, as it would anywhere. A `@MainActor` test runs on the
/// main actor all the same, and the body of an exit test in its own process, without the trait.
///
/// ```swift
/// @Test("Gets race session switches on three threads", .offThePool)
/// func racingSwitches() throws { ... }
/// ```
public struct OffThePoolTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

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

/// A task executor that runs each job on a new thread, outside the concurrency pool: a job that
/// blocks its thread (a synchronous factory waiting for a task it started, a test racing threads)
/// holds no thread that another task needs. A task runs a job each time it resumes; a test's
/// tasks resume a few hundred times at most, so a thread each costs little.
///
/// ```swift
/// let result = await Task(executorPreference: ThreadPerJobExecutor.shared) { blockingWork() }.value
/// ```
public final class ThreadPerJobExecutor: TaskExecutor {
    /// The executor of the `offThePool` trait, for any task that may block its thread.
    public static let shared = ThreadPerJobExecutor()

    /// Whether the caller runs on a thread of an executor of this kind.
    public static var isCurrent: Bool { Thread.current.threadDictionary[threadKey] != nil }
    private static let threadKey = "TestSupport.ThreadPerJobExecutor"

    /// The jobs given to this executor that have not finished running.
    private let unfinished = Atomic<Int>(0)

    public init() {}

    /// Whether every job given to this executor has run: each task that prefers it has ended or
    /// is suspended. A test that gives its tasks an executor of their own can tell so that all of
    /// them wait (a task whose job was given but has not run yet counts as running).
    public var isIdle: Bool { unfinished.load(ordering: .acquiring) == 0 }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        unfinished.add(1, ordering: .relaxed)
        let thread = Thread {
            Thread.current.threadDictionary[Self.threadKey] = true
            job.runSynchronously(on: executor)
            self.unfinished.subtract(1, ordering: .releasing)
        }
        thread.stackSize = 8 << 20  // as a test's body gets on the pool
        thread.start()
    }
}
