import Synchronization

/// A count that factories, hooks and `deinit`s change from any thread, and tests read.
///
/// An `Atomic`, which ThreadSanitizer understands on Linux, where it reports the state of a
/// contended `Mutex` as raced (docs/core.md, "Threads").
public final class Counter: Sendable {
    private let stored = Atomic<Int>(0)

    public init() {}

    /// Adds one, and returns the new count.
    @discardableResult
    public func increment() -> Int { add(1) }

    /// Takes one away, and returns the new count.
    @discardableResult
    public func decrement() -> Int { add(-1) }

    /// Adds `delta`, and returns the new count.
    @discardableResult
    public func add(_ delta: Int) -> Int { stored.add(delta, ordering: .relaxed).newValue }

    /// The count now.
    public var value: Int { stored.load(ordering: .relaxed) }
}
