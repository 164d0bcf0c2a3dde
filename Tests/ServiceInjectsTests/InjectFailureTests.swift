import Dispatch
import Synchronization
import ServiceContainerKit
import Testing
import TestSupport
@testable import ServiceInjects

/// Containers of six types, registered where a read asks for another.
struct Other1 {}
struct Other2 {}
struct Other3 {}
struct Other4 {}
struct Other5 {}
struct Other6 {}

/// The crash messages, checked in-process (the exit tests check them in a crashing child).
@Suite struct InjectFailureTests {
    let site = InjectSite(wrapper: .serviceInject, file: "Module/Screen.swift", line: 12)

    @Test func siteNamesTheWrapperFileAndLine() {
        #expect(site.description == "@ServiceInject at Module/Screen.swift:12")
    }

    @Test func missingNamesTheTypeTheResolverAndTheValue() {
        let message = InjectFailure.missingMessage(
            TestServices.self, injecting: Tagged.self, in: EntityInjectResolver.registry, site: site
        )
        #expect(message.hasPrefix("@ServiceInject at Module/Screen.swift:12: no entity of type "))
        #expect(message.contains("ServiceInjectsTests.TestServices is registered in EntityInjectResolver to inject ServiceInjectsTests.Tagged; "))
    }

    @Test("Once isolated scopes are in use, a wrapper waiting in the process's registries is told it was made outside them")
    func missingOutsideEveryScopeSaysSo() {
        let hint = "; this wrapper was made outside every isolated scope (withIsolatedInjectRegistries, "
            + ".isolatedInjectRegistries), so it waits in the process's registries: Task.detached, threads and "
            + "blocks that dispatch runs on other threads do not see a scope; make it in the scope's code or in "
            + "a task it starts"
        let inScope = withIsolatedInjectRegistries {
            InjectFailure.missingMessage(TestServices.self, injecting: Tagged.self, in: ServiceInjectResolver.registry, site: site)
        }
        #expect(inScope.hasSuffix("register it before the first read of the injected property"))
        for registry in [InjectRegistries.process.containers, InjectRegistries.process.entities] {
            let outside = InjectFailure.missingMessage(TestServices.self, injecting: Tagged.self, in: registry, site: site)
            // Other tests may have registered in the process's registries: their types follow.
            #expect(outside.contains("register it before the first read of the injected property" + hint))
        }
    }

    @Test("A wrapper that finds no value is told the types registered instead and the registrations of nil")
    func missingNamesWhatIsRegisteredInstead() {
        let (empty, registered, entity, cleared) = withIsolatedInjectRegistries {
            let registry = ServiceInjectResolver.registry
            let empty = InjectFailure.missingMessage(CrashServices.self, injecting: Tagged.self, in: registry, site: site)
            ServiceInjectResolver.registerSome(
                [TestServices.make(), ScopeServices.make(tag: "a"), TestServices.make()], failureIfContains: false
            )
            for line in 1...5 {  // the newest three are named, each once
                registry.noteNilRegistration("ServiceInjectResolver.register(_:) at Module/App.swift:\(line) was given nil (a X?)")
            }
            registry.noteNilRegistration("ServiceInjectResolver.register(_:) at Module/App.swift:4 was given nil (a X?)")
            let registered = InjectFailure.missingMessage(CrashServices.self, injecting: Tagged.self, in: registry, site: site)
            let token = EntityInjectResolver.register(Settings(theme: .init(color: "dark")))  // registered while it lives
            let entity = withExtendedLifetime(token) {
                InjectFailure.missingMessage(Tagged.self, injecting: Tagged.self, in: EntityInjectResolver.registry, site: site)
            }
            ServiceInjectResolver.removeAll()
            let cleared = InjectFailure.missingMessage(CrashServices.self, injecting: Tagged.self, in: registry, site: site)
            return (empty, registered, entity, cleared)
        }
        let end = ") to inject ServiceInjectsTests.Tagged; register it before the first read of the injected property"
        #expect(empty.hasSuffix(end))
        #expect(cleared.hasSuffix(end))
        let nilCall = "ServiceInjectResolver.register(_:) at Module/App.swift:"
        let nilHints = [4, 5, 3].map { "; \(nilCall)\($0) was given nil (a X?), which registered nothing" }
        let hints: String = "; the containers registered there are of other types: "
            + "ServiceInjectsTests.TestServices, ServiceInjectsTests.ScopeServices" + nilHints.joined()
        #expect(registered.hasSuffix(end + hints), "\(registered)")
        #expect(entity.hasSuffix("; the entities registered there are of other types: ServiceInjectsTests.Settings"))
    }

    @Test("The types registered instead are named newest first, five at most")
    func registeredInsteadNewestFirst() {
        let message = withIsolatedInjectRegistries {
            ServiceInjectResolver.registerSome([Other1(), Other2(), Other3(), Other4(), Other5(), Other6()])
            return InjectFailure.missingMessage(
                CrashServices.self, injecting: Tagged.self, in: ServiceInjectResolver.registry, site: site
            )
        }
        let names = [6, 5, 4, 3, 2].map { "ServiceInjectsTests.Other\($0)" }.joined(separator: ", ")
        #expect(message.hasSuffix("; the containers registered there are of other types: \(names), ..."), "\(message)")
    }

    @Test("A scoped service injected outside its object's scope: the message says where the object was made", arguments: [
        (UInt64(0), "outside every scope"), (ServiceScope.numberOfSingletonMaking, "by a singleton's making"),
        (UInt64(1), "in another scope"),
    ])
    func scopeMismatchSaysWhereTheObjectWasMade(madeIn: UInt64, place: String) {
        let scope = ServiceScope(label: "req2")
        let message = InjectFailure.scopeMismatchMessage(Tagged.self, madeIn: madeIn, current: scope, site: site)
        #expect(
            message == "@ServiceInject at Module/Screen.swift:12: ServiceInjectsTests.Tagged is a scoped service, "
                + "injected in the scope \"req2\", but the object that holds this property was made \(place): it would "
                + "keep that service after the scope \"req2\" closes. Make the object in the scope that uses it (once "
                + "per request), or inject the provider with @ServiceProviderInject and get the service where each "
                + "scope uses it"
        )
    }

    @Test("A scoped service injected where no scope is current, for an object made in a scope: the message says so")
    func injectedOutsideTheObjectsScope() {
        #expect(
            InjectFailure.outsideObjectScopeMessage(Tagged.self, site: site)
                == "@ServiceInject at Module/Screen.swift:12: ServiceInjectsTests.Tagged is a scoped service, injected "
                + "where no scope is current, but the object that holds this property was made in a scope: inject it "
                + "in the code of that scope, in the task or thread that runs it (read a lazyInject property there; "
                + "register the container before the scope makes the object), or inject the provider with "
                + "@ServiceProviderInject and get the service where each scope uses it"
        )
    }

    @Test("The scope check lets an injection through in the object's own scope, and outside every scope")
    func scopeCheckPasses() {
        let scope = ServiceScope(label: "req")
        InjectFailure.checkScope(of: Tagged.self, madeIn: 0, site: site)  // no scope: the get says scopeRequired
        InjectFailure.checkScope(of: Tagged.self, madeIn: ServiceScope.numberOfSingletonMaking, site: site)  // the same
        scope.run { InjectFailure.checkScope(of: Tagged.self, madeIn: scope.number, site: site) }
        #expect(scope.run { ServiceScope.numberForObjectMadeNow } == scope.number)
        #expect(ServiceScope.numberForObjectMadeNow == 0)
    }

    @Test func missingParamsNamesBothTypes() {
        let message = InjectFailure.missingParamsMessage(service: Tagged.self, params: String.self, site: site)
        #expect(message.contains("params of type Swift.String for service ServiceInjectsTests.Tagged were not set"))
        #expect(message.contains("Module/Screen.swift:12"))
    }

    @Test(arguments: [(true, "after ServiceInjectsTests.Tagged was injected"), (false, "when params were already given (in the attribute or by an earlier setParameters)")])
    func paramsAlreadySetSaysWhy(injected: Bool, expected: String) {
        let call = InjectSite(wrapper: .setParameters, file: "Module/Other.swift", line: 40)
        let message = InjectFailure.paramsAlreadySetMessage(
            service: Tagged.self, injected: injected, site: site, call: call
        )
        #expect(message.contains("setParameters(_:lazyInject:) called \(expected) (at Module/Other.swift:40)"))
        #expect(message.hasPrefix("@ServiceInject at Module/Screen.swift:12"))
    }

    static let handleTheFailure =
        "To handle such a failure instead of stopping, inject the provider with @ServiceProviderInject and read the "
        + "service with getServiceAsResult()"

    /// A scope of its own, closed or not.
    static func scope(closed: Bool) async -> ServiceScope {
        let scope = ServiceScope(label: "req1")
        if closed { _ = await scope.close() }
        return scope
    }

    static let closedElsewhere = ServiceFactoryError.scopeClosed(service: Tagged.self, scope: "the scope \"req0\"")

    @Test("A failure that is the provider's: the message says how to handle it, whatever the scope", arguments: [
        (ServiceObtainError(service: Tagged.self, error: TestError.failed), false),
        (ServiceObtainError(service: Tagged.self, error: TestError.failed), true),
        // A scoped service that finds no scope, where one is current: a factory on the way got it in a task or
        // thread that does not see the scope, or threw that error itself.
        (ServiceObtainError(service: Tagged.self, error: ServiceFactoryError.scopeRequired(service: Tagged.self)), true),
        // A closed scope, where the current one is open, or where none is.
        (ServiceObtainError(service: Tagged.self, error: closedElsewhere), true),
        (ServiceObtainError(service: Tagged.self, error: closedElsewhere), false),
        (
            ServiceObtainError(
                service: Tagged.self,
                error: ServiceFactoryError.captiveDependency(
                    singleton: Tagged.self, singletonKind: "a lazy singleton", scoped: Tagged.self
                )
            ), true
        ),
        (ServiceObtainError(service: Tagged.self, error: ServiceFactoryError.dependencyCycle(service: Tagged.self)), false),
    ] as [(ServiceObtainError, Bool)])
    func providerFailedCarriesTheObtainError(error: ServiceObtainError, inAScope: Bool) async {
        let scope = inAScope ? await Self.scope(closed: false) : nil
        #expect(
            InjectFailure.providerFailedMessage(error, current: scope, site: site)
                == "@ServiceInject at Module/Screen.swift:12: injection failed. \(error.fatalMessage). "
                + Self.handleTheFailure
        )
    }

    @Test("A scoped service that no scope gives, itself or on the path: the message says where to make the object")
    func providerFailedForWantOfAScope() {
        struct Report {}
        for error in [
            ServiceObtainError(service: Tagged.self, error: ServiceFactoryError.scopeRequired(service: Tagged.self)),
            ServiceObtainError(service: Tagged.self, error: ServiceFactoryError.scopeRequired(service: Tagged.self))
                .withAddedToPath(service: Report.self),
        ] {
            #expect(
                InjectFailure.providerFailedMessage(error, current: nil, site: site)
                    == "@ServiceInject at Module/Screen.swift:12: injection failed. \(error.fatalMessage). The property "
                    + "is injected where no scope is current: make the object that holds it in the scope that uses it, "
                    + "once per request (in withServiceScope { }, or in a handler that runs in the task of a scope "
                    + "middleware: with Vapor, an async route), or inject the provider with @ServiceProviderInject and "
                    + "get the service where each scope uses it, handling the error of getServiceAsResult() where none "
                    + "may be current"
            )
        }
    }

    @Test("A scoped service got in the closed scope current where it is injected: the message says to read it while the scope runs")
    func providerFailedInAClosedScope() async {
        let scope = await Self.scope(closed: true)
        let error = ServiceObtainError(
            service: Tagged.self, error: ServiceFactoryError.scopeClosed(service: Tagged.self, scope: scope.description)
        )
        #expect(
            InjectFailure.providerFailedMessage(error, current: scope, site: site)
                == "@ServiceInject at Module/Screen.swift:12: injection failed. \(error.fatalMessage). The property is "
                + "injected in the scope \"req1\", after it closed: read it while the scope runs, not in work that "
                + "outlives it, or inject the provider with @ServiceProviderInject and handle the error of "
                + "getServiceAsResult() in such work"
        )
    }

    @Test("A registration is named by crashes on its own thread while it runs, not in a task it starts", .offThePool)
    func registrationIsNamedOnItsThreadWhileItRuns() throws {
        #expect(InjectFailure.stopNote == "")
        final class Seen: Sendable { let note = Mutex<String?>(nil) }
        let seen = Seen()
        let done = DispatchSemaphore(value: 0)
        let (inside, waited) = ThreadContext.whileRunning("ServiceInjectResolver.register(_:) at App/Start.swift:7") {
            // A task started there runs on a thread of the pool.
            Task {
                seen.note.withLock { $0 = InjectFailure.stopNote }
                done.signal()
            }
            return (InjectFailure.stopNote, Result { try waitWithTimeLimit(done) })
        }
        try waited.get()
        #expect(inside == "; the program stops inside ServiceInjectResolver.register(_:) at App/Start.swift:7")
        #expect(seen.note.withLock { $0 } == "")
        #expect(InjectFailure.stopNote == "")
    }

    @Test("A task that a registration starts on the main actor, run on its thread after it returned, names none")
    @MainActor func registrationIsNotNamedOnceItReturned() async {
        let task = ThreadContext.whileRunning("ServiceInjectResolver.register(_:) at App/Start.swift:7") {
            Task { @MainActor in InjectFailure.stopNote }
        }
        #expect(await task.value == "")
    }

    @Test func aNestedRegistrationIsNamedAndTheOuterOneAfterIt() {
        let notes = ThreadContext.whileRunning("ServiceInjectResolver.registerSome(_:) at App/Start.swift:7") {
            let inner = ThreadContext.whileRunning("ServiceInjectResolver.register(_:) at App/Ready.swift:3") {
                InjectFailure.stopNote
            }
            return [inner, InjectFailure.stopNote]
        }
        #expect(notes == [
            "; the program stops inside ServiceInjectResolver.register(_:) at App/Ready.swift:3",
            "; the program stops inside ServiceInjectResolver.registerSome(_:) at App/Start.swift:7",
        ])
    }

    @Test func alreadyRegisteredNamesTheCallerAndTheWaysOut() {
        let process = ServiceInjectResolver.alreadyRegisteredMessage(
            TestServices.self, in: InjectRegistries(scope: nil), call: "register(_:)", file: "App/Start.swift", line: 7
        )
        #expect(process == "ServiceInjectResolver.register(_:) at App/Start.swift:7: a container of type "
            + "ServiceInjectsTests.TestServices is already registered in ServiceInjectResolver; register it once "
            + "(at start-up); to replace it, remove(_:) the old one first; to put one over it on purpose (the old "
            + "one stays registered beneath it), pass failureIfContains: false; or, in tests, give each test "
            + "registries of its own with the .isolatedInjectRegistries trait (ServiceInjectsTesting) or "
            + "withIsolatedInjectRegistries { }")
        let scoped = ServiceInjectResolver.alreadyRegisteredMessage(
            TestServices.self, in: InjectRegistries(scope: "a test"), call: "registerSome(_:)", file: "T/A.swift", line: 9
        )
        #expect(scoped == "ServiceInjectResolver.registerSome(_:) at T/A.swift:9: a container of type "
            + "ServiceInjectsTests.TestServices is already registered in ServiceInjectResolver (isolated by a test); "
            + "register it once in the scope; to replace it, remove(_:) the old one first; to put one over it on "
            + "purpose (the old one stays registered beneath it), pass failureIfContains: false")
    }

    @Test("A registerSome that lists a type twice says so, and whether one of that type was registered before it",
        arguments: [false, true])
    func listedTwiceNamesTheCallAndTheWayOut(alsoRegistered: Bool) {
        let message = ServiceInjectResolver.listedTwiceMessage(
            TestServices.self, alsoRegistered: alsoRegistered, in: InjectRegistries(scope: nil), call: "registerSome(_:)",
            file: "App/Start.swift", line: 8
        )
        let registered = alsoRegistered ? ", and one is already registered in ServiceInjectResolver" : ""
        let replace = alsoRegistered ? "; to replace that one, remove(_:) it first" : ""
        #expect(
            message == "ServiceInjectResolver.registerSome(_:) at App/Start.swift:8: this call lists more than one "
                + "container of type ServiceInjectsTests.TestServices\(registered); list each type once (the last of a "
                + "type would be the newest, the others registered beneath it)\(replace); or pass failureIfContains: "
                + "false to register them all so"
        )
    }

    @Test func duplicateMessageTellsAListedTwiceTypeFromARegisteredOne() {
        let registries = InjectRegistries(scope: nil)
        func message(_ containers: [Any], duplicates: [Any.Type]) -> String {
            ServiceInjectResolver.duplicateMessage(
                TestServices.self, listed: containers, duplicates: duplicates, in: registries, call: "registerSome(_:)",
                file: "App/Start.swift", line: 8
            )
        }
        let once = message([TestServices.make()], duplicates: [TestServices.self])
        #expect(once.contains("a container of type ServiceInjectsTests.TestServices is already registered"))
        let twice = message([TestServices.make(), TestServices.make()], duplicates: [TestServices.self])
        #expect(twice.contains("lists more than one container of type ServiceInjectsTests.TestServices; list"))
        let twiceAndBefore = message(
            [TestServices.make(), TestServices.make()], duplicates: [TestServices.self, TestServices.self]
        )
        #expect(twiceAndBefore.contains("ServiceInjectsTests.TestServices, and one is already registered"))
    }

    final class SilentLogger: ServiceInjectLogger {}

    @Test func loggerEventsDefaultToNothing() {
        let logger = SilentLogger()
        logger.serviceInjectResolverContainerAlreadyRegistered(type: Tagged.self)
        logger.entityInjectResolverDidAutoRemove(entityType: Tagged.self, afterInjection: true)
        logger.entityInjectResolverDidAutoRemove(entityType: Tagged.self, delay: 1)
        #expect(logger.queue == nil)
    }

    /// Implements the duplicate event without file and line, as a logger written before that form.
    final class OldFormLogger: ServiceInjectLogger, @unchecked Sendable {  // `types` is reached on the test's thread only
        var types: [String] = []

        func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type) {
            types.append(String(reflecting: type))
        }
    }

    @Test("The duplicate event with file and line reaches a logger that implements it without them")
    func duplicateEventWithTheSiteReachesTheOldForm() {
        let logger = OldFormLogger()
        logger.serviceInjectResolverContainerAlreadyRegistered(type: Tagged.self, file: "Module/App.swift", line: 3)
        #expect(logger.types == ["ServiceInjectsTests.Tagged"])
    }
}
