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
/// The weak and session cells guard the service their get reads with it, and a writable
/// locator its dictionaries, so a get pays one atomic read-modify-write where a
/// `pthread_mutex_t` costs two, each behind a call. Whoever holds it runs no user code and
/// takes no other lock, so it is held for nanoseconds (rarely longer, while a dictionary
/// grows); a thread that finds it taken spins, yielding the processor now and then in case the
/// holder was preempted. Values replaced under it are released after it, so that no `deinit`
/// runs under it. Making a service happens under the cell's `ServiceLock`, never under this one.
@usableFromInline
package struct ServiceSpinLock: ~Copyable {
    @usableFromInline let locked = Atomic<Bool>(false)

    package init() {}

    /// Takes the lock if it is free; `false` when another thread holds it.
    @inlinable
    package func tryLock() -> Bool {
        locked.compareExchange(
            expected: false,
            desired: true,
            successOrdering: .acquiring,
            failureOrdering: .relaxed
        ).exchanged
    }

    @inlinable
    package func unlock() {
        locked.store(false, ordering: .releasing)
    }

    /// Waits for the lock and takes it.
    @inlinable
    package func lock() {
        if !tryLock() {
            wait()
        }
    }

    /// Spins until the lock is taken.
    @usableFromInline
    func wait() {
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

    /// Runs `body` with the lock held; `body` must be short, must not take other locks, and
    /// must not release anything whose `deinit` might run user code.
    @inlinable
    package func withLock<Value>(_ body: () -> Value) -> Value {
        lock()
        defer { unlock() }
        return body()
    }
}
