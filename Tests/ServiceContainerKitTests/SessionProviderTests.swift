import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

struct UserSession: ServiceSession, Hashable {
    var userId: Int
    var key: AnyHashable { userId }
}

final class UserData: Sendable {
    let userId: Int
    let serial: Int
    init(userId: Int, serial: Int) {
        self.userId = userId
        self.serial = serial
    }
}

/// The sessions of an app whose signed-in services take the subclass of theirs, while a guest's
/// session is another: `wrongSession` while the guest is current.
class AccountSession: ServiceSession, @unchecked Sendable {  // immutable, as its subclasses are
    let key: AnyHashable
    init(key: AnyHashable) { self.key = key }
}
final class SignedInSession: AccountSession, @unchecked Sendable {}
final class GuestSession: AccountSession, @unchecked Sendable {}

/// Records what the provider asked of it.
final class SessionFactoryLog: Sendable {
    let made = Counter()
    private let events = Locked<[String]>([])

    func add(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

struct UserDataFactory: ServiceSessionFactory {
    let mode: ServiceSessionFactoryMode
    let log: SessionFactoryLog
    var keepOnDeactivate = false
    var failForUser: Int?

    func makeService(session: UserSession) throws -> UserData {
        let serial = log.made.increment()
        log.add("make \(session.userId)")
        if session.userId == failForUser { throw TestError(code: session.userId) }
        return UserData(userId: session.userId, serial: serial)
    }

    func deactivateService(_ service: UserData, session: UserSession) -> Bool {
        log.add("deactivate \(session.userId)")
        return keepOnDeactivate
    }

    func activateService(_ service: UserData, session: UserSession) {
        log.add("activate \(session.userId)")
    }
}

@Suite("Session providers")
struct SessionProviderTests {
    @Test("An atOne factory gets the other session providers switched, whatever order they subscribed in")
    func atOneSeesEveryProviderSwitched() throws {
        /// An `atOne` feed whose factory gets the user's data from `data`, wired after.
        struct FeedFactory: ServiceSessionFactory {
            final class Wiring: @unchecked Sendable {
                var data: ServiceProvider<UserData>?  // written once, before the updates
            }
            let wiring = Wiring()
            let mode: ServiceSessionFactoryMode = .atOne
            func makeService(session: UserSession) throws -> (feed: Int, data: Int?) {
                (session.userId, try wiring.data?.getService().userId)
            }
        }
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let dataFirst = UserDataFactory(mode: .lazy, log: log).serviceProvider(mediator: mediator)
        let afterData = FeedFactory()
        afterData.wiring.data = dataFirst
        let feedAfterData = afterData.serviceProvider(mediator: mediator)
        let beforeData = FeedFactory()
        let feedBeforeData = beforeData.serviceProvider(mediator: mediator)
        beforeData.wiring.data = UserDataFactory(mode: .lazy, log: log).serviceProvider(mediator: mediator)

        mediator.updateSession(UserSession(userId: 2))
        let switched = try feedAfterData.getService()
        #expect(switched.feed == 2 && switched.data == 2)
        // Its data provider subscribed after it, and had switched all the same: every provider
        // switches before any atOne service is made.
        let beforeSwitched = try feedBeforeData.getService()
        #expect(beforeSwitched.feed == 2 && beforeSwitched.data == 2)
    }

    @Test("A lazy session service is made on first get and kept within the session")
    func lazyWithinSession() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .lazy, log: log).serviceProvider(mediator: mediator)
        #expect(log.made.value == 0)
        let first = try provider.getService()
        #expect(first.userId == 1)
        #expect(try provider.getService() === first)
        #expect(log.made.value == 1)
        #expect(mediator.session.userId == 1)
    }

    @Test("deactivateService returning false drops the service")
    func deactivateDrops() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .lazy, log: log).serviceProvider(mediator: mediator)
        let first = try provider.getService()
        mediator.updateSession(UserSession(userId: 2))
        let second = try provider.getService()
        #expect(second.userId == 2)
        mediator.updateSession(UserSession(userId: 1))
        let third = try provider.getService()
        #expect(third.userId == 1)
        #expect(third !== first)
        #expect(log.all == ["make 1", "deactivate 1", "make 2", "deactivate 2", "make 1"])
    }

    @Test("deactivateService returning true keeps the service for re-activation")
    func deactivateKeeps() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .lazy, log: log, keepOnDeactivate: true)
            .serviceProvider(mediator: mediator)
        let first = try provider.getService()
        mediator.updateSession(UserSession(userId: 2))
        let second = try provider.getService()
        mediator.updateSession(UserSession(userId: 1))
        #expect(try provider.getService() === first)
        mediator.updateSession(UserSession(userId: 2))
        #expect(try provider.getService() === second)
        #expect(log.made.value == 2)
        #expect(log.all == [
            "make 1", "deactivate 1", "make 2", "deactivate 2", "activate 1", "deactivate 1", "activate 2",
        ])
    }

    @Test("Updating to the same session changes nothing")
    func sameSession() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .lazy, log: log).serviceProvider(mediator: mediator)
        let first = try provider.getService()
        mediator.updateSession(UserSession(userId: 1))
        #expect(try provider.getService() === first)
        #expect(log.all == ["make 1"])
    }

    @Test("force remakes the current session's service, even a kept one")
    func force() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .lazy, log: log, keepOnDeactivate: true)
            .serviceProvider(mediator: mediator)
        let first = try provider.getService()
        mediator.updateSession(UserSession(userId: 1), remakePolicy: .force)
        let remade = try provider.getService()
        #expect(remade !== first)
        mediator.updateSession(UserSession(userId: 2))
        _ = try provider.getService()
        mediator.updateSession(UserSession(userId: 1), remakePolicy: .force)
        let again = try provider.getService()
        #expect(again !== remade)
        #expect(again.userId == 1)
        #expect(log.made.value == 4)
    }

    @Test("clearAll drops every kept service")
    func clearAll() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .lazy, log: log, keepOnDeactivate: true)
            .serviceProvider(mediator: mediator)
        let first = try provider.getService()
        mediator.updateSession(UserSession(userId: 2))
        let second = try provider.getService()
        mediator.updateSession(UserSession(userId: 1), remakePolicy: .clearAll)
        let fresh = try provider.getService()
        #expect(fresh !== first)
        mediator.updateSession(UserSession(userId: 2))
        #expect(try provider.getService() !== second)
        #expect(!log.all.contains("activate 1"))
        #expect(!log.all.contains("activate 2"))
    }

    @Test("An atOne session service is made at once on every switch")
    func atOneOnSwitch() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .atOne, log: log).serviceProvider(mediator: mediator)
        #expect(log.made.value == 1)
        mediator.updateSession(UserSession(userId: 2))
        #expect(log.made.value == 2)
        #expect(try provider.getService().userId == 2)
        #expect(log.made.value == 2)
    }

    @Test("An atOne session error lasts until the next switch")
    func atOneError() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .atOne, log: log, failForUser: 1).serviceProvider(mediator: mediator)
        let error = #expect(throws: ServiceObtainError.self) { try provider.getService() }
        #expect(error?.error as? TestError == TestError(code: 1))
        #expect(throws: ServiceObtainError.self) { try provider.validateAtOneError() }
        #expect(log.made.value == 1)
        mediator.updateSession(UserSession(userId: 2))
        #expect(try provider.getService().userId == 2)
        try provider.validateAtOneError()
    }

    @Test("A lazy session service retries after an error")
    func lazyRetry() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .lazy, log: log, failForUser: 1).serviceProvider(mediator: mediator)
        #expect(provider.getServiceAsOptional() == nil)
        #expect(provider.getServiceAsOptional() == nil)
        #expect(log.made.value == 2)
        mediator.updateSession(UserSession(userId: 3))
        #expect(try provider.getService().userId == 3)
    }

    @Test("A weak session service lives while held")
    func weakMode() throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .weak, log: log).serviceProvider(mediator: mediator)
        var held: UserData? = try provider.getService()
        #expect(try provider.getService() === held)
        #expect(log.made.value == 1)
        held = nil
        _ = try provider.getService()
        #expect(log.made.value == 2)
    }

    @Test("A session of the wrong type fails until the session changes to a right one")
    func wrongSession() throws {
        struct SignedInFactory: ServiceSessionFactory {
            let mode: ServiceSessionFactoryMode = .lazy
            func makeService(session: SignedInSession) throws -> String { "user \(session.key)" }
        }
        let logger = RecordingLogger()
        logger.register()
        defer { logger.unregister() }

        let mediator = ServiceSessionMediator<AccountSession>(session: SignedInSession(key: 1))
        let provider = SignedInFactory().serviceProvider(mediator: mediator)
        #expect(try provider.getService() == "user 1")
        mediator.updateSession(GuestSession(key: "guest"))
        let error = #expect(throws: ServiceObtainError.self) { try provider.getService() }
        guard case .wrongSession(let expected, let received)? = error?.error as? ServiceFactoryError else {
            Issue.record("expected wrongSession, got \(String(describing: error))")
            return
        }
        #expect(sameType(expected, SignedInSession.self))
        #expect(sameType(received, GuestSession.self))
        #expect(sameType(error?.service, String.self))
        #expect(error?.fatalMessage.contains("GuestSession") == true)
        #expect(error?.isWrongSession == true)
        #expect(error?.isDependencyCycle == false)
        // Also through a service that depends on it.
        let greeting = ServiceProvider(mode: .many) { "hello, " + (try provider.getService()) }
        #expect(greeting.getServiceAsResult().obtainError?.isWrongSession == true)
        #expect(greeting.getServiceAsResult().obtainError?.isNested == true)
        #expect(logger.failures(of: String.self).contains { $0.isFactoryError })
        mediator.updateSession(SignedInSession(key: 2))
        #expect(try provider.getService() == "user 2")
    }

    @Test("A session of another type is reported when the provider is made and at each update, not at each get")
    func wrongSessionReports() throws {
        final class Reported: Sendable {}  // a type of this test's own, which no other test's logger events name
        struct ReportedFactory: ServiceSessionFactory {
            let mode: ServiceSessionFactoryMode = .lazy
            func makeService(session: SignedInSession) throws -> Reported { Reported() }
        }
        let logger = RecordingLogger()
        logger.register()
        defer { logger.unregister() }

        let mediator = ServiceSessionMediator<AccountSession>(session: GuestSession(key: "guest"))
        let provider = ReportedFactory().serviceProvider(mediator: mediator)
        #expect(logger.failures(of: Reported.self).count == 1)  // made while a guest is current
        for _ in 0..<3 {
            #expect(provider.getServiceAsResult().obtainError?.isWrongSession == true)
        }
        #expect(logger.failures(of: Reported.self).count == 1)  // a get adds no report
        mediator.updateSession(GuestSession(key: "guest"))  // an update under the same key
        #expect(logger.failures(of: Reported.self).count == 2)
        mediator.updateSession(GuestSession(key: "another guest"))
        #expect(logger.failures(of: Reported.self).count == 3)
        #expect(logger.failures(of: Reported.self).map(\.isWrongSession) == [true, true, true])
        mediator.updateSession(SignedInSession(key: 1))
        #expect(provider.getServiceAsOptional() != nil)
        #expect(logger.failures(of: Reported.self).count == 3)
    }

    @Test("The void session mediator clears services")
    func voidSession() throws {
        struct CacheFactory: ServiceSessionFactory {
            let mode: ServiceSessionFactoryMode
            let counter: Counter
            func makeService(session: ServiceVoidSession) throws -> Service {
                Service(number: counter.increment())
            }
        }
        let mediator = ServiceVoidSessionMediator()
        let counter = Counter()
        let lazy = CacheFactory(mode: .lazy, counter: counter).serviceProvider(mediator: mediator)
        let first = try lazy.getService()
        #expect(try lazy.getService() === first)
        mediator.clearServices()
        #expect(try lazy.getService() !== first)
        #expect(counter.value == 2)

        let atOneCounter = Counter()
        let atOne = CacheFactory(mode: .atOne, counter: atOneCounter).serviceProvider(mediator: mediator)
        let before = try atOne.getService()
        mediator.clearServices()
        #expect(atOneCounter.value == 2)
        #expect(try atOne.getService() !== before)
        #expect(ServiceVoidSession().key == ServiceVoidSession().key)
    }

    @Test("Updating to the same session with newer values hands the new values to the factory")
    func sameSessionNewValues() throws {
        struct TokenSession: ServiceSession {
            var userId: Int
            var token: String
            var key: AnyHashable { userId }
        }
        struct TokenFactory: ServiceSessionFactory {
            let mode: ServiceSessionFactoryMode = .weak
            func makeService(session: TokenSession) throws -> Greeter { Greeter(text: session.token) }
        }
        let mediator = ServiceSessionMediator(session: TokenSession(userId: 1, token: "old"))
        let provider = TokenFactory().serviceProvider(mediator: mediator)
        var held: Greeter? = try provider.getService()
        #expect(held?.text == "old")
        mediator.updateSession(TokenSession(userId: 1, token: "new"))
        #expect(try provider.getService() === held)
        held = nil
        #expect(try provider.getService().text == "new")
    }

    @Test("A session hook that reaches back into its own provider fails instead of deadlocking")
    func hookReentry() throws {
        final class Holder: @unchecked Sendable {
            // Written once, before any session update.
            var own: ServiceProvider<UserData>!
            var other: ServiceProvider<Service>!
            var otherResult: Result<Service, ServiceObtainError>?
        }
        struct ReachingFactory: ServiceSessionFactory {
            let holder: Holder
            let mode: ServiceSessionFactoryMode = .lazy
            func makeService(session: UserSession) throws -> UserData {
                UserData(userId: session.userId, serial: 0)
            }
            func deactivateService(_ service: UserData, session: UserSession) -> Bool {
                holder.otherResult = holder.other.getServiceAsResult()
                return false
            }
        }
        let holder = Holder()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        holder.own = ReachingFactory(holder: holder).serviceProvider(mediator: mediator)
        holder.other = ServiceProvider(mode: .lazy) {
            Service(number: try holder.own.getService().userId)
        }
        // The hook's get comes back to the provider that is switching, on the same thread: it
        // must fail as a cycle rather than wait for itself.
        let (own, other) = try withTimeLimit {
            _ = try holder.own.getService()
            mediator.updateSession(UserSession(userId: 2))
            return (try holder.own.getService().userId, try holder.other.getService().number)
        }
        let error = #expect(throws: ServiceObtainError.self) { try holder.otherResult?.get() }
        #expect(error?.isDependencyCycle == true)
        #expect(own == 2)
        #expect(other == 2)
    }

    @Test("An atOne provider on a session of the wrong type reports it in validateAtOneError")
    func wrongSessionAtOne() {
        class Base: ServiceSession, @unchecked Sendable {
            // Immutable after init.
            let key: AnyHashable
            init(key: AnyHashable) { self.key = key }
        }
        final class Admin: Base, @unchecked Sendable {}
        struct AdminFactory: ServiceSessionFactory {
            let mode: ServiceSessionFactoryMode = .atOne
            func makeService(session: Admin) throws -> Int { 1 }
        }
        let mediator = ServiceSessionMediator<Base>(session: Base(key: 0))
        let provider = AdminFactory().serviceProvider(mediator: mediator)
        let error = #expect(throws: ServiceObtainError.self) { try provider.validateAtOneError() }
        #expect(error?.isFactoryError == true)
        mediator.updateSession(Admin(key: 1))
        #expect(provider.getServiceAsOptional() == 1)
    }

    @Test("A provider made while the session changes follows the newest session", .offThePool)
    func subscriptionRace() throws {
        for round in 0..<50 {
            let mediator = ServiceSessionMediator(session: UserSession(userId: 0))
            let results = try raceOnThreads(2) { index -> ServiceProvider<UserData>? in
                if index == 0 {
                    mediator.updateSession(UserSession(userId: round + 1))
                    return nil
                }
                return UserDataFactory(mode: .lazy, log: SessionFactoryLog()).serviceProvider(mediator: mediator)
            }
            let provider = try #require(results[1])
            #expect(try provider.getService().userId == round + 1)
        }
    }

    @Test("A released provider leaves no observer behind")
    func releasedProvider() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        var provider: ServiceProvider<UserData>? = UserDataFactory(mode: .lazy, log: SessionFactoryLog())
            .serviceProvider(mediator: mediator)
        weak let weakProvider = provider
        _ = try provider?.getService()
        #expect(mediator.observersCount == 1)
        provider = nil
        #expect(weakProvider == nil)
        #expect(mediator.observersCount == 0)
        mediator.updateSession(UserSession(userId: 2))
        #expect(mediator.session.userId == 2)
    }

    @Test("A safe session provider follows the mediator", arguments: safeKinds)
    func safeSession(kind: ServiceSafeProviderKind) throws {
        let log = SessionFactoryLog()
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let provider = UserDataFactory(mode: .lazy, log: log).serviceSafeProvider(mediator: mediator, safeThread: kind)
        let first = try provider.getService()
        #expect(try provider.getServiceAsResultNotSafe().get() === first)
        mediator.updateSession(UserSession(userId: 2))
        #expect(try provider.getService().userId == 2)
        let viaInit = ServiceSafeProvider(factory: UserDataFactory(mode: .atOne, log: log), mediator: mediator)
        #expect(try viaInit.getService().userId == 2)
    }
}
