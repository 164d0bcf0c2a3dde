import Synchronization

// Every construct of the package that leaves out a check the compiler or the runtime would
// make lives in this file, with the invariant that makes it safe and the benchmark case that
// misses its target without it (`swift run -c release ServiceContainerKitBenchmarks`). Each
// was measured by putting the checked form back. (The other raw memory of the package is the
// per-thread `ThreadContext`, reached through a C thread-local pointer that only its own file
// touches; that pointer and the count of running validations and recorders are the two C
// globals of `Sources/CServiceContainerKit`, whose header says why each is in C and which case
// measures it.)

// MARK: - OnceCell

/// A value published once, then read by any thread with one acquire load and no lock: the
/// service of a `lazy` provider, an injected property, the services of a read-only locator.
///
/// ```swift
/// let cell = OnceCell<Settings>()
/// creationLock.withLock { _ in if cell.value == nil { cell.publish(Settings()) } }
/// let settings = cell.value  // any thread, no lock
/// ```
///
/// **Invariant.** `stored` is written at most once, before `isSet` is stored with release
/// ordering, by the one thread its owner lets publish (the owner serializes publishing with its
/// own lock, or publishes in its initializer); it is read only after `isSet` was loaded with
/// acquire ordering. A read therefore never overlaps a write, and the run-time exclusivity
/// check on `stored` (`@exclusivity(unchecked)`), which costs more than the read itself, is
/// left out. `takeAtDeinit()` is the one other write, made when nothing else can reach the
/// cell.
///
/// **Pays for** `core/lazy get (made)` (and every other read of a published value): with the
/// check, each read calls into the runtime twice, and the get costs 105 instructions more than
/// a stored reference read instead of 20, past its ceiling of 25 (`--instructions`).
@usableFromInline
package final class OnceCell<Value>: @unchecked Sendable {  // see the invariant above
    @usableFromInline let isSet: Atomic<Bool>
    @usableFromInline @exclusivity(unchecked) var stored: Value?

    /// A cell with no value yet.
    @inlinable
    package init() {
        isSet = Atomic(false)
    }

    /// A cell published at once with `value`.
    @inlinable
    package init(_ value: Value) {
        stored = value
        isSet = Atomic(true)
    }

    /// The value, or `nil` before it is published.
    @inlinable
    package var value: Value? {
        isSet.load(ordering: .acquiring) ? stored : nil
    }

    /// Whether the value is published, without reading it: code that is not specialized for
    /// `Value` asks this rather than `value != nil`, which would look up `Value?` at run time.
    @inlinable
    package var isPublished: Bool {
        isSet.load(ordering: .acquiring)
    }

    /// Publishes `value`. The caller holds the lock under which its owner publishes.
    @inlinable
    package func publish(_ value: Value) {
        precondition(!isSet.load(ordering: .relaxed), "a once-published value was published twice")
        stored = value
        isSet.store(true, ordering: .releasing)
    }

    /// Takes the value out, in the owner's `deinit`, when no other thread can reach the cell.
    package func takeAtDeinit() -> Value? {
        defer { stored = nil }
        return stored
    }
}

// MARK: - UnretainedReference

/// A reference read without retaining the object, because something else keeps it alive.
///
/// ```swift
/// let cell = InjectCell()            // kept alive by the wrapper
/// let reference = UnretainedReference(cell)
/// reference.withObject { $0.value }  // no retain, no release
/// ```
///
/// **Invariant.** Whoever holds an `UnretainedReference` also holds a strong reference to the
/// same object for at least as long (a property wrapper keeps its cell in a `let` beside it),
/// so the object is alive whenever `withObject` runs.
///
/// **Pays for** `injects/@ServiceInject read, late`: reading through the wrapper's strong
/// reference copies the wrapper out of its owner, and the read costs 6.8 times a stored
/// property read instead of 1.14 (its target is 1.5). In a safe provider's get it spares the
/// retain and release of the lock and the inner provider around the lock's calls: 328
/// instructions instead of 259, past the ceiling of 1.5 times an `NSLock` taken by hand.
@usableFromInline
package struct UnretainedReference<Object: AnyObject>: @unchecked Sendable {  // see the invariant above
    @usableFromInline let unmanaged: Unmanaged<Object>

    @inlinable
    package init(_ object: Object) {
        unmanaged = .passUnretained(object)
    }

    /// Runs `body` with the object, which is not retained for it.
    @inlinable
    package func withObject<Result>(_ body: (Object) -> Result) -> Result {
        unmanaged._withUnsafeGuaranteedRef(body)
    }
}
