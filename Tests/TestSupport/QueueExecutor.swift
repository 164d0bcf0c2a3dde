import Dispatch

/// A serial executor that runs its jobs on a dispatch queue of its own, which it marks: code can
/// ask whether it runs on it (`isCurrent`) without stopping the program, and a test can suspend
/// the queue, so that the jobs of its actor wait as they would behind long work on it, with no
/// thread blocked.
public final class QueueExecutor: SerialExecutor {
    private static let key = DispatchSpecificKey<ObjectIdentifier>()
    public let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    /// Whether the calling code runs on this executor's queue.
    public var isCurrent: Bool {
        DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self)
    }
}
