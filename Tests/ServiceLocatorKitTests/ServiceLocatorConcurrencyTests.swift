import Dispatch
import Foundation
import LocatorTestSupport
import Synchronization
import Testing
import ServiceLocatorKit
import TestSupport

/// A service whose deinit changes the parent of another locator: released under the lock that
/// parent changes take, it would take that lock again.
private final class Detacher: Sendable {
    let other: ServiceLocator
    init(_ other: ServiceLocator) { self.other = other }
    deinit { other.setParent(nil) }
}

/// Whether the thread that replaces `Detacher`s in the parent should stop.
private let stopReplacing = Atomic<Bool>(false)

// Threads that wait for each other could deadlock: each test runs its threads inside a time
// limit, so that a deadlock fails the test instead of stalling the run.
@Suite("ServiceLocator: threads")
struct ServiceLocatorConcurrencyTests {
    @Test("Gets racing setReadOnly keep finding the services, here and in the parent", .offThePool)
    func getsDuringSetReadOnly() throws {
        let misses = Atomic<Int>(0)
        try withTimeLimit(seconds: 60) {
            for round in 0..<1_000 {
                let parent = ServiceLocator()
                parent.addService(key: Keys.first, service: FirstService(name: "parent \(round)"))
                let child = ServiceLocator(parent: parent)
                child.addService(key: Keys.singleton, service: SingletonService())
                let start = DispatchSemaphore(value: 0)
                let done = DispatchSemaphore(value: 0)
                for _ in 0..<2 {
                    Thread {
                        start.wait()
                        for _ in 0..<100 {
                            if child.getService(key: Keys.singleton) == nil || child.getService(key: Keys.first) == nil {
                                misses.add(1, ordering: .relaxed)
                            }
                        }
                        done.signal()
                    }.start()
                }
                start.signal()
                start.signal()
                child.setReadOnly(denyClone: false, assertionFailure: false)
                done.wait()  // bounded by the time limit around the rounds
                done.wait()
            }
        }
        #expect(misses.load(ordering: .relaxed) == 0, "a registered service was missed while setReadOnly ran")
    }

    static let threads = 8
    static let perThread = 200

    @Test(.offThePool) func concurrentAddsLoseNothing() throws {
        let locator = ServiceLocator()
        try withTimeLimit {
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<Self.perThread {
                    let key = NamedKey<NumberService>(storeKey: "service-\(thread)-\(index)")
                    locator.addService(key: key, service: NumberService(number: thread * Self.perThread + index))
                    // Reads interleave with the writes of other threads.
                    _ = locator.getService(key: NamedKey<NumberService>(storeKey: "service-0-\(index)"))
                }
            }
        }
        #expect(locator.count == Self.threads * Self.perThread)
        for thread in 0..<Self.threads {
            for index in 0..<Self.perThread {
                let key = NamedKey<NumberService>(storeKey: "service-\(thread)-\(index)")
                #expect(try locator.tryService(key: key).number == thread * Self.perThread + index)
            }
        }
    }

    @Test(.offThePool) func concurrentGetsFromReadOnlyMakeTheSingletonOnce() throws {
        let counter = Counter()
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService(name: "dependency"))
        locator.addLazyService(key: Keys.dependent) { [unowned locator] in
            counter.increment()
            return DependentService(first: try locator.tryService(key: Keys.first))
        }
        locator.setReadOnly(assertionFailure: false)

        let results = ResultBox<ObjectIdentifier>()
        try withTimeLimit {
            DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
                for _ in 0..<Self.perThread {
                    if let service = locator.getService(key: Keys.dependent) {
                        results.append(ObjectIdentifier(service))
                    }
                }
            }
        }
        #expect(counter.value == 1)
        #expect(results.count == Self.threads * Self.perThread)
        #expect(results.distinct == 1)
    }

    @Test(.offThePool) func writableLocatorServesFactoriesThatUseItWhileOthersWrite() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService(name: "dependency"))
        locator.addService(key: Keys.dependent) { [unowned locator] in
            DependentService(first: try locator.tryService(key: Keys.first))
        }
        let failures = ResultBox<String>()
        try withTimeLimit {
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<Self.perThread / 4 {
                    if thread % 2 == 0 {
                        locator.addService(key: NamedKey<ManyService>(storeKey: "extra-\(thread)-\(index)")) {
                            ManyService()
                        }
                    } else if (try? locator.tryService(key: Keys.dependent).first.name) != "dependency" {
                        failures.append("get \(thread)-\(index)")
                    }
                }
            }
        }
        #expect(failures.count == 0)
        #expect(locator.count == 2 + (Self.threads / 2) * (Self.perThread / 4))
    }

    @Test("A service that a change releases may use the locator in its deinit", .offThePool)
    func releasedServiceUsesTheLocatorInDeinit() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService(name: "dependency"))
        let seen = ResultBox<String>()
        let key = NamedKey<LocatorUser>(storeKey: "user")
        locator.addService(key: key, service: LocatorUser(locator: locator, seen: seen, tag: "replaced"))
        // Replacing the service releases the first one, whose deinit reads and writes the
        // locator; removing releases the second. Released under the locator's lock, they would
        // wait for it forever, so the changes run on another thread, watched with a timeout.
        let changes = DispatchGroup()
        let removal = ResultBox<String>()
        DispatchQueue.global().async(group: changes) {
            locator.addService(key: key, service: LocatorUser(locator: locator, seen: seen, tag: "removed"))
            let removed = locator.removeService(key: key)
            removal.append((try? removed.get()) == nil ? "failed" : "removed")
            // A parent that the child lets go is released with its services, one of which uses
            // the child; the child holds the only reference to it.
            locator.setParent(
                {
                    let parent = ServiceLocator()
                    parent.addService(key: key, service: LocatorUser(locator: locator, seen: seen, tag: "parent"))
                    return parent
                }()
            )
            locator.setParent(nil)
        }
        try waitWithTimeLimit(changes, "a released service's deinit waited for the lock")
        #expect(removal.all == ["removed"])
        #expect(seen.sorted == ["parent: dependency", "removed: dependency", "replaced: dependency"])
        #expect(locator.getService(key: NamedKey<FirstService>(storeKey: "parent"))?.name == "parent")
        #expect(locator.getService(key: NamedKey<FirstService>(storeKey: "replaced"))?.name == "replaced")
        #expect(locator.getService(key: NamedKey<FirstService>(storeKey: "removed"))?.name == "removed")
    }

    @Test("A service replaced in a parent while setParent walks the chain is released outside its lock")
    func setParentWalksTheChainWithoutKeepingSlots() async {
        // The walk once copied each ancestor's slots; a copy left the last owner of slots that
        // another thread had replaced released the replaced service inside the walk's lock.
        await #expect(processExitsWith: .success) {
            let app = ServiceLocator()
            let other = ServiceLocator()
            let screen = ServiceLocator(parent: app)
            let key = ServiceLocatorEasyKey<Detacher>()
            let replacing = DispatchGroup()
            DispatchQueue.global().async(group: replacing) {
                while !stopReplacing.load(ordering: .relaxed) { app.addService(key: key, service: Detacher(other)) }
            }
            let end = DispatchTime.now() + .milliseconds(1_500)
            while DispatchTime.now() < end { screen.setParent(app) }
            stopReplacing.store(true, ordering: .relaxed)
            guard replacing.wait(timeout: .now() + 10) == .success else { exit(3) }
        }
    }

    @Test(.offThePool) func parentChangesFromManyThreadsNeverLoop() throws {
        let locators = (0..<4).map { _ in ServiceLocator() }
        // A get that walks a looping chain would never end.
        let chains = try withTimeLimit { () -> [(length: Int, found: Bool)] in
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<50 {
                    let child = locators[(thread + index) % locators.count]
                    let parent = locators[(thread + index + 1 + thread % 2) % locators.count]
                    child.setParent(parent)
                }
            }
            return locators.map { locator in
                var seen = 0
                var current: ServiceLocator? = locator
                while let next = current?.parent, seen <= locators.count {
                    current = next
                    seen += 1
                }
                return (seen, locator.getService(key: Keys.first) != nil)
            }
        }
        // Whatever was kept, each chain ends.
        for chain in chains {
            #expect(chain.length < locators.count)
            #expect(!chain.found)
        }
    }
}

/// A service that, when it is released, reads its locator and adds a service to it.
final class LocatorUser: Sendable {
    let locator: ServiceLocator
    let seen: ResultBox<String>
    let tag: String

    init(locator: ServiceLocator, seen: ResultBox<String>, tag: String) {
        self.locator = locator
        self.seen = seen
        self.tag = tag
    }

    deinit {
        let name = locator.getService(key: Keys.first)?.name ?? "nothing"
        seen.append("\(tag): \(name)")
        locator.addService(key: NamedKey<FirstService>(storeKey: tag), service: FirstService(name: tag))
    }
}

/// Collects values from many threads.
final class ResultBox<Value: Hashable & Sendable>: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLockBox()
    private var values: [Value] = []

    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var count: Int { lock.withLock { values.count } }
    var distinct: Int { lock.withLock { Set(values).count } }
    var all: [Value] { lock.withLock { values } }
}

extension ResultBox where Value: Comparable {
    var sorted: [Value] { all.sorted() }
}
