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
/// takes no other lock, so it is held for nanoseconds (longer only while a locator's
/// dictionary grows); a thread that finds it taken spins briefly, then yields and sleeps (see
/// `wait()`). It is not recursive: a thread that takes it twice waits for itself forever, so
/// nothing that may call back into the same owner runs under it, and values replaced under it
/// are released after it, so that no `deinit` runs under it. Making a service happens under the cell's `ServiceLock`, never under this one.
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

    /// Waits until the lock is taken: a short spin, then yields of the processor, then sleeps
    /// that double from 1 µs to 1 ms. The sleeps let a preempted holder run even when the
    /// waiter has the higher priority, which yielding alone does not ensure.
    @usableFromInline
    func wait() {
        var attempt = 0
        var sleepNanoseconds = 1_000
        repeat {
            // Wait with plain loads, so the waiter does not keep stealing the cache line.
            var spins = 0
            while locked.load(ordering: .relaxed), spins < 100 {
                spins += 1
            }
            if locked.load(ordering: .relaxed) {
                attempt += 1
                if attempt <= 16 {
                    sched_yield()
                } else {
                    var pause = timespec(tv_sec: 0, tv_nsec: sleepNanoseconds)
                    nanosleep(&pause, nil)
                    sleepNanoseconds = min(sleepNanoseconds * 2, 1_000_000)
                }
            }
        } while !tryLock()
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
