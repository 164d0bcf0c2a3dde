import Foundation
import Testing
import ServiceInjects
import TestSupport

/// Every test that touches the global registries lives in a suite nested in this one, so they
/// run one at a time; each starts from empty registries.
@Suite(.serialized)
struct InjectsTests {}

/// Empties both registries (the documented reset for tests).
func resetRegistries() {
    ServiceInjectResolver.removeAll()
    EntityInjectResolver.removeAll()
}

/// Waits until the blocks enqueued on the main queue so far have run: the next main-loop turn.
@MainActor
func nextMainLoopTurn() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// Records the events of ServiceInjects.
final class RecordingInjectLogger: ServiceInjectLogger, @unchecked Sendable {
    // Guards `events`.
    private let lock = NSLock()
    private var events: [String] = []

    func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type) {
        lock.withLock { events.append("duplicate \(type)") }
    }

    func entityInjectResolverDidAutoRemove(entityType: Any.Type, afterInjection: Bool) {
        lock.withLock { events.append("removed \(entityType) injected: \(afterInjection)") }
    }

    func entityInjectResolverDidAutoRemove(entityType: Any.Type, delay: TimeInterval) {
        lock.withLock { events.append("removed \(entityType) after \(delay) s") }
    }

    var recorded: [String] { lock.withLock { events } }
}

enum TestError: Error {
    case failed
}

/// A service class that remembers which value it was made with.
final class Tagged: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

/// A simple container for most tests.
struct TestServices {
    struct Nested {
        struct Deeper {
            let tagged: ServiceProvider<Tagged>
        }
        let deeper: Deeper
    }

    let tagged: ServiceProvider<Tagged>
    let lazyTagged: ServiceProvider<Tagged>
    let optionalTagged: ServiceProvider<Tagged>?
    let missingTagged: ServiceProvider<Tagged>?
    let params: ServiceParamsProvider<Tagged, String>
    let optionalParams: ServiceParamsProvider<Tagged, String>?
    let missingParams: ServiceParamsProvider<Tagged, String>?
    let nested: Nested

    /// `made` counts the lazy service's making.
    static func make(tag: String = "main", made: Counter = Counter()) -> TestServices {
        TestServices(
            tagged: ServiceProvider(Tagged(tag)),
            lazyTagged: ServiceProvider(mode: .lazy) {
                made.increment()
                return Tagged("lazy-\(tag)")
            },
            optionalTagged: ServiceProvider(Tagged("optional-\(tag)")),
            missingTagged: nil,
            params: ServiceParamsProvider { Tagged("\(tag)-\($0)") },
            optionalParams: ServiceParamsProvider { Tagged("optional-\(tag)-\($0)") },
            missingParams: nil,
            nested: Nested(deeper: .init(tagged: ServiceProvider(Tagged("nested-\(tag)"))))
        )
    }
}

/// A mutable box for values set by handlers in tests.
final class Box<Value>: @unchecked Sendable {
    // Only touched by the test's own thread, or after the threads writing it joined.
    var value: Value
    init(_ value: Value) { self.value = value }
}
