// Threads contend for the package's locks as a server's do: first gets of singletons, a safe
// provider's serialized factory, a session that changes while it is got, a locator written and
// read at once. Every value is checked; ThreadSanitizer, when the build has it, checks the rest.
import Dispatch
import Foundation
import ServiceContainerKit
import ServiceLocatorKit
import Synchronization

/// The tool's own bookkeeping, under an `NSLock`: ThreadSanitizer on Linux does not see the
/// ordering a contended `Synchronization.Mutex` gives (docs/core.md, "Threads").
final class Guarded<Value>: @unchecked Sendable {  // its value is reached only under its lock
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

let threads = 4
let rounds = 100
let failures = Guarded<[String]>([])

func check(_ holds: Bool, _ what: @autoclosure () -> String) {
    if !holds { failures.withLock { $0.append(what()) } }
}

final class Service: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}

// Singletons made by the first gets of several threads at once: each made once, the same
// instance for every thread; a safe provider's factory, serialized, counts without a lock.
final class Counter { var value = 0 }
for round in 0..<rounds {
    let makings = Atomic(0)
    let lazy = ServiceProvider<Service>(mode: .lazy) {
        makings.add(1, ordering: .relaxed)
        return Service(number: round)
    }
    let weak = ServiceProvider<Service>(mode: .weak) { Service(number: round) }
    let ids: ServiceProvider<Int> = ServiceSafeProvider(mode: .many, safeThread: .lock) { [counter = Counter()] in
        counter.value += 1
        return counter.value
    }
    let got = Guarded<(lazy: Set<ObjectIdentifier>, ids: Set<Int>)>(([], []))
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
        for _ in 0..<20 {
            let service = try? lazy.getService()
            let held = try? weak.getService()
            let id = try? ids.getService()
            check(service?.number == round && held?.number == round, "round \(round): a singleton's get")
            got.withLock {
                if let service { $0.lazy.insert(ObjectIdentifier(service)) }
                if let id { $0.ids.insert(id) }
            }
        }
    }
    check(makings.load(ordering: .relaxed) == 1, "round \(round): the lazy service made \(makings.load(ordering: .relaxed)) times")
    got.withLock {
        check($0.lazy.count == 1, "round \(round): \($0.lazy.count) lazy services")
        check($0.ids == Set(1...threads * 20), "round \(round): the safe provider's ids \($0.ids.sorted())")
    }
}

// A session that changes on one thread while the others get its service.
final class Profile: Sendable {
    let userId: String
    init(userId: String) { self.userId = userId }
}

struct UserSession: ServiceSession {
    let userId: String
    var key: AnyHashable { userId }
}

struct ProfileFactory: ServiceSessionFactory {
    let mode: ServiceSessionFactoryMode = .lazy
    func makeService(session: UserSession) throws -> Profile { Profile(userId: session.userId) }
}

let users = ["ann", "bob", "cy"]
let mediator = ServiceSessionMediator(session: UserSession(userId: users[0]))
let profiles = ProfileFactory().serviceProvider(mediator: mediator)
DispatchQueue.concurrentPerform(iterations: threads) { thread in
    for step in 0..<rounds * 5 {
        if thread == 0 {
            mediator.updateSession(UserSession(userId: users[step % users.count]))
        } else {
            let profile = try? profiles.getService()
            check(profile.map { users.contains($0.userId) } == true, "a session's profile: \(String(describing: profile?.userId))")
        }
    }
}
let last = users[(rounds * 5 - 1) % users.count]
check((try? profiles.getService())?.userId == last, "the last session's profile")

// A locator written and read by every thread at once.
struct NumberKey: ServiceLocatorKey {
    typealias ServiceType = Service
    let storeKey: String
}

let locator = ServiceLocator()
locator.addService(key: NumberKey(storeKey: "shared"), service: Service(number: -1))
DispatchQueue.concurrentPerform(iterations: threads) { thread in
    for step in 0..<rounds * 5 {
        let key = NumberKey(storeKey: "\(thread).\(step)")
        locator.addService(key: key, service: Service(number: step))
        check(locator.getService(key: key)?.number == step, "the locator's service \(key.storeKey)")
        check(locator.getService(key: NumberKey(storeKey: "shared"))?.number == -1, "the locator's shared service")
    }
}

let found = failures.withLock { $0 }
print("\(found.count) failed checks")
for failure in found.prefix(20) { print(failure) }
if !found.isEmpty { fatalError("\(found.count) checks failed") }
