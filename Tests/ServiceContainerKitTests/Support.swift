import Dispatch
import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

/// An error a test factory throws.
struct TestError: Error, Equatable {
    var code = 1
}

/// A plain service object whose identity tests compare.
final class Service: Sendable {
    let number: Int
    init(number: Int = 0) { self.number = number }
}

protocol Greeting: AnyObject, Sendable {
    var text: String { get }
}

final class Greeter: Greeting {
    let text: String
    init(text: String = "hello") { self.text = text }
}

/// A factory closure that counts its calls, optionally failing the first `failures` of them.
func countingFactory(_ counter: Counter, failures: Int = 0, delay: TimeInterval = 0) -> @Sendable () throws -> Service {
    return {
        let call = counter.increment()
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        if call <= failures { throw TestError(code: call) }
        return Service(number: call)
    }
}

/// Runs `body` on `threads` threads released at the same moment, and returns their results.
/// Threads that are not all done within `seconds` (a deadlock) fail the test: the wait records
/// it and throws `TimeLimitExceeded`, and the stuck threads are left behind.
func raceOnThreads<Value: Sendable>(
    _ threads: Int = 8,
    seconds: Double = 30,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (Int) -> Value
) throws -> [Value] {
    let results = Locked<[Int: Value]>([:])
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<threads {
        ready.enter()
        done.enter()
        let thread = Thread {
            ready.leave()
            start.wait()
            let value = body(index)
            results.withLock { $0[index] = value }
            done.leave()
        }
        thread.start()
    }
    // Bounded too; threads that never started leave `done` waiting, which fails below.
    _ = ready.wait(timeout: .now() + seconds)
    for _ in 0..<threads { start.signal() }
    try waitWithTimeLimit(done, seconds: seconds, sourceLocation: sourceLocation)
    return results.withLock { dict in (0..<threads).map { dict[$0]! } }
}

/// A logger that keeps every event it gets, for the services a test names.
final class RecordingLogger: ProvidersLogger, @unchecked Sendable {
    // Guards `failures` and `objcRefusals`.
    private let lock = NSLock()
    private var failures: [(type: Any.Type, error: ServiceObtainError)] = []
    private var objcRefusals: [Any.Type] = []
    let queue: DispatchQueue?

    init(queue: DispatchQueue? = nil) {
        self.queue = queue
    }

    func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
        lock.withLock { failures.append((type, error)) }
    }

    func serviceProviderObjCNotSupport(type: Any.Type) {
        lock.withLock { objcRefusals.append(type) }
    }

    func failures(of type: Any.Type) -> [ServiceObtainError] {
        lock.withLock { failures.filter { sameType($0.type, type) }.map(\.error) }
    }

    func refusals(of type: Any.Type) -> Int {
        lock.withLock { objcRefusals.filter { sameType($0, type) }.count }
    }
}

func typeList(_ types: [Any.Type]) -> [String] {
    types.map { String(describing: $0) }
}

/// Whether `type` is exactly `expected`.
func sameType(_ type: Any.Type?, _ expected: Any.Type) -> Bool {
    type.map { ObjectIdentifier($0) == ObjectIdentifier(expected) } ?? false
}

/// The closes of a test, in the order they ran.
final class CloseJournal: Sendable {
    private let entries = Locked<[String]>([])
    func add(_ name: String) { entries.withLock { $0.append(name) } }
    var closed: [String] { entries.withLock { $0 } }
}

/// A service that writes its name to a journal when it closes, and may fail or hang there.
final class Closing: ClosableService {
    enum Behaviour: Sendable { case closes, fails, hangs }

    let name: String
    let journal: CloseJournal
    let behaviour: Behaviour

    init(_ name: String, _ journal: CloseJournal, _ behaviour: Behaviour = .closes) {
        self.name = name
        self.journal = journal
        self.behaviour = behaviour
    }

    struct Failure: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) could not close" }
    }

    func close() async throws {
        journal.add(name)
        switch behaviour {
        case .closes: return
        case .fails: throw Failure(name: name)
        case .hangs: try await Task.sleep(for: .seconds(3_600))
        }
    }
}

/// A service whose `close()` runs `body` (which may close what owns it) and writes its name.
final class ClosingRuns: ClosableService {
    let name: String
    let journal: CloseJournal
    let body: @Sendable () async -> Void

    init(_ name: String, _ journal: CloseJournal, body: @escaping @Sendable () async -> Void) {
        self.name = name
        self.journal = journal
        self.body = body
    }

    func close() async {
        await body()
        journal.add(name)
    }
}

/// A service whose `close()` writes "closing" to a journal, then waits until the test calls
/// `open()`, then writes "closed".
final class GatedClosing: ClosableService {
    let journal: CloseJournal
    private let gate = Locked<(isOpen: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    init(_ journal: CloseJournal) {
        self.journal = journal
    }

    func close() async {
        journal.add("closing")
        await withCheckedContinuation { waiter in
            let isOpen = gate.withLock { gate in
                if !gate.isOpen { gate.waiter = waiter }
                return gate.isOpen
            }
            if isOpen { waiter.resume() }
        }
        journal.add("closed")
    }

    func open() {
        gate.withLock { gate in
            gate.isOpen = true
            return gate.waiter.take()
        }?.resume()
    }

    /// Returns once `close()` has begun.
    func untilClosing() async throws {
        while journal.closed.isEmpty {
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
