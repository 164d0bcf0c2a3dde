import CServiceContainerKit
import Synchronization

/// The package's one lock: a `Synchronization.Mutex` around the state it guards, which is
/// reached only inside `withLock`. With the package's trait `ThreadSanitizerAnnotations`, it
/// also tells ThreadSanitizer the ordering the mutex gives (`CServiceContainerKit.h` says why).
///
/// `Mutex.withLock` asks for state and results that can be sent to another isolation domain,
/// which a generic state or result is not known to be. The mutex makes every access exclusive,
/// so the state and the results are passed through it in an `UncheckedSendable` box; what
/// `body` does with them is its own business, as with any lock.
///
/// A `Locked` is `Sendable` only when its state is: what `body` takes out of the state is then
/// safe to use on the thread that took it, and the compiler checks it. A state that keeps a
/// value the compiler cannot follow (a service of any type) boxes that value itself, in an
/// `UncheckedSendable` (`Unchecked.swift`).
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["gets", default: 0] += 1 }
/// ```
///
/// Never run user code (factories, hooks, `deinit`s of services) inside `withLock`: take values
/// out, and release what the state lets go after the lock. The one lock that exists to be held
/// while a factory runs, a `Making`'s `makingLock` (which a safe provider's `Serializer` holds
/// too), holds no state, and a thread never waits for one held by itself or by a thread that
/// waits for it (`Making.wait` checks for a cycle first).
@usableFromInline
package struct Locked<State>: ~Copyable {
    @usableFromInline let mutex: Mutex<UncheckedSendable<State>>

    @inlinable
    package init(_ state: consuming State) {
        mutex = Mutex(UncheckedSendable(state))
    }

    /// Runs `body` with the state while the lock is held.
    @inlinable
    package borrowing func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try mutex.withLock { (state: inout sending UncheckedSendable<State>) throws(Failure) -> UncheckedSendable<Result> in
            #if ThreadSanitizerAnnotations
            // ThreadSanitizer is told the ordering the mutex gives, which it does not see on Linux
            // (CServiceContainerKit.h), on the mutex's address: taking the state's would access
            // it before the acquire.
            withUnsafePointer(to: mutex) { sck_lock_acquired($0) }
            defer { withUnsafePointer(to: mutex) { sck_lock_releasing($0) } }
            #endif
            return UncheckedSendable(try body(&state.value))
        }.value
    }
}

extension Locked: Sendable where State: Sendable {}
