import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

@Suite("Concurrent first gets")
struct ConcurrencyTests {
    static let threads = 8

    @Test("A lazy service is made exactly once under concurrent first gets", .offThePool)
    func lazy() throws {
        for _ in 0..<20 {
            let counter = Counter()
            let provider = ServiceProvider(mode: .lazy, factory: countingFactory(counter, delay: 0.001))
            let made = try raceOnThreads(Self.threads) { _ in provider.getServiceAsOptional().map(ObjectIdentifier.init) }
            #expect(counter.value == 1)
            #expect(Set(made.compactMap { $0 }).count == 1)
            #expect(!made.contains(nil))
        }
    }

    final class FailsFirst: Sendable {
        let number: Int
        init(number: Int) { self.number = number }
    }

    // Serialized: each case counts the threads that wait for a making of `FailsFirst`.
    @Test(
        "A failed making gives its error to the gets that waited for it; the next get makes the service again",
        .serialized,
        .offThePool,
        arguments: [ServiceFactoryMode.lazy, .weak, .scoped]
    )
    func waitersShareAFailure(mode: ServiceFactoryMode) throws {
        let counter = Counter()
        let waiters = Self.threads - 1
        let provider = ServiceProvider<FailsFirst>(mode: mode) {
            let call = counter.increment()
            guard call == 1 else { return FailsFirst(number: call) }
            // Fails once every other get waits for this making (or after 10 seconds).
            let deadline = Date(timeIntervalSinceNow: 10)
            while Making.waitingThreadCount(for: FailsFirst.self) < waiters, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.001)
            }
            throw TestError(code: 1)
        }
        let scope = ServiceScope(label: "request")
        // The code of each get's error: 1 for the one factory call that failed.
        let codes = try raceOnThreads(Self.threads) { _ in
            switch scope.run({ provider.getServiceAsResult() }) {
            case .success(let service): "made \(service.number)"
            case .failure(let error): (error.error as? TestError).map { "failed \($0.code)" } ?? "\(error)"
            }
        }
        #expect(counter.value == 1)
        #expect(codes == Array(repeating: "failed 1", count: Self.threads))
        let later = try scope.run { try provider.getService() }
        #expect(later.number == 2)
        #expect(counter.value == 2)
    }

    /// A service of the hand-over test: an object, or a value, which nothing can hold weakly.
    protocol Numbered: Sendable {
        init(number: Int)
        var number: Int { get }
    }

    final class HandedObject: Numbered {
        let number: Int
        init(number: Int) { self.number = number }
    }

    struct HandedValue: Numbered {
        let number: Int
    }

    struct WeakSessionFactory<Service: Numbered>: ServiceSessionFactory {
        let mode = ServiceSessionFactoryMode.weak
        let make: @Sendable () -> Service
        func makeService(session: UserSession) -> Service { make() }
    }

    // Serialized: each case counts the threads that wait for a making of its service type.
    @Test(
        "A weak service that every get lets go of at once is made once for the gets that waited for its making",
        .serialized,
        arguments: [false, true], [false, true]
    )
    func weakServiceIsHandedToWaiters(session: Bool, value: Bool) throws {
        try value ? handOver(HandedValue.self, session: session) : handOver(HandedObject.self, session: session)
    }

    func handOver<Service: Numbered>(_: Service.Type, session: Bool) throws {
        let counter = Counter()
        let waiters = Self.threads - 1
        let factory: @Sendable () -> Service = {
            let call = counter.increment()
            if call == 1 {
                // Ends once every other get waits for this making (or after 10 seconds).
                let deadline = Date(timeIntervalSinceNow: 10)
                while Making.waitingThreadCount(for: Service.self) < waiters, Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.001)
                }
            }
            return Service(number: call)
        }
        let provider =
            session
            ? WeakSessionFactory(make: factory).serviceProvider(mediator: ServiceSessionMediator(session: UserSession(userId: 1)))
            : ServiceProvider(mode: .weak, factory: factory)
        // Each get lets go of the service at once: held weakly (or, a value, not held at all),
        // it would be gone before the waiting gets looked for it again.
        let numbers = try raceOnThreads(Self.threads) { _ in provider.getServiceAsOptional()?.number }
        #expect(numbers == Array(repeating: 1, count: Self.threads))
        #expect(counter.value == 1)
        // Nothing kept it: each next get makes it again.
        #expect(provider.getServiceAsOptional()?.number == 2)
        #expect(provider.getServiceAsOptional()?.number == 3)
    }

    final class StopsWhenCancelled: Sendable {
        let number: Int
        init(number: Int) { self.number = number }
    }

    // In a process of its own: the cancelled get blocks a thread of the concurrency pool until
    // the other get waits, which would hold up the other tests' tasks.
    @Test("A making stopped by its task's cancellation hands no error on: the get that waited makes the service")
    func cancellationIsNotHandedOn() async {
        await #expect(processExitsWith: .success) { try await ConcurrencyTests.cancellationIsNotHandedOnInItsOwnProcess() }
    }

    static func cancellationIsNotHandedOnInItsOwnProcess() async throws {
        let counter = Counter()
        let provider = ServiceProvider<StopsWhenCancelled>(mode: .lazy) {
            let call = counter.increment()
            if call == 1 {
                // Stops once another get waits for this making (or after 10 seconds).
                let deadline = Date(timeIntervalSinceNow: 10)
                while Making.waitingThreadCount(for: StopsWhenCancelled.self) < 1, Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.001)
                }
                try Task.checkCancellation()
            }
            return StopsWhenCancelled(number: call)
        }
        let (first, second) = try await withAsyncTimeLimit(seconds: 30) {
            let first = Task.detached {
                withUnsafeCurrentTask { $0?.cancel() }
                return provider.getServiceAsResult().map(\.number)
            }
            let second = try raceOnThreads(1) { _ in
                while counter.value == 0 {
                    Thread.sleep(forTimeInterval: 0.001)  // until the cancelled get's making began
                }
                return provider.getServiceAsResult().map(\.number)
            }[0]
            return (await first.value, second)
        }
        #expect(throws: CancellationError.self) { try first.mapError { $0.error }.get() }
        #expect(try second.get() == 2)
        #expect(counter.value == 2)
    }

    @Test("A weak service is made exactly once while held", .offThePool)
    func weak() throws {
        for _ in 0..<20 {
            let counter = Counter()
            let provider = ServiceProvider(mode: .weak, factory: countingFactory(counter, delay: 0.001))
            let made = try raceOnThreads(Self.threads) { _ in provider.getServiceAsOptional() }
            #expect(counter.value == 1)
            #expect(Set(made.compactMap { $0.map(ObjectIdentifier.init) }).count == 1)
        }
    }

    @Test("A weak service that keeps dying is remade while other threads read it", .offThePool)
    func weakRemadeUnderReads() throws {
        let counter = Counter()
        let provider = ServiceProvider(mode: .weak, factory: countingFactory(counter))
        let numbers = try raceOnThreads(Self.threads) { _ in
            // Each service is dropped at once, so gets race with the remaking of a dead one.
            // A write of the kept reference outside the read lock is a data race that the
            // ThreadSanitizer run of this test reports.
            (0..<500).compactMap { _ in provider.getServiceAsOptional()?.number }
        }
        #expect(numbers.allSatisfy { $0.count == 500 })
        let made = counter.value
        #expect(numbers.allSatisfy { $0.allSatisfy { (1...made).contains($0) } })
        #expect(made >= 2)
    }

    @Test("Locked lets one thread in at a time", .offThePool)
    func lockedExcludes() throws {
        let counter = Locked(0)
        _ = try raceOnThreads(Self.threads) { _ in
            for _ in 0..<10_000 {
                counter.withLock { $0 += 1 }
            }
            return 0
        }
        #expect(counter.withLock { $0 } == Self.threads * 10_000)
    }

    @Test("A session service is made exactly once per session", .offThePool)
    func session() throws {
        for _ in 0..<20 {
            let log = SessionFactoryLog()
            let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
            let provider = UserDataFactory(mode: .lazy, log: log).serviceProvider(mediator: mediator)
            let made = try raceOnThreads(Self.threads) { _ in provider.getServiceAsOptional() }
            #expect(log.made.value == 1)
            #expect(Set(made.compactMap { $0.map(ObjectIdentifier.init) }).count == 1)
        }
    }

    @Test("Session switches racing with gets never mix sessions up", .offThePool)
    func sessionSwitches() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 0))
        let provider = UserDataFactory(mode: .lazy, log: log, keepOnDeactivate: true).serviceProvider(mediator: mediator)
        let results = try raceOnThreads(Self.threads) { index in
            (0..<50).map { step -> Bool in
                if index == 0 {
                    mediator.updateSession(UserSession(userId: step % 3))
                    return true
                }
                return provider.getServiceAsOptional() != nil
            }
        }
        #expect(results.allSatisfy { $0.allSatisfy { $0 } })
        mediator.updateSession(UserSession(userId: 7))
        #expect(try provider.getService().userId == 7)
        // One service per session seen: 0, 1, 2 (kept across switches) and 7.
        #expect(log.made.value <= 4)
    }

    @Test("A safe lazy provider is made exactly once", .offThePool, arguments: safeKinds)
    func safeLazy(kind: ServiceSafeProviderKind) throws {
        let counter = Counter()
        let provider = ServiceSafeProvider(mode: .lazy, safeThread: kind, factory: countingFactory(counter, delay: 0.001))
        let made = try raceOnThreads(Self.threads) { _ in provider.getServiceAsOptional().map(ObjectIdentifier.init) }
        #expect(counter.value == 1)
        #expect(Set(made.compactMap { $0 }).count == 1)
    }

    @Test("Many providers obtained concurrently each get their own cycle tracking", .offThePool)
    func nestedAcrossThreads() throws {
        let inner = ServiceProvider(mode: .lazy) { Service(number: 1) }
        let outer = ServiceProvider<Service>(mode: .many) {
            Service(number: try inner.getService().number + 1)
        }
        let numbers = try raceOnThreads(Self.threads) { _ in
            (0..<100).compactMap { _ in outer.getServiceAsOptional()?.number }
        }
        #expect(numbers.allSatisfy { $0 == Array(repeating: 2, count: 100) })
    }
}
