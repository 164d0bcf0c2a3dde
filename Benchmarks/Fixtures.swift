import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The service most cases get: a class instance, as services usually are.
final class BenchService: Sendable {
    let number: Int

    init(number: Int) {
        self.number = number
    }
}

/// The 3-deep graph: `GraphA` needs `GraphB`, which needs the singleton `GraphC`.
final class GraphC: Sendable {}

final class GraphB: Sendable {
    let c: GraphC
    init(c: GraphC) { self.c = c }
}

final class GraphA: Sendable {
    let b: GraphB
    init(b: GraphB) { self.b = b }
}

/// What a measured operation works on: a provider, a stored reference or a closure, kept in a
/// `let` the way an app's container keeps its providers.
final class Holder<Value>: @unchecked Sendable {
    // Immutable; whether `Value` may be shared is up to the case that holds it.
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Runs `operation` on `holder` `iterations` times and hands every result to `blackHole`.
///
/// Cases pass a function marked `@inline(never)` as `operation`, so each iteration really
/// performs one whole operation (nothing can be hoisted out of the loop), and case and
/// baseline pay the same call around it.
@inline(__always)
func repeatOperation<Value, Result>(
    _ iterations: Int,
    on holder: Holder<Value>,
    _ operation: (Holder<Value>) -> Result
) {
    for _ in 0..<iterations {
        blackHole(operation(holder))
    }
}

/// The baseline of the singleton gets: a stored class reference read through a call that is
/// not inlined, handing out a strong reference as a get does.
@inline(never)
func readStored<Value: AnyObject>(_ holder: Holder<Value>) -> Value {
    holder.value
}

/// Two threads that run the same body at once when told to; `run` times the operations of
/// both threads (see `BenchmarkCase.operationsPerIteration`).
///
/// The threads are made once per case and kept waiting between rounds. They are dedicated
/// threads, not a thread pool: a pool may run both halves one after the other on one thread,
/// which would measure no contention at all.
final class WorkerPair: @unchecked Sendable {
    // `body` never changes; `iterations` and `stopping` are written before `start` is signalled
    // and read after it is waited for, so the semaphores order every access.
    private let body: BenchmarkBody
    private var iterations = 0
    private var stopping = false
    private let start = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let gate = Atomic<Int>(0)

    init(_ body: @escaping BenchmarkBody) {
        self.body = body
        for _ in 0..<2 {
            // Each thread holds the pair only while it runs; `shutDown()` lets them end.
            Thread { [self] in self.loop() }.start()
        }
    }

    func run(_ iterations: Int) {
        self.iterations = iterations
        gate.store(0, ordering: .releasing)
        start.signal()
        start.signal()
        finished.wait()
        finished.wait()
    }

    /// Ends both threads; the pair must not be used afterwards.
    func shutDown() {
        stopping = true
        start.signal()
        start.signal()
    }

    private func loop() {
        while true {
            start.wait()
            if stopping { return }
            // Both threads begin the measured work together.
            gate.add(1, ordering: .acquiringAndReleasing)
            while gate.load(ordering: .acquiring) < 2 {
                sched_yield()
            }
            body(iterations)
            finished.signal()
        }
    }
}
