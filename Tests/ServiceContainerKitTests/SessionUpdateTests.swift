import Foundation
import Synchronization
import Testing

@testable import ServiceContainerKit
import TestSupport

/// A session service that runs `onDeinit` when it is released.
final class SessionService: Sendable {
    let userId: Int
    let onDeinit: @Sendable () -> Void
    init(userId: Int, onDeinit: @escaping @Sendable () -> Void = {}) {
        self.userId = userId
        self.onDeinit = onDeinit
    }
    deinit { onDeinit() }
}

/// A session factory whose making and hooks run the closures a test gives it.
struct HookedFactory: ServiceSessionFactory {
    let mode: ServiceSessionFactoryMode
    let log: SessionFactoryLog
    var keep = false
    var onMake: @Sendable (UserSession) throws -> Void = { _ in }
    var onDeactivate: @Sendable (SessionService, UserSession) -> Void = { _, _ in }
    var onActivate: @Sendable (SessionService, UserSession) -> Void = { _, _ in }
    var onDeinit: @Sendable (Int) -> Void = { _ in }

    func makeService(session: UserSession) throws -> SessionService {
        log.made.increment()
        log.add("make \(session.userId)")
        try onMake(session)
        let onDeinit = self.onDeinit
        let userId = session.userId
        return SessionService(userId: userId) { onDeinit(userId) }
    }

    func deactivateService(_ service: SessionService, session: UserSession) -> Bool {
        log.add("deactivate \(session.userId)")
        onDeactivate(service, session)
        return keep
    }

    func activateService(_ service: SessionService, session: UserSession) {
        log.add("activate \(session.userId)")
        onActivate(service, session)
    }
}

/// Whether a flag was set, from any thread.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// A provider that the hooks of its own factory reach, held weakly.
final class WeakProvider: @unchecked Sendable {  // `value` is set once, before any hook runs
    weak var value: ServiceProvider<SessionService>?
}

extension ServiceProvider {
    /// The session cell of a provider bound to a mediator, for tests.
    var sessionCellForTests: SessionServiceCell<ServiceType> {
        guard case .session(let cell) = source else { preconditionFailure("not a session provider") }
        return cell
    }
}

@Suite("Session updates")
struct SessionUpdateTests {
    // MARK: - An update from inside an update

    @Test("A deactivateService hook may switch the session: the update is applied right after")
    func updateFromDeactivate() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        var factory = HookedFactory(mode: .lazy, log: log)
        factory.onDeactivate = { _, session in
            // Signing out of user 1 falls back to the guest session 0.
            if session.userId == 1 { mediator.updateSession(UserSession(userId: 0)) }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        #expect(try provider.getService().userId == 1)
        try withTimeLimit { mediator.updateSession(UserSession(userId: 2)) }
        #expect(mediator.session.userId == 0)
        #expect(try provider.getService().userId == 0)
        #expect(log.all == ["make 1", "deactivate 1", "make 0"])
    }

    @Test("An activateService hook may switch the session")
    func updateFromActivate() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        var factory = HookedFactory(mode: .lazy, log: log, keep: true)
        let activations = Counter()
        factory.onActivate = { _, session in
            // The first time user 1 comes back, switch on to user 3.
            if session.userId == 1, activations.increment() == 1 { mediator.updateSession(UserSession(userId: 3)) }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        let first = try provider.getService()
        mediator.updateSession(UserSession(userId: 2))
        _ = try provider.getService()
        try withTimeLimit { mediator.updateSession(UserSession(userId: 1)) }
        #expect(mediator.session.userId == 3)
        #expect(try provider.getService().userId == 3)
        #expect(log.all == ["make 1", "deactivate 1", "make 2", "deactivate 2", "activate 1", "deactivate 1", "make 3"])
        mediator.updateSession(UserSession(userId: 4))
        mediator.updateSession(UserSession(userId: 1))
        #expect(try provider.getService() === first, "user 1's service was kept again after its activation")
    }

    @Test(
        "A factory may update the session while it makes its service, in every mode",
        arguments: [ServiceSessionFactoryMode.atOne, .lazy, .weak]
    )
    func updateFromFactory(mode: ServiceSessionFactoryMode) throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        var factory = HookedFactory(mode: mode, log: log)
        factory.onMake = { session in
            if session.userId == 1 { mediator.updateSession(UserSession(userId: 2)) }
        }
        let made = factory
        let provider = try withTimeLimit { made.serviceProvider(mediator: mediator) }
        let first = try withTimeLimit { try provider.getService() }
        #expect(mediator.session.userId == 2)
        if mode == .atOne {
            // Made at once, in init: the update overtook that making. User 1's service, once
            // made, is deactivated like the service of a session that ends; user 2's is not made
            // inside the making of user 1's (a cycle), but by the next get.
            #expect(first.userId == 2)
            #expect(log.all == ["make 1", "deactivate 1", "make 2"])
        } else {
            // The get that made user 1's service gets it; being of a session that ended, it is
            // deactivated (and not kept: the factory says so), and user 2's is made on the next get.
            #expect(first.userId == 1)
            #expect(try provider.getService().userId == 2)
            #expect(log.all == ["make 1", "deactivate 1", "make 2"])
        }
    }

    @Test("An update made inside another provider's making leaves an atOne service that needs it to its next get")
    func updateFromOtherFactoryLeavesAtOne() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 0))
        // A provider outside the sessions whose factory restores the signed-in user, as an app
        // does at start-up.
        let auth = ServiceProvider<Int>(mode: .lazy) {
            mediator.updateSession(UserSession(userId: 1))
            return 7
        }
        // A guest's feed needs no auth; a user's does.
        var factory = HookedFactory(mode: .atOne, log: log)
        factory.onMake = { session in
            if session.userId != 0 { _ = try auth.getService() }
        }
        let feed = factory.serviceProvider(mediator: mediator)
        #expect(try withTimeLimit { try auth.getService() } == 7)
        // Made inside auth's making, user 1's feed would meet auth as a cycle, and keep that
        // error for the whole session.
        #expect(log.all == ["make 0", "deactivate 0"])
        #expect(throws: Never.self) { try feed.validateAtOneError() }
        #expect(try feed.getService().userId == 1)
        #expect(log.all == ["make 0", "deactivate 0", "make 1"])
    }

    @Test(
        "An atOne factory may update the session while a switch makes its service",
        arguments: [ServiceSessionRemakePolicy.none, .force, .clearAll]
    )
    func updateFromAtOneDuringSwitch(policy: ServiceSessionRemakePolicy) throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        var factory = HookedFactory(mode: .atOne, log: log)
        factory.onMake = { session in
            if session.userId == 2 { mediator.updateSession(UserSession(userId: 3), remakePolicy: policy) }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        try withTimeLimit { mediator.updateSession(UserSession(userId: 2), remakePolicy: policy) }
        #expect(mediator.session.userId == 3)
        #expect(try provider.getService().userId == 3)
        #expect(log.all == ["make 1", "deactivate 1", "make 2", "deactivate 2", "make 3"])
    }

    @Test(
        "A service's deinit that runs during a switch may update the session",
        arguments: [ServiceSessionRemakePolicy.none, .force, .clearAll]
    )
    func updateFromDeinit(policy: ServiceSessionRemakePolicy) throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        var factory = HookedFactory(mode: .lazy, log: log)
        factory.onDeinit = { userId in
            if userId == 1 { mediator.updateSession(UserSession(userId: 0)) }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        _ = try provider.getService()
        try withTimeLimit { mediator.updateSession(UserSession(userId: 2), remakePolicy: policy) }
        #expect(mediator.session.userId == 0)
        #expect(try provider.getService().userId == 0)
        #expect(log.all == ["make 1", "deactivate 1", "make 0"])
    }

    @Test("Updates from another thread while one is applied are applied in the order they were made", .offThePool)
    func updatesFromOtherThreads() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 0))
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        defer { proceed.signal() }  // so that a test stopped by a time limit leaves no making blocked
        var factory = HookedFactory(mode: .atOne, log: log)
        factory.onMake = { session in
            guard session.userId == 1 else { return }
            entered.signal()
            proceed.wait()
        }
        let provider = factory.serviceProvider(mediator: mediator)
        let applying = Thread { mediator.updateSession(UserSession(userId: 1)) }
        applying.start()
        try waitWithTimeLimit(entered, "user 1's atOne making started")
        // User 1's update is being applied (its atOne service is being made): these are queued.
        try withTimeLimit {
            mediator.updateSession(UserSession(userId: 2))
            mediator.updateSession(UserSession(userId: 3), remakePolicy: .clearAll)
        }
        #expect(mediator.session.userId == 3)
        proceed.signal()
        try withTimeLimit {
            while (try? provider.getService().userId) != 3 { Thread.sleep(forTimeInterval: 0.001) }
        }
        #expect(log.all == ["make 0", "deactivate 0", "make 1", "deactivate 1", "make 2", "deactivate 2", "make 3"])
    }

    @Test("A switch waits for a making on another thread, then deactivates what it made", .offThePool)
    func switchWaitsForMakingElsewhere() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        defer { proceed.signal() }  // so that a test stopped by a time limit leaves no making blocked
        var factory = HookedFactory(mode: .lazy, log: log, keep: true)
        factory.onMake = { session in
            guard session.userId == 1 else { return }
            entered.signal()
            proceed.wait()
        }
        let provider = factory.serviceProvider(mediator: mediator)
        let made = Locked<SessionService?>(nil)
        let getting = Thread { made.withLock { $0 = try? provider.getService() } }
        getting.start()
        try waitWithTimeLimit(entered, "user 1's making started")
        let switched = Flag()
        let switching = Thread {
            mediator.updateSession(UserSession(userId: 2))
            switched.set()
        }
        switching.start()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(!switched.isSet, "the switch waits for user 1's service")
        proceed.signal()
        try withTimeLimit {
            while !switched.isSet { Thread.sleep(forTimeInterval: 0.001) }
        }
        let first = try #require(made.withLock { $0 })
        #expect(first.userId == 1)
        #expect(log.all == ["make 1", "deactivate 1"])
        let (second, again) = try withTimeLimit {
            let second = try provider.getService()
            mediator.updateSession(UserSession(userId: 1))
            return (second, try provider.getService())
        }
        #expect(second.userId == 2)
        #expect(again === first, "kept by the switch like any current service")
    }

    // MARK: - No policy lost

    /// An update with `policy` to `updateTo` while `signedIn` is signed in, which the update to
    /// `nestedTo` made by the deinit of a service it releases overtakes.
    struct OvertakenUpdate: Sendable, CustomTestStringConvertible {
        let policy: ServiceSessionRemakePolicy
        let signedIn: Int
        let updateTo: Int
        let nestedTo: Int
        var testDescription: String { "\(policy) to \(updateTo), overtaken by an update to \(nestedTo)" }
    }

    @Test(
        "clearAll and .force reach every provider even when a deinit's update overtakes them",
        arguments: [
            // Signing out, and the release of the old user's service signs user 1 in again.
            OvertakenUpdate(policy: .clearAll, signedIn: 3, updateTo: 0, nestedTo: 1),
            // Signing user 1 in anew, and the release of the old user's service signs out.
            OvertakenUpdate(policy: .force, signedIn: 2, updateTo: 1, nestedTo: 0),
        ]
    )
    func policyOvertakenByDeinitUpdate(_ overtaken: OvertakenUpdate) throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: overtaken.signedIn))
        // The first provider's service of the signed-in user updates the session when released.
        var first = HookedFactory(mode: .lazy, log: SessionFactoryLog())
        first.onDeinit = { userId in
            if userId == overtaken.signedIn { mediator.updateSession(UserSession(userId: overtaken.nestedTo)) }
        }
        let firstProvider = first.serviceProvider(mediator: mediator)
        // The second provider keeps the services of signed-out users.
        let second = HookedFactory(mode: .lazy, log: SessionFactoryLog(), keep: true)
        mediator.updateSession(UserSession(userId: 1))
        let secondProvider = second.serviceProvider(mediator: mediator)
        weak let keptUserService = try secondProvider.getService()
        #expect(keptUserService?.userId == 1)
        mediator.updateSession(UserSession(userId: overtaken.signedIn))
        _ = try firstProvider.getService()
        _ = try secondProvider.getService()
        #expect(keptUserService != nil, "user 1's service is kept while another user is signed in")

        // The first provider releases the signed-in user's service, whose deinit updates the
        // session before the second provider has seen the update.
        try withTimeLimit {
            mediator.updateSession(UserSession(userId: overtaken.updateTo), remakePolicy: overtaken.policy)
        }

        #expect(mediator.session.userId == overtaken.nestedTo)
        #expect(keptUserService == nil, "the update dropped the service kept for user 1")
        let again = try withTimeLimit {
            mediator.updateSession(UserSession(userId: 1))
            return try secondProvider.getService()
        }
        #expect(again.userId == 1)
        let user = overtaken.signedIn
        #expect(second.log.all == ["make 1", "deactivate 1", "make \(user)", "deactivate \(user)", "make 1"], "made anew, not activated")
    }

    @Test(
        "clearAll or .force and a concurrent update: the service kept for user 1 never comes back",
        .offThePool,
        arguments: zip([ServiceSessionRemakePolicy.clearAll, .force], [0, 1])
    )
    func policyWithConcurrentUpdate(policy: ServiceSessionRemakePolicy, updateTo: Int) throws {
        for round in 0..<200 {
            let log = SessionFactoryLog()
            let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
            let provider = HookedFactory(mode: .lazy, log: log, keep: true).serviceProvider(mediator: mediator)
            let original = try provider.getService()
            mediator.updateSession(UserSession(userId: 2))
            _ = try provider.getService()
            // Bounded by raceOnThreads itself.
            _ = try raceOnThreads(2, seconds: 10) { index in
                if index == 0 {
                    mediator.updateSession(UserSession(userId: updateTo), remakePolicy: policy)
                } else {
                    mediator.updateSession(UserSession(userId: 3))
                }
            }
            let signedInAgain = try withTimeLimit {
                mediator.updateSession(UserSession(userId: 1))
                return try provider.getService()
            }
            #expect(signedInAgain !== original, "round \(round): the service kept for user 1 came back")
            #expect(signedInAgain.userId == 1)
        }
    }

    @Test(".force queued behind another thread's update, with a later update queued after it, reaches every provider", .offThePool)
    func forceQueuedBehindAnotherThreadsUpdate() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        // The first provider's atOne making for user 5 holds up the thread that applies updates.
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        defer { proceed.signal() }  // so that a test stopped by a time limit leaves no making blocked
        var blocking = HookedFactory(mode: .atOne, log: SessionFactoryLog())
        blocking.onMake = { session in
            guard session.userId == 5 else { return }
            entered.signal()
            proceed.wait()
        }
        let blockingProvider = blocking.serviceProvider(mediator: mediator)
        // The second provider keeps the services of signed-out users.
        let log = SessionFactoryLog()
        let provider = HookedFactory(mode: .lazy, log: log, keep: true).serviceProvider(mediator: mediator)
        weak let keptUserService = try provider.getService()
        mediator.updateSession(UserSession(userId: 2))
        _ = try provider.getService()
        #expect(keptUserService != nil, "user 1's service is kept while user 2 is signed in")
        let applied = DispatchSemaphore(value: 0)
        Thread {
            mediator.updateSession(UserSession(userId: 5))
            applied.signal()
        }.start()
        try waitWithTimeLimit(entered, "the other thread applies its update")

        // Queued behind the other thread's update: the .force, then an update that overtakes it.
        try withTimeLimit {
            mediator.updateSession(UserSession(userId: 1), remakePolicy: .force)
            mediator.updateSession(UserSession(userId: 3))
        }
        #expect(mediator.session.userId == 3)
        proceed.signal()
        try waitWithTimeLimit(applied, "the other thread applies the queued updates")

        #expect(keptUserService == nil, ".force dropped the service kept for user 1")
        let again = try withTimeLimit {
            mediator.updateSession(UserSession(userId: 1))
            return try provider.getService()
        }
        #expect(again.userId == 1)
        #expect(log.all == ["make 1", "deactivate 1", "make 2", "deactivate 2", "make 1"], "made anew, not activated")
        #expect(blocking.log.all == [
            "make 1", "deactivate 1", "make 2", "deactivate 2", "make 5", "deactivate 5", "make 1", "deactivate 1",
            "make 3", "deactivate 3", "make 1",
        ])
        withExtendedLifetime(blockingProvider) {}
    }

    // MARK: - The 3.0 semantics

    @Test("An atOne making stopped by the cancellation of the updater's task is not kept: the next get makes it")
    func atOneMakingOfCancelledUpdate() async throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        var factory = HookedFactory(mode: .atOne, log: log)
        factory.onMake = { _ in try Task.checkCancellation() }
        let provider = factory.serviceProvider(mediator: mediator)
        // The update makes the new session's service in the task that updates, cancelled here:
        // its cancellation was kept as the provider's error, for every get on every thread.
        await Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            mediator.updateSession(UserSession(userId: 2))
        }.value
        #expect(log.all == ["make 1", "deactivate 1", "make 2"])
        #expect(throws: Never.self) { try provider.validateAtOneError() }
        #expect(try provider.getService().userId == 2)
        #expect(log.all == ["make 1", "deactivate 1", "make 2", "make 2"])
    }

    @Test("clearAll calls deactivateService on the current service before dropping it")
    func clearAllDeactivates() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let deactivated = Locked<[Int]>([])
        var factory = HookedFactory(mode: .lazy, log: log, keep: true)
        factory.onDeactivate = { service, _ in deactivated.withLock { $0.append(service.userId) } }
        let provider = factory.serviceProvider(mediator: mediator)
        weak let first = try provider.getService()
        mediator.updateSession(UserSession(userId: 2))
        weak let second = try provider.getService()
        mediator.updateSession(UserSession(userId: 3), remakePolicy: .clearAll)
        #expect(deactivated.withLock { $0 } == [1, 2])
        #expect(first == nil && second == nil, "kept or not, clearAll drops them")
        #expect(log.all == ["make 1", "deactivate 1", "make 2", "deactivate 2"])
    }

    @Test("clearServices() calls deactivateService on each current service")
    func clearServicesDeactivates() throws {
        struct VoidFactory: ServiceSessionFactory {
            let mode: ServiceSessionFactoryMode
            let log: SessionFactoryLog
            func makeService(session: ServiceVoidSession) throws -> Service {
                Service(number: log.made.increment())
            }
            func deactivateService(_ service: Service, session: ServiceVoidSession) -> Bool {
                log.add("deactivate \(service.number)")
                return true
            }
        }
        let mediator = ServiceVoidSessionMediator()
        let log = SessionFactoryLog()
        let lazy = VoidFactory(mode: .lazy, log: log).serviceProvider(mediator: mediator)
        let atOne = VoidFactory(mode: .atOne, log: log).serviceProvider(mediator: mediator)
        let lazyService = try lazy.getService()
        let atOneService = try atOne.getService()
        mediator.clearServices()
        #expect(log.all == ["deactivate \(lazyService.number)", "deactivate \(atOneService.number)"])
        #expect(try lazy.getService() !== lazyService)
        #expect(try atOne.getService() !== atOneService)
    }

    @Test(
        "A failed atOne session service is made again on the next update, same key or not",
        arguments: [1, 2]
    )
    func failedAtOneRemade(nextUser: Int) throws {
        let log = SessionFactoryLog()
        let failures = Counter()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        var factory = HookedFactory(mode: .atOne, log: log)
        factory.onMake = { _ in
            if failures.increment() == 1 { throw TestError(code: 7) }
        }
        let provider = factory.serviceProvider(mediator: mediator)
        let error = #expect(throws: ServiceObtainError.self) { try provider.validateAtOneError() }
        #expect(error?.error as? TestError == TestError(code: 7))
        mediator.updateSession(UserSession(userId: nextUser))
        try provider.validateAtOneError()
        #expect(try provider.getService().userId == nextUser)
        #expect(log.made.value == 2)
    }

    // MARK: - Scale and locks

    @Test("Subscribing and unsubscribing keep the list compact and in order")
    func subscriptionsStayCompact() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let order = Locked<[Int]>([])
        var providers: [ServiceProvider<SessionService>?] = (0..<10_000).map { index in
            var factory = HookedFactory(mode: .lazy, log: SessionFactoryLog())
            factory.onDeactivate = { _, _ in order.withLock { $0.append(index) } }
            return factory.serviceProvider(mediator: mediator)
        }
        #expect(mediator.observersCount == 10_000)
        var generator = SystemRandomNumberGenerator()
        for index in Array(providers.indices).shuffled(using: &generator) where index % 100 != 0 {
            providers[index] = nil
        }
        #expect(mediator.observersCount == 100)
        #expect(mediator.subscriptionSlots <= 200, "empty slots are reclaimed")
        for provider in providers { _ = try provider?.getService() }
        mediator.updateSession(UserSession(userId: 2))
        #expect(order.withLock { $0 } == Array(stride(from: 0, to: 10_000, by: 100)), "updated in subscription order")
        providers.removeAll()
        #expect(mediator.observersCount == 0)
    }

    @Test(
        "No lock of the mediator or provider is held while factories, hooks and deinits run",
        .offThePool,
        arguments: [ServiceSessionFactoryMode.atOne, .lazy, .weak]
    )
    func noLockHeldDuringUserCode(mode: ServiceSessionFactoryMode) throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let weakProvider = WeakProvider()
        let probed = Locked<[String]>([])
        /// From another thread, reads what a held lock would block.
        let probe: @Sendable (String) -> Void = { place in
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = mediator.session
                _ = mediator.observersCount
                _ = try? weakProvider.value?.validateAtOneError()
                done.signal()
            }.start()
            // Noted rather than expected here: this runs on the thread of `withTimeLimit`, where
            // an expectation would not be the test's; the list is compared on the test's thread.
            let free = done.wait(timeout: .now() + 10) == .success
            probed.withLock { $0.append(free ? place : "\(place): a lock was held") }
        }
        var factory = HookedFactory(mode: mode, log: SessionFactoryLog(), keep: true)
        factory.onMake = { session in
            probe("make \(session.userId)")
            // Signing out to user 4 while user 3's service is made: a lazy or weak making is
            // overtaken, and its service deactivated when it ends; an atOne switch queues it.
            if session.userId == 3 { mediator.updateSession(UserSession(userId: 4)) }
        }
        factory.onDeactivate = { _, session in probe("deactivate \(session.userId)") }
        factory.onActivate = { _, session in probe("activate \(session.userId)") }
        factory.onDeinit = { userId in probe("deinit \(userId)") }
        let made = factory
        try withTimeLimit(seconds: 60) {
            let provider = made.serviceProvider(mediator: mediator)  // atOne: make 1
            weakProvider.value = provider
            // A weak provider keeps a service (the current one or one kept for its session) only
            // while someone else holds it.
            var held: [SessionService] = []
            func get() throws {
                let service = try provider.getService()
                if mode == .weak { held.append(service) }
            }
            try get()  // lazy, weak: make 1
            mediator.updateSession(UserSession(userId: 2))  // deactivate 1; atOne: make 2
            try get()  // lazy, weak: make 2
            mediator.updateSession(UserSession(userId: 1))  // deactivate 2, activate 1
            try get()
            mediator.updateSession(UserSession(userId: 3))  // deactivate 1; atOne: make 3, then 4 (below)
            try get()  // lazy, weak: make 3, overtaken by the update to 4, then deactivate 3
            // atOne: deactivate 4, make 1; drops the services kept for 1, 2, 3 (and 4), and
            // lazy and atOne services die here.
            mediator.updateSession(UserSession(userId: 1), remakePolicy: .clearAll)
            held.removeAll()  // weak services die here
            try get()  // lazy, weak: make 1
            // Released with the provider (held, for weak): the last service of user 1 dies.
        }
        var expected = [
            "make 1", "deactivate 1", "make 2", "deactivate 2", "activate 1", "deactivate 1", "make 3", "deactivate 3",
            "make 1", "deinit 1", "deinit 2", "deinit 3", "deinit 1",
        ]
        if mode == .atOne {
            expected += ["make 4", "deactivate 4", "deinit 4"]
        }
        #expect(probed.withLock { $0.sorted() } == expected.sorted())
    }

    @Test("A weak service kept for a past session is forgotten once it dies")
    func deadKeptServicesForgotten() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 0))
        let provider = HookedFactory(mode: .weak, log: SessionFactoryLog(), keep: true)
            .serviceProvider(mediator: mediator)
        let cell = provider.sessionCellForTests
        for userId in 1...50_000 {
            // Alive when its session ends, so `deactivateService` keeps it; it dies right after.
            let held = try provider.getService()
            mediator.updateSession(UserSession(userId: userId))
            withExtendedLifetime(held) {}
        }
        #expect(cell.keptCount <= 32, "kept \(cell.keptCount) services of past sessions")
    }

    @Test("A kept weak service whose last user lets go of it while an update looks at it dies after the update")
    func keptServiceDiesAfterTheUpdate() async {
        // In a child process: a deinit under the provider's lock, which it takes again, stops it
        // ("Recursive call to lock").
        await #expect(processExitsWith: .success) {
            try! withTimeLimit { Self.dropKeptServicesWhileAnUpdateLooks() }
        }
    }

    /// Keeps 16 weak services alive for past sessions, then drops them while the update that
    /// looked at whether they are alive (it does so once `kept` has 16) runs a hook. The
    /// references it took to look are their last: they die once the update has left the
    /// provider's lock, and a deinit may take it (`keptCount`). Were those references dropped
    /// under the lock, the services would die there whenever their last user let go while the
    /// update looked at them.
    private static func dropKeptServicesWhileAnUpdateLooks() {
        let cell = Mutex<SessionServiceCell<SessionService>?>(nil)
        let handed = Mutex<[SessionService]?>(nil)
        let died = Counter()
        let diedInHook = Counter()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 0))
        var factory = HookedFactory(mode: .weak, log: SessionFactoryLog(), keep: true)
        factory.onDeinit = { _ in
            _ = cell.withLock { $0 }?.keptCount
            died.increment()
        }
        factory.onDeactivate = { _, session in
            guard session.userId == 16 else { return }
            let before = died.value
            _ = handed.withLock { $0.take() }  // the services' last references but the update's
            diedInHook.add(died.value - before)
        }
        let provider = factory.serviceProvider(mediator: mediator)
        cell.withLock { $0 = provider.sessionCellForTests }
        var services: [SessionService] = []
        for userId in 1...16 {
            services.append(try! provider.getService())
            mediator.updateSession(UserSession(userId: userId))
        }
        // User 16's service: the next update deactivates it in a hook.
        let current = try! provider.getService()
        handed.withLock { $0 = services }
        services = []
        mediator.updateSession(UserSession(userId: 17))
        precondition(diedInHook.value == 0, "\(diedInHook.value) services died while the update looked at them")
        precondition(died.value == 16, "\(died.value) of 16 services died")
        withExtendedLifetime(current) {}
    }

    @Test("A session's key may read the mediator, and so may its deinit: both run outside every lock")
    func keyReadsTheMediator() async {
        // In a child process: a key read or released under the mediator's lock stops it
        // ("Recursive call to lock").
        await #expect(processExitsWith: .success) {
            // A deadlock ends the child, failing the test, instead of stalling it.
            try! withTimeLimit { Self.readKeysThroughTheMediator() }
        }
    }

    private static func readKeysThroughTheMediator() {
        let mediator = ServiceSessionMediator(session: MediatorReadingSession(userId: 1))
        MediatorReadingSession.mediator.withLock { $0 = mediator }
        let providers = [1, 2].map { _ in MediatorReadingFactory().serviceProvider(mediator: mediator) }
        precondition(providers.map { $0.getServiceAsOptional() } == ["user 1", "user 1"])
        mediator.updateSession(MediatorReadingSession(userId: 2))
        precondition(providers.map { $0.getServiceAsOptional() } == ["user 2", "user 2"])
        // Read once when the mediator was made and once an update, whatever the providers.
        precondition(MediatorReadingSession.keyReads.withLock { $0 } == 2)
        // A mediator no provider follows holds the only reference to its session's key:
        // the update releases it, and its deinit reads the mediator.
        let alone = ServiceSessionMediator(session: MediatorReadingSession(userId: 10))
        MediatorReadingSession.mediator.withLock { $0 = alone }
        let released = MediatorReadingKey.released.withLock { $0 }
        alone.updateSession(MediatorReadingSession(userId: 11))
        precondition(MediatorReadingKey.released.withLock { $0 } == released + 1)
    }
}

/// A session whose key reads its mediator's session, as a key that logs it would; so does the
/// key's deinit.
struct MediatorReadingSession: ServiceSession {
    static let mediator = Locked<ServiceSessionMediator<MediatorReadingSession>?>(nil)
    static let keyReads = Locked(0)
    let userId: Int

    var key: AnyHashable {
        _ = Self.mediator.withLock { $0 }?.session
        Self.keyReads.withLock { $0 += 1 }
        return MediatorReadingKey(userId: userId)
    }
}

final class MediatorReadingKey: Hashable, Sendable {
    static let released = Locked(0)
    let userId: Int

    init(userId: Int) {
        self.userId = userId
    }

    deinit {
        _ = MediatorReadingSession.mediator.withLock { $0 }?.session
        Self.released.withLock { $0 += 1 }
    }

    static func == (lhs: MediatorReadingKey, rhs: MediatorReadingKey) -> Bool { lhs.userId == rhs.userId }
    func hash(into hasher: inout Hasher) { hasher.combine(userId) }
}

struct MediatorReadingFactory: ServiceSessionFactory {
    let mode: ServiceSessionFactoryMode = .atOne
    func makeService(session: MediatorReadingSession) throws -> String { "user \(session.userId)" }
}
