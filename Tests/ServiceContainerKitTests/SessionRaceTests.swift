import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

/// Updates and makings on several threads that wait for each other: none may deadlock, stop
/// the process or lose a service.
@Suite("Session updates racing makings")
struct SessionRaceTests {
    /// Starts `body` on a thread of its own; `done` is signalled when it returns.
    func start(_ done: DispatchSemaphore, _ body: @escaping @Sendable () -> Void) {
        Thread {
            body()
            done.signal()
        }.start()
    }

    /// A `lazy` factory whose `deactivateService` keeps the service, and whose first making of
    /// user 1's service applies `updates` from inside the factory: the first update overtakes
    /// that very making.
    func selfOvertakingFactory(
        _ mediator: ServiceSessionMediator<UserSession>,
        log: SessionFactoryLog,
        updates: [(userId: Int, policy: ServiceSessionRemakePolicy)]
    ) -> HookedFactory {
        var factory = HookedFactory(mode: .lazy, log: log, keep: true)
        let makes = Counter()
        factory.onMake = { session in
            if session.userId == 1, makes.increment() == 1 {
                for (userId, policy) in updates {
                    mediator.updateSession(UserSession(userId: userId), remakePolicy: policy)
                }
            }
        }
        return factory
    }

    /// A provider whose first making of user 1's service switches to user 2 from its factory,
    /// which overtakes it; while its service is deactivated on another thread, `during` runs.
    /// Returns once that get has ended.
    func providerOvertakenWhileDeactivating(
        _ mediator: ServiceSessionMediator<UserSession>,
        log: SessionFactoryLog,
        during: @escaping @Sendable () throws -> Void
    ) throws -> ServiceProvider<SessionService> {
        var factory = selfOvertakingFactory(mediator, log: log, updates: [(2, .none)])
        let deactivating = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let deactivations = Counter()
        factory.onDeactivate = { _, _ in
            if deactivations.increment() == 1 {
                deactivating.signal()
                proceed.wait()
            }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        let done = DispatchSemaphore(value: 0)
        start(done) { _ = try? provider.getService() }
        try waitWithTimeLimit(deactivating)
        try withTimeLimit(during)
        proceed.signal()
        try waitWithTimeLimit(done)
        return provider
    }

    // Four threads keep getting a `weak` service that nobody holds, so that a new making is
    // in progress almost all the time, each started as soon as the last one ended. A switch
    // waits for the making it finds once; a making started meanwhile it overtakes, so it ends.
    @Test("A switch ends while other threads keep remaking a weak service nobody holds", .offThePool)
    func switchIsNotHeldUpByRemakings() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        var factory = HookedFactory(mode: .weak, log: SessionFactoryLog())
        factory.onMake = { _ in Thread.sleep(forTimeInterval: 0.01) }
        let provider = factory.serviceProvider(mediator: mediator)
        let stop = Flag()
        let done = DispatchSemaphore(value: 0)
        defer { stop.set() }
        for _ in 0..<4 {
            start(done) {
                while !stop.isSet { _ = try? provider.getService() }
            }
        }
        Thread.sleep(forTimeInterval: 0.05)
        // Each switch waits for one making of 10 ms at most, then overtakes the next: 50 ms in
        // all. A switch held up by the remakings would never end; the default limit leaves room
        // for a loaded machine under ThreadSanitizer.
        try withTimeLimit {
            for userId in 2...6 { mediator.updateSession(UserSession(userId: userId)) }
        }
        stop.set()
        for _ in 0..<4 { try waitWithTimeLimit(done) }
        #expect(try provider.getService().userId == 6)
    }

    @Test("A factory that updates the session while another thread makes a service that needs it", .offThePool)
    func updateFromFactoryWhileDependentIsMade() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 0))
        let authEntered = DispatchSemaphore(value: 0)
        let profileEntered = DispatchSemaphore(value: 0)
        // A provider outside the sessions whose factory restores the signed-in user.
        let auth = ServiceProvider<Int>(mode: .lazy) {
            authEntered.signal()
            profileEntered.wait()
            Thread.sleep(forTimeInterval: 0.05)  // the profile's making now waits for this one
            mediator.updateSession(UserSession(userId: 1))
            return 1
        }
        var profileFactory = HookedFactory(mode: .lazy, log: SessionFactoryLog())
        profileFactory.onMake = { _ in
            profileEntered.signal()
            _ = try auth.getService()
        }
        let profile = profileFactory.serviceProvider(mediator: mediator)
        let done = DispatchSemaphore(value: 0)
        start(done) { _ = try? auth.getService() }
        try waitWithTimeLimit(authEntered)
        start(done) { _ = try? profile.getService() }
        try waitWithTimeLimit(done, "the update and the making wait for each other")
        try waitWithTimeLimit(done, "the update and the making wait for each other")
        #expect(try withTimeLimit { try profile.getService().userId } == 1)
    }

    @Test("A session factory that updates the session while another thread makes a provider that needs it", .offThePool)
    func updateFromSessionFactoryWhileDependentIsMade() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 0))
        let firstEntered = DispatchSemaphore(value: 0)
        let secondEntered = DispatchSemaphore(value: 0)
        var firstFactory = HookedFactory(mode: .lazy, log: SessionFactoryLog())
        firstFactory.onMake = { session in
            guard session.userId == 0 else { return }
            firstEntered.signal()
            secondEntered.wait()
            Thread.sleep(forTimeInterval: 0.05)
            mediator.updateSession(UserSession(userId: 1))
        }
        let first = firstFactory.serviceProvider(mediator: mediator)
        var secondFactory = HookedFactory(mode: .lazy, log: SessionFactoryLog())
        secondFactory.onMake = { _ in
            secondEntered.signal()
            _ = try first.getService()
        }
        let second = secondFactory.serviceProvider(mediator: mediator)
        let done = DispatchSemaphore(value: 0)
        start(done) { _ = try? first.getService() }
        try waitWithTimeLimit(firstEntered)
        start(done) { _ = try? second.getService() }
        try waitWithTimeLimit(done, "the update and the makings wait for each other")
        try waitWithTimeLimit(done, "the update and the makings wait for each other")
        let users = try withTimeLimit { [try first.getService().userId, try second.getService().userId] }
        #expect(users == [1, 1])
    }

    @Test("A making that an update made inside a factory overtakes is deactivated when it ends", .offThePool)
    func overtakenMakingIsDeactivated() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let updatedToTwo = DispatchSemaphore(value: 0)
        let makingTwo = DispatchSemaphore(value: 0)
        let deactivated = Locked<[Int]>([])
        var factory = HookedFactory(mode: .lazy, log: SessionFactoryLog())
        factory.onMake = { session in
            if session.userId == 1 {
                mediator.updateSession(UserSession(userId: 2))
                updatedToTwo.signal()
                makingTwo.wait()
                // This thread is inside a factory: it overtakes the making of user 2's service.
                mediator.updateSession(UserSession(userId: 3))
            } else if session.userId == 2 {
                makingTwo.signal()
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        factory.onDeactivate = { service, _ in deactivated.withLock { $0.append(service.userId) } }
        let provider = factory.serviceProvider(mediator: mediator)
        let got = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        start(done) { if let service = try? provider.getService() { got.withLock { $0.append(service.userId) } } }
        try waitWithTimeLimit(updatedToTwo)
        start(done) { if let service = try? provider.getService() { got.withLock { $0.append(service.userId) } } }
        try waitWithTimeLimit(done, "the two makings and the updates wait for each other")
        try waitWithTimeLimit(done, "the two makings and the updates wait for each other")
        #expect(got.withLock { $0.sorted() } == [1, 2], "each get returns what it made")
        #expect(deactivated.withLock { $0.sorted() } == [1, 2], "both services of ended sessions are deactivated")
        #expect(try withTimeLimit { try provider.getService().userId } == 3)
    }

    @Test("A making overtaken by an update back to its own session becomes the current service")
    func overtakenMakingOfTheCurrentSessionIsKept() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let log = SessionFactoryLog()
        var factory = HookedFactory(mode: .lazy, log: log)
        let bounced = Counter()
        factory.onMake = { session in
            // Signing out and in again while the service of user 1 is made, from its factory.
            if session.userId == 1, bounced.increment() == 1 {
                mediator.updateSession(UserSession(userId: 2))
                mediator.updateSession(UserSession(userId: 1))
            }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        // The updates run inside the making, on the thread that makes: bounded in case they wait for it.
        let (made, again) = try withTimeLimit { (try provider.getService(), try provider.getService()) }
        #expect(again === made, "user 1 is current again: its service is kept")
        #expect(log.all == ["make 1"])
    }

    @Test("An overtaken making that ends after another service was kept for its session is dropped", .offThePool)
    func overtakenMakingLeavesTheKeptServiceOfItsSession() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let log = SessionFactoryLog()
        let firstMaking = DispatchSemaphore(value: 0)
        let finishFirst = DispatchSemaphore(value: 0)
        let makes = Counter()
        var factory = HookedFactory(mode: .lazy, log: log, keep: true)
        factory.onMake = { session in
            if session.userId == 1, makes.increment() == 1 {
                firstMaking.signal()
                finishFirst.wait()
            }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        // Updates applied inside a factory overtake the making in progress instead of waiting for it.
        let updater = ServiceProvider<Int>(mode: .many) {
            mediator.updateSession(UserSession(userId: 2))
            mediator.updateSession(UserSession(userId: 1))
            return 0
        }
        let first = Locked<SessionService?>(nil)
        let done = DispatchSemaphore(value: 0)
        start(done) { first.withLock { $0 = try? provider.getService() } }
        try waitWithTimeLimit(firstMaking)
        weak let second = try withTimeLimit { () throws -> SessionService in
            _ = try updater.getService()  // signing out and in overtakes the first making of user 1's service
            let second = try provider.getService()  // made anew for user 1, the current session again
            mediator.updateSession(UserSession(userId: 2))  // keeps it for user 1
            return second
        }
        finishFirst.signal()  // the first making ends: user 1 already has a service kept
        try waitWithTimeLimit(done, "the first making did not end")
        let again = try withTimeLimit { () throws -> SessionService in
            mediator.updateSession(UserSession(userId: 1))
            return try provider.getService()
        }
        #expect(second != nil, "the service kept for user 1 is still kept")
        #expect(again === second, "user 1's kept service comes back, not the one of the overtaken making")
        #expect(first.withLock { $0 } !== again)
        #expect(log.all == ["make 1", "make 1", "deactivate 1", "deactivate 1", "activate 1"])
    }

    /// The updates a factory makes while it makes user 1's service, each to a user with a policy.
    struct OvertakingUpdates: Sendable, CustomTestStringConvertible {
        let updates: [(userId: Int, policy: ServiceSessionRemakePolicy)]
        var testDescription: String {
            updates.map { "\($0.userId) \($0.policy)" }.joined(separator: ", ")
        }
    }

    @Test(
        "clearAll, or a .force to its session, drops the service of an overtaken making after deactivating it",
        arguments: [
            // Signing out with clearAll.
            OvertakingUpdates(updates: [(2, .clearAll)]),
            // Signing out and in again, with user 1's services made anew; then, perhaps, on to
            // another user.
            OvertakingUpdates(updates: [(2, .none), (1, .force)]),
            OvertakingUpdates(updates: [(2, .none), (1, .force), (3, .none)]),
        ]
    )
    func overtakenMakingIsDropped(_ overtaking: OvertakingUpdates) throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let log = SessionFactoryLog()
        let factory = selfOvertakingFactory(mediator, log: log, updates: overtaking.updates)
        let provider = factory.serviceProvider(mediator: mediator)
        let released = try withTimeLimit { () throws -> Bool in
            weak let made = try provider.getService()
            return made == nil
        }
        #expect(released, "neither current nor kept although deactivateService said so")
        try withTimeLimit {
            mediator.updateSession(UserSession(userId: 1))
            _ = try provider.getService()
        }
        #expect(log.all == ["make 1", "deactivate 1", "make 1"])
    }

    @Test(
        "clearAll, or a .force to its session, applied while an overtaken service is deactivated, drops it",
        .offThePool,
        arguments: [
            OvertakingUpdates(updates: [(3, .clearAll)]),
            OvertakingUpdates(updates: [(1, .force), (3, .none)]),
        ]
    )
    func updateDuringSettleCounts(_ later: OvertakingUpdates) throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let log = SessionFactoryLog()
        let provider = try providerOvertakenWhileDeactivating(mediator, log: log) {
            for (userId, policy) in later.updates {
                mediator.updateSession(UserSession(userId: userId), remakePolicy: policy)
            }
        }
        try withTimeLimit {
            mediator.updateSession(UserSession(userId: 1))
            _ = try provider.getService()
        }
        #expect(log.all == ["make 1", "deactivate 1", "make 1"], "made anew, not kept from before the update")
    }

    @Test("An overtaken service whose session is current again when it is settled is dropped, not kept", .offThePool)
    func overtakenServiceOfTheCurrentSessionIsNotKept() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let log = SessionFactoryLog()
        // While the overtaken service is deactivated, the test switches back to user 1.
        let provider = try providerOvertakenWhileDeactivating(mediator, log: log) {
            mediator.updateSession(UserSession(userId: 1))
        }
        #expect(provider.sessionCellForTests.keptCount == 0, "kept for the session that is current")
        try withTimeLimit {
            mediator.updateSession(UserSession(userId: 2))
            mediator.updateSession(UserSession(userId: 1))
            _ = try provider.getService()
        }
        #expect(log.all == ["make 1", "deactivate 1", "make 1"], "made anew, not the overtaken one activated")
    }

    /// In a process of its own: a shutdown puts every later get of its process on the slow path
    /// (see `ShutdownTests`).
    @Test("An overtaken making that ends past a shutdown's time limit runs no deactivateService on its service")
    func overtakenMakingAfterShutdownRunsNoHook() async {
        await #expect(processExitsWith: .success) {
            try await SessionRaceTests.overtakenMakingAfterShutdownInItsOwnProcess()
        }
    }

    static func overtakenMakingAfterShutdownInItsOwnProcess() async throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let log = SessionFactoryLog()
        let (overtaken, proceed, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        var factory = HookedFactory(mode: .lazy, log: log, keep: true)
        let makes = Counter()
        factory.onMake = { _ in
            if makes.increment() == 1 {
                mediator.updateSession(UserSession(userId: 2))  // overtakes this making
                overtaken.signal()
                proceed.wait()
            }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        Thread {
            _ = try? provider.getService()
            done.signal()
        }.start()
        try waitWithTimeLimit(overtaken)
        // The shutdown waits for the overtaken making (it would close its service), up to its
        // time limit, which this one outlasts.
        let report = try await withAsyncTimeLimit { await ServiceShutdown.close(provider, timeout: .milliseconds(200)) }
        proceed.signal()
        try waitWithTimeLimit(done)
        let service = String(reflecting: SessionService.self)
        #expect(
            report.description == """
                closed 0 services, 0 failed; 1 other failure
                - self (\(service)): the making of \(service) did not finish within 0.2 seconds
                """
        )
        #expect(log.all == ["make 1"], "a hook ran on a service made for a provider that was shut down")
        #expect(provider.sessionCellForTests.keptCount == 0)
    }

    @Test("A clearAll from the deactivateService of an overtaken service drops that service")
    func clearAllFromSettlingHookCounts() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let log = SessionFactoryLog()
        var factory = selfOvertakingFactory(mediator, log: log, updates: [(2, .none)])
        let deactivations = Counter()
        factory.onDeactivate = { _, _ in
            if deactivations.increment() == 1 {
                mediator.updateSession(UserSession(userId: 3), remakePolicy: .clearAll)
            }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        try withTimeLimit {
            _ = try provider.getService()
            mediator.updateSession(UserSession(userId: 1))
            _ = try provider.getService()
        }
        #expect(log.all == ["make 1", "deactivate 1", "make 1"], "made anew, not kept from before the sign-out")
    }

    @Test("A dependency cycle split across two threads fails as a cycle instead of deadlocking", .offThePool)
    func crossThreadCycleFails() throws {
        let firstEntered = DispatchSemaphore(value: 0)
        let secondEntered = DispatchSemaphore(value: 0)
        let second = Later()
        let firstMakes = Counter()
        let secondMakes = Counter()
        // The first making of each waits until both are under way.
        let first = ServiceProvider<Int>(mode: .lazy) {
            if firstMakes.increment() == 1 {
                firstEntered.signal()
                secondEntered.wait()
                Thread.sleep(forTimeInterval: 0.05)
            }
            return try second.provider.getService() + 1
        }
        second.provider = ServiceProvider<Int>(mode: .lazy) {
            if secondMakes.increment() == 1 {
                secondEntered.signal()
                firstEntered.wait()
                Thread.sleep(forTimeInterval: 0.05)
            }
            return try first.getService() + 1
        }
        let results = Locked<[Result<Int, ServiceObtainError>]>([])
        let done = DispatchSemaphore(value: 0)
        start(done) { let result = first.getServiceAsResult(); results.withLock { $0.append(result) } }
        start(done) { let result = second.provider.getServiceAsResult(); results.withLock { $0.append(result) } }
        try waitWithTimeLimit(done, "the two makings wait for each other")
        try waitWithTimeLimit(done, "the two makings wait for each other")
        let errors = results.withLock { $0 }.compactMap { result -> ServiceObtainError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(!errors.isEmpty, "one of the gets reports the cycle")
        #expect(errors.allSatisfy { $0.isDependencyCycle })
        // The thread that closes the loop sees [first, second] or, meeting it on its own thread
        // after the other making failed, [second, first, second]: all Ints here.
        for error in errors {
            #expect(
                error.fatalMessage.hasPrefix(
                    "Failed to obtain service Swift.Int: dependency cycle: the making of Swift.Int led back to a get "
                        + "of Swift.Int; break the cycle: get one of the services on its path where it is used, "
                        + "not in a factory or a session hook. Path: Swift.Int -> Swift.Int"
                ),
                "\(error.fatalMessage)"
            )
        }
    }

    @Test("A session object's deinit may read its mediator")
    func sessionDeinitReadsMediator() async {
        // A deinit that ran under the mediator's lock would wait for it for ever: the child
        // process fails within the time limit instead.
        await #expect(processExitsWith: .success) {
            final class ClassSession: ServiceSession, @unchecked Sendable {  // immutable but for `read`
                let id: Int
                var read: (() -> Void)?
                init(_ id: Int) { self.id = id }
                var key: AnyHashable { id }
                deinit { read?() }
            }
            struct ClassSessionFactory: ServiceSessionFactory {
                let mode: ServiceSessionFactoryMode = .lazy
                func makeService(session: ClassSession) throws -> Int { session.id }
            }
            try withTimeLimit {
                let first = ClassSession(0)
                let mediator = ServiceSessionMediator(session: first)
                first.read = { _ = mediator.session }
                let provider = ServiceProvider(
                    factory: ClassSessionFactory(),
                    mediator: mediator
                )
                _ = provider.getServiceAsOptional()
                mediator.updateSession(ClassSession(1))
                mediator.updateSession(ClassSession(1))
                withExtendedLifetime(provider) {}
            }
        }
    }
}

/// A provider a factory refers to before it is made.
final class Later: @unchecked Sendable {  // `provider` is set once, before any get
    var provider: ServiceProvider<Int>!
}
