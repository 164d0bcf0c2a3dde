import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock held for the few instructions that read or replace a kept service: taking it is one
/// compare-and-swap and releasing it one store, with no call into the system.
///
/// The weak and session cells guard the service their get reads with it, so a get pays one
/// atomic read-modify-write where a `pthread_mutex_t` costs two, each behind a call. Whoever
/// holds it runs no user code and takes no other lock, so it is held for nanoseconds; a thread
/// that finds it taken spins, yielding the processor now and then in case the holder was
/// preempted. Making a service happens under the cell's `ServiceLock`, never under this one.
@usableFromInline
struct ServiceSpinLock: ~Copyable {
    @usableFromInline let locked = Atomic<Bool>(false)

    init() {}

    /// Takes the lock if it is free; `false` when another thread holds it.
    @inlinable
    func tryLock() -> Bool {
        locked.compareExchange(
            expected: false,
            desired: true,
            successOrdering: .acquiring,
            failureOrdering: .relaxed
        ).exchanged
    }

    @inlinable
    func unlock() {
        locked.store(false, ordering: .releasing)
    }

    /// Waits for the lock and takes it.
    func lock() {
        var spins = 0
        while !tryLock() {
            // Wait with plain loads, so the waiter does not keep stealing the cache line.
            while locked.load(ordering: .relaxed) {
                spins += 1
                if spins == 100 {
                    spins = 0
                    sched_yield()
                }
            }
        }
    }

    /// Runs `body` with the lock held; `body` must be short and must not take other locks.
    func withLock<Value>(_ body: () -> Value) -> Value {
        lock()
        defer { unlock() }
        return body()
    }
}
