import Foundation
import Testing
import ServiceInjects
import TestSupport

// The documented crashes, each checked in a child process: the message must name the inject
// site (this file and the line of the attribute).

struct CrashServices {
    let service: ServiceProvider<Tagged>
    let failing: ServiceProvider<Tagged>
    let params: ServiceParamsProvider<Tagged, Int>

    static func make() -> CrashServices {
        CrashServices(
            service: ServiceProvider(Tagged("ok")),
            failing: ServiceProvider(mode: .lazy) { throw TestError.failed },
            params: ServiceParamsProvider { Tagged("\($0)") }
        )
    }
}

final class NoContainerPresenter {
    static let injectLine: UInt = #line + 1
    @ServiceInject(\CrashServices.service) var service
}

final class NoParamsPresenter {
    static let injectLine: UInt = #line + 1
    @ServiceParamsInject(\CrashServices.params, lazyInject: true) var service
}

final class ParamsPresenter {
    static let injectLine: UInt = #line + 1
    @ServiceParamsInject(\CrashServices.params, params: 1) var service
}

final class FailingPresenter {
    static let injectLine: UInt = #line + 1
    @ServiceInject(\CrashServices.failing) var service
}

final class NoProviderContainerPresenter {
    static let injectLine: UInt = #line + 1
    @ServiceProviderInject(\CrashServices.service) var provider
}

final class NoEntityController {
    static let injectLine: UInt = #line + 1
    @EntityInject(Settings.self) var settings
}

final class ScopeMissPresenter {
    static let injectLine: UInt = #line + 1
    @ServiceInject(\CrashServices.service) var service
}

struct ScopedCrashServices {
    let log = ServiceProvider<Tagged>(mode: .scoped) { Tagged("request") }
}

/// An object that reads a scoped service lazily, made by a singleton or in a scope.
final class LazyScopedLogReader {
    static let injectLine: UInt = #line + 1
    @ServiceInject(\ScopedCrashServices.log, lazyInject: true) var log
}

/// An object that takes a scoped service when it is made: once per request, in its scope.
final class ScopedLogReader {
    static let injectLine: UInt = #line + 1
    @ServiceInject(\ScopedCrashServices.log) var log
}

/// A `LazyScopedLogReader` an async singleton keeps, made in its making.
final class AsyncKeptReader: @unchecked Sendable {  // its reader is read on one thread at a time
    let reader = LazyScopedLogReader()
}

/// Registrations that stop a debug build, each naming the line of its second registration.
enum Misregistration {
    static let twiceLine: UInt = #line + 3
    static func registerTwice() {
        ServiceInjectResolver.register(CrashServices.make())
        ServiceInjectResolver.register(CrashServices.make())
    }

    static let someLine: UInt = #line + 3
    static func registerSomeAfterRegister() {
        ServiceInjectResolver.register(CrashServices.make())
        ServiceInjectResolver.registerSome([TestServices.make(), CrashServices.make()])
    }

    static let nilLine: UInt = #line + 3
    static func registerNil() {
        let missing: CrashServices? = nil
        ServiceInjectResolver.register(missing)
    }

    static let optionalTwiceLine: UInt = #line + 4
    static func registerTwiceOnceAsOptional() {
        ServiceInjectResolver.register(CrashServices.make())
        let again: CrashServices? = CrashServices.make()
        ServiceInjectResolver.register(again)
    }

    static let withinSomeLine: UInt = #line + 2
    static func registerSomeWithTwoOfOneType() {
        ServiceInjectResolver.registerSome([CrashServices.make(), TestServices.make(), CrashServices.make()])
    }

    static let afterRegisterLine: UInt = #line + 3
    static func registerSomeWithTwoOfARegisteredType() {
        ServiceInjectResolver.register(CrashServices.make())
        ServiceInjectResolver.registerSome([CrashServices.make(), CrashServices.make()])
    }

    static let scopeLine: UInt = #line + 3
    static let inScopeLine: UInt = #line + 4
    static func registerTwiceInAScope() {
        withIsolatedInjectRegistries {
            ServiceInjectResolver.register(CrashServices.make())
            ServiceInjectResolver.register(CrashServices.make())
        }
    }

    static let missScopeLine: UInt = #line + 2
    static func readInAScopeWithTheContainerOutside() {
        withIsolatedInjectRegistries {
            _ = ScopeMissPresenter().service
        }
    }
}

/// Prints the duplicate event without its file and line, as a logger written before that form.
final class StandardErrorOldFormInjectLogger: ServiceInjectLogger {
    func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type) {
        FileHandle.standardError.write(Data("logged duplicate (old form) \(type)\n".utf8))
    }
}

/// Prints the events to standard error, where the parent process reads them.
final class StandardErrorInjectLogger: ServiceInjectLogger {
    func serviceInjectResolverContainerAlreadyRegistered(type: Any.Type, file: StaticString, line: UInt) {
        FileHandle.standardError.write(Data("logged duplicate \(type) at \(file):\(line)\n".utf8))
    }
}

extension InjectsTests {
    @Suite struct CrashTests {
        static let file = "ServiceInjectsTests/CrashTests.swift"

        func expectMessage(_ result: ExitTest.Result?, line: UInt, _ fragments: [String]) {
            let stderr = standardError(of: result)
            #expect(stderr.contains("\(Self.file):\(line)"), "\(stderr)")
            for fragment in fragments {
                #expect(stderr.contains(fragment), "\(stderr)")
            }
        }

        @Test func firstReadWithNoContainer() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = NoContainerPresenter().service
            }
            expectMessage(result, line: NoContainerPresenter.injectLine, [
                "@ServiceInject at", "no container of type ServiceInjectsTests.CrashServices",
                "is registered in ServiceInjectResolver to inject ServiceInjectsTests.Tagged; ",
            ])
        }

        @Test func firstProviderReadWithNoContainer() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = NoProviderContainerPresenter().provider
            }
            expectMessage(result, line: NoProviderContainerPresenter.injectLine, [
                "@ServiceProviderInject at", "no container of type ServiceInjectsTests.CrashServices",
                "to inject ServiceContainerKit.ServiceProvider<ServiceInjectsTests.Tagged>; ",
            ])
        }

        @Test func paramsReadWithNoParams() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(CrashServices.make())
                _ = NoParamsPresenter().service
            }
            expectMessage(result, line: NoParamsPresenter.injectLine, [
                "@ServiceParamsInject at", "params of type Swift.Int", "were not set",
            ])
        }

        @Test func paramsReadWithNoContainer() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let presenter = NoParamsPresenter()
                presenter.$service.setParameters(2)
                _ = presenter.service
            }
            expectMessage(result, line: NoParamsPresenter.injectLine, ["no container of type"])
        }

        @Test func setParametersAfterInjectionStopsAtTheCall() async {
            let call = #line + 1  // in an exit test's body, a `#line` default argument is the macro's line
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(CrashServices.make())
                ParamsPresenter().$service.setParameters(2)
            }
            expectMessage(result, line: ParamsPresenter.injectLine, [
                "\(Self.file):\(call): Fatal error: @ServiceParamsInject at \(Self.file):\(ParamsPresenter.injectLine): "
                    + "setParameters(_:lazyInject:) called after ServiceInjectsTests.Tagged was injected (at \(Self.file):\(call))",
            ])
        }

        @Test func setParametersTwiceStopsAtTheSecondCall() async {
            let call = #line + 1  // in an exit test's body, a `#line` default argument is the macro's line
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let presenter = NoParamsPresenter()
                presenter.$service.setParameters(1)
                presenter.$service.setParameters(2)
            }
            expectMessage(result, line: NoParamsPresenter.injectLine, [
                "\(Self.file):\(call): Fatal error: @ServiceParamsInject at \(Self.file):\(NoParamsPresenter.injectLine): "
                    + "setParameters(_:lazyInject:) called when params were already given",
            ])
        }

        @Test func providerErrorAtCreation() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(CrashServices.make())
                _ = FailingPresenter()
            }
            expectMessage(result, line: FailingPresenter.injectLine, [
                "injection failed", "Failed to obtain service ServiceInjectsTests.Tagged", "failed",
                // No registration ran the injection: the message ends there.
                "read the service with getServiceAsResult()\n",
            ])
        }

        @Test func providerErrorAtRegistration() async {
            let call = #line + 1  // in an exit test's body, a `#line` default argument is the macro's line
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let presenter = FailingPresenter()
                ServiceInjectResolver.register(CrashServices.make())
                _ = presenter
            }
            expectMessage(result, line: FailingPresenter.injectLine, [
                "injection failed", "with error: failed",
                "inject the provider with @ServiceProviderInject and read the service with getServiceAsResult(); "
                    + "the program stops inside ServiceInjectResolver.register(_:) at \(Self.file):\(call)\n",
            ])
        }

        @Test func entityReadWithNoEntity() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = NoEntityController().settings
            }
            expectMessage(result, line: NoEntityController.injectLine, [
                "@EntityInject at", "no entity of type ServiceInjectsTests.Settings",
                "is registered in EntityInjectResolver to inject ServiceInjectsTests.Settings; ",
            ])
        }

        /// The line a crash prints: the caller's file and line, then the message.
        func expectFatalError(_ result: ExitTest.Result?, line: UInt, _ message: String) {
            let stderr = standardError(of: result)
            let expected = "\(Self.file):\(line): Fatal error: \(message)\n"
            #expect(stderr.contains(expected), "\(stderr)")
        }

        /// What an `assertionFailure` leaves: in a debug build the crash `expectFatalError`
        /// checks; in a release build, which compiles assertions out, no crash at all.
        func expectAssertion(_ result: ExitTest.Result?, line: UInt, _ message: String) {
            if assertionStops {
                expectFatalError(result, line: line, message)
            } else {
                let stderr = standardError(of: result)
                #expect(!stderr.contains("Fatal error"), "\(stderr)")
            }
        }

        static let registerTwiceFix =
            "register it once (at start-up); to replace it, remove(_:) the old one first; to put one over it on "
            + "purpose (the old one stays registered beneath it), pass failureIfContains: false; or, in tests, give each test registries of its own with the .isolatedInjectRegistries trait "
            + "(ServiceInjectsTesting) or withIsolatedInjectRegistries { }"

        @Test func duplicateContainerAssertsAtTheCallerAndIsLogged() async {
            let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
                StandardErrorInjectLogger().register()
                StandardErrorOldFormInjectLogger().register()
                Misregistration.registerTwice()
            }
            let stderr = standardError(of: result)
            let line = Misregistration.twiceLine
            #expect(stderr.contains("logged duplicate CrashServices at \(Self.file):\(line)\n"), "\(stderr)")
            #expect(stderr.contains("logged duplicate (old form) CrashServices\n"), "\(stderr)")
            expectAssertion(result, line: line,
                "ServiceInjectResolver.register(_:) at \(Self.file):\(line): a container of type "
                + "ServiceInjectsTests.CrashServices is already registered in ServiceInjectResolver; \(Self.registerTwiceFix)")
        }

        @Test func nilContainerAssertsAtTheCallerAndRegistersNothing() async {
            let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
                Misregistration.registerNil()
                if !ServiceInjectResolver.contains(CrashServices.self), !ServiceInjectResolver.contains(CrashServices?.self) {
                    FileHandle.standardError.write(Data("nothing registered\n".utf8))
                }
            }
            let line = Misregistration.nilLine
            expectAssertion(result, line: line,
                "ServiceInjectResolver.register(_:) at \(Self.file):\(line): the container, of type "
                + "Swift.Optional<ServiceInjectsTests.CrashServices>, is nil: nothing was registered; make the container "
                + "before registering it")
            if !assertionStops {
                #expect(standardError(of: result).contains("nothing registered"))
            }
        }

        @Test("Where a registration of nil goes on (release), the read that finds no container names it")
        func nilContainerIsNamedByTheReadThatFindsNone() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Misregistration.registerNil()
                _ = NoContainerPresenter().service
            }
            let line = Misregistration.nilLine
            let stderr = standardError(of: result)
            if assertionStops {
                #expect(stderr.contains("\(Self.file):\(line): the container, of type "), "\(stderr)")
            } else {
                expectMessage(result, line: NoContainerPresenter.injectLine, [
                    "no container of type ServiceInjectsTests.CrashServices is registered in ServiceInjectResolver to "
                        + "inject ServiceInjectsTests.Tagged; register it before the first read of the injected property; "
                        + "ServiceInjectResolver.register(_:) at \(Self.file):\(line) was given nil (a "
                        + "Swift.Optional<ServiceInjectsTests.CrashServices>), which registered nothing\n",
                ])
            }
        }

        @Test("A container registered again as an optional is a duplicate as well")
        func duplicateAsOptionalAssertsAtTheCaller() async {
            let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
                Misregistration.registerTwiceOnceAsOptional()
            }
            let line = Misregistration.optionalTwiceLine
            expectAssertion(result, line: line,
                "ServiceInjectResolver.register(_:) at \(Self.file):\(line): a container of type "
                + "ServiceInjectsTests.CrashServices is already registered in ServiceInjectResolver; \(Self.registerTwiceFix)")
        }

        @Test func duplicateInRegisterSomeAssertsAtTheCaller() async {
            let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
                Misregistration.registerSomeAfterRegister()
            }
            let line = Misregistration.someLine
            expectAssertion(result, line: line,
                "ServiceInjectResolver.registerSome(_:) at \(Self.file):\(line): a container of type "
                + "ServiceInjectsTests.CrashServices is already registered in ServiceInjectResolver; \(Self.registerTwiceFix)")
        }

        @Test func twoOfOneTypeInOneRegisterSomeAssertAtTheCallerAndAreLogged() async {
            let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
                StandardErrorInjectLogger().register()
                Misregistration.registerSomeWithTwoOfOneType()
            }
            let stderr = standardError(of: result)
            let line = Misregistration.withinSomeLine
            #expect(stderr.contains("logged duplicate CrashServices at \(Self.file):\(line)\n"), "\(stderr)")
            expectAssertion(result, line: line,
                "ServiceInjectResolver.registerSome(_:) at \(Self.file):\(line): this call lists more than one "
                + "container of type ServiceInjectsTests.CrashServices; list each type once (the last of a type would "
                + "be the newest, the others registered beneath it); or pass failureIfContains: false to register "
                + "them all so")
        }

        @Test func twoOfARegisteredTypeInOneRegisterSomeSayBoth() async {
            let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
                Misregistration.registerSomeWithTwoOfARegisteredType()
            }
            let line = Misregistration.afterRegisterLine
            expectAssertion(result, line: line,
                "ServiceInjectResolver.registerSome(_:) at \(Self.file):\(line): this call lists more than one "
                + "container of type ServiceInjectsTests.CrashServices, and one is already registered in "
                + "ServiceInjectResolver; list each type once (the last of a type would be the newest, the others "
                + "registered beneath it); to replace that one, remove(_:) it first; or pass failureIfContains: false "
                + "to register them all so")
        }

        @Test func duplicateInAScopeNamesTheScope() async {
            let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
                Misregistration.registerTwiceInAScope()
            }
            let line = Misregistration.inScopeLine
            expectAssertion(result, line: line,
                "ServiceInjectResolver.register(_:) at \(Self.file):\(line): a container of type "
                + "ServiceInjectsTests.CrashServices is already registered in ServiceInjectResolver (isolated by "
                + "withIsolatedInjectRegistries at \(Self.file):\(Misregistration.scopeLine)); "
                + "register it once in the scope; to replace it, remove(_:) the old one first; to put one over it on "
                + "purpose (the old one stays registered beneath it), pass failureIfContains: false")
        }

        @Test func firstReadInAScopeNamesTheScope() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(CrashServices.make())  // the process's: not the scope's
                Misregistration.readInAScopeWithTheContainerOutside()
            }
            let line = ScopeMissPresenter.injectLine
            expectFatalError(result, line: line,
                "@ServiceInject at \(Self.file):\(line): no container of type ServiceInjectsTests.CrashServices "
                + "is registered in ServiceInjectResolver (isolated by withIsolatedInjectRegistries at "
                + "\(Self.file):\(Misregistration.missScopeLine)) to inject ServiceInjectsTests.Tagged; "
                + "register it before the first read of the injected property")
        }

        @Test func scopedServiceReadLazilyInASingleton() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(ScopedCrashServices())
                let controller = ServiceProvider(mode: .lazy) { LazyScopedLogReader() }
                // Read in the first request, the singleton kept its service for every request.
                ServiceScope(label: "req1").run { _ = try! controller.getService().log }
            }
            let line = LazyScopedLogReader.injectLine
            expectFatalError(result, line: line,
                "@ServiceInject at \(Self.file):\(line): ServiceInjectsTests.Tagged is a scoped service, injected in "
                + "the scope \"req1\", but the object that holds this property was made by a singleton's making: it "
                + "would keep that service after the scope \"req1\" closes. Make the object in the scope that uses it "
                + "(once per request), or inject the provider with @ServiceProviderInject and get the service where "
                + "each scope uses it")
        }

        @Test func scopedServiceReadLazilyInASingletonMadeOutsideEveryScope() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(ScopedCrashServices())
                let controller = ServiceProvider(mode: .lazy) { LazyScopedLogReader() }
                let singleton = try! controller.getService()  // made at start-up, in no scope
                ServiceScope(label: "req1").run { _ = singleton.log }
            }
            expectMessage(result, line: LazyScopedLogReader.injectLine, [
                "ServiceInjectsTests.Tagged is a scoped service, injected in the scope \"req1\", but the object "
                    + "that holds this property was made by a singleton's making: it would keep that service after "
                    + "the scope \"req1\" closes."
            ])
        }

        @Test("An object an async singleton's making made, started in a scope or not, is a singleton's", arguments: [false, true])
        func scopedServiceReadLazilyInAnAsyncSingleton(startedInAScope: Bool) async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [startedInAScope] in
                ServiceInjectResolver.register(ScopedCrashServices())
                let controller = ServiceAsyncProvider(mode: .lazy) { AsyncKeptReader() }
                let singleton =
                    startedInAScope
                    ? await ServiceScope(label: "req0").run { try! await controller.getService() }
                    : try! await controller.getService()
                ServiceScope(label: "req1").run { _ = singleton.reader.log }
            }
            expectMessage(result, line: LazyScopedLogReader.injectLine, [
                "ServiceInjectsTests.Tagged is a scoped service, injected in the scope \"req1\", but the object "
                    + "that holds this property was made by a singleton's making: it would keep that service after "
                    + "the scope \"req1\" closes."
            ])
        }

        @Test func scopedServiceReadLazilyInAnotherScope() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(ScopedCrashServices())
                let reader = ServiceScope(label: "req1").run { LazyScopedLogReader() }
                ServiceScope(label: "req2").run { _ = reader.log }
            }
            expectMessage(result, line: LazyScopedLogReader.injectLine, [
                "ServiceInjectsTests.Tagged is a scoped service, injected in the scope \"req2\", but the object "
                    + "that holds this property was made in another scope: it would keep that service after the scope "
                    + "\"req2\" closes."
            ])
        }

        @Test func scopedServiceReadLazilyAfterItsObjectsScope() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(ScopedCrashServices())
                let reader = ServiceScope(label: "req1").run { LazyScopedLogReader() }
                _ = reader.log  // after the scope's code, where no scope is current
            }
            expectMessage(result, line: LazyScopedLogReader.injectLine, [
                "ServiceInjectsTests.Tagged is a scoped service, injected where no scope is current, but the object "
                    + "that holds this property was made in a scope: inject it in the code of that scope"
            ])
        }

        @Test func scopedServiceInjectedWhereNoScopeIsCurrent() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(ScopedCrashServices())
                _ = ScopedLogReader()  // made at start-up, or in a route that no scope middleware runs
            }
            expectMessage(result, line: ScopedLogReader.injectLine, [
                "no scope is current: get it inside withServiceScope { } or a ServiceScope's run { }, in the task or "
                    + "thread that runs the scope. The property is injected where no scope is current: make the "
                    + "object that holds it in the scope that uses it, once per request (in withServiceScope { }, or "
                    + "in a handler that runs in the task of a scope middleware: with Vapor, an async route), or "
                    + "inject the provider with @ServiceProviderInject and get the service where each scope uses it, "
                    + "handling the error of getServiceAsResult() where none may be current"
            ])
            #expect(!standardError(of: result).contains("To handle such a failure"))
        }

        @Test func scopedServiceReadLazilyInWorkThatOutlivesItsScope() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(ScopedCrashServices())
                let scope = ServiceScope(label: "req1")
                let reader = scope.run { LazyScopedLogReader() }
                _ = await scope.close()
                scope.run { _ = reader.log }  // as a task that the request started and that outlives it
            }
            expectMessage(result, line: LazyScopedLogReader.injectLine, [
                "is closed: ServiceInjectsTests.Tagged, a scoped service, is no longer made or handed out in it; get "
                    + "scoped services while their scope runs, not in work that outlives it. The property is injected "
                    + "in the scope \"req1\", after it closed: read it while the scope runs, not in work that outlives "
                    + "it, or inject the provider with @ServiceProviderInject and handle the error of "
                    + "getServiceAsResult() in such work"
            ])
        }

        @Test func scopedServiceReadLazilyByAnObjectMadeOutsideScopes() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ServiceInjectResolver.register(ScopedCrashServices())
                _ = ServiceScope()  // the process made a scope before the object
                let reader = LazyScopedLogReader()
                ServiceScope(label: "req1").run { _ = reader.log }
            }
            expectMessage(result, line: LazyScopedLogReader.injectLine, [
                "injected in the scope \"req1\", but the object that holds this property was made outside every "
                    + "scope: it would keep"
            ])
        }
    }
}
