import Foundation
import Testing
@testable import ServiceInjects
import TestSupport

// `withIsolatedInjectRegistries`: these tests work only in scopes of their own, so they are not
// in the serialized `InjectsTests` and run in parallel with everything else, the tests that
// register in (and empty) the process's registries included. Their types are registered in
// the process's registries by no test, so a look at those registries is stable too.

/// A container registered only inside isolated scopes.
struct ScopeServices {
    let tagged: ServiceProvider<Tagged>
    let lazyTagged: ServiceProvider<Tagged>
    let params: ServiceParamsProvider<Tagged, String>
    let nested: TestServices.Nested

    static func make(tag: String) -> ScopeServices {
        ScopeServices(
            tagged: ServiceProvider(Tagged(tag)),
            lazyTagged: ServiceProvider(mode: .lazy) { Tagged("lazy-\(tag)") },
            params: ServiceParamsProvider { Tagged("\(tag)-\($0)") },
            nested: .init(deeper: .init(tagged: ServiceProvider(Tagged("nested-\(tag)"))))
        )
    }
}

/// Every kind of wrapper over `ScopeServices`.
final class ScopePresenter {
    @ServiceInject(\ScopeServices.tagged) var tagged
    @ServiceInject(\ScopeServices.lazyTagged, lazyInject: true) var lazyTagged
    @ServiceInject(\ScopeServices.nested.deeper.tagged) var nested
    @ServiceParamsInject(\ScopeServices.params, params: "p") var params
    @ServiceProviderInject(\ScopeServices.tagged) var provider

    /// The tags the properties see, each read once.
    var tags: [String] {
        [tagged.tag, lazyTagged.tag, nested.tag, params.tag, provider.getServiceOrFatal().tag]
    }

    static func expectedTags(_ tag: String) -> [String] {
        [tag, "lazy-\(tag)", "nested-\(tag)", "\(tag)-p", tag]
    }
}

/// An entity registered only inside isolated scopes.
final class ScopeEntity: Sendable {
    struct Theme: Sendable { let color: String }
    let name: String
    let theme: Theme

    init(_ name: String) {
        self.name = name
        theme = Theme(color: "color-\(name)")
    }
}

final class ScopeEntityController {
    @EntityInject(ScopeEntity.self) var entity
    @EntityInject(\ScopeEntity.theme.color) var color
}

/// One-shot signals between two tasks, each awaited by one task at most.
final class Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func fire() { continuation.yield() }

    func wait() async {
        for await _ in stream { return }
    }
}

// The tests that wait for other tasks or threads run inside a time limit: a wait that is never
// resumed fails the test instead of stalling the run.
@Suite struct IsolatedRegistriesTests {
    @Test func scopeStartsEmptyAndKeepsItsRegistrationsToItself() {
        withIsolatedInjectRegistries {
            #expect(!ServiceInjectResolver.contains(ScopeServices.self))
            ServiceInjectResolver.register(ScopeServices.make(tag: "in"))
            #expect(ServiceInjectResolver.contains(ScopeServices.self))
            #expect(ScopePresenter().tags == ScopePresenter.expectedTags("in"))
        }
        #expect(!ServiceInjectResolver.contains(ScopeServices.self))
    }

    @Test func returnsWhatTheBodyReturnsAndRethrows() async throws {
        let made = withIsolatedInjectRegistries {
            ServiceInjectResolver.register(ScopeServices.make(tag: "sync"))
            return ScopePresenter()
        }
        #expect(made.tagged.tag == "sync")
        let madeAsync = await withIsolatedInjectRegistries {
            await Task.yield()
            ServiceInjectResolver.register(ScopeServices.make(tag: "async"))
            return ScopePresenter()
        }
        #expect(madeAsync.tagged.tag == "async")
        #expect(throws: TestError.failed) {
            try withIsolatedInjectRegistries { () throws -> Int in
                ServiceInjectResolver.register(ScopeServices.make(tag: "thrown"))
                throw TestError.failed
            }
        }
        await #expect(throws: TestError.failed) {
            try await withIsolatedInjectRegistries { () async throws -> Int in
                await Task.yield()
                throw TestError.failed
            }
        }
        #expect(!ServiceInjectResolver.contains(ScopeServices.self))
    }

    @Test func namesTheScopeInItsRegistries() {
        let line = #line + 1
        let names = withIsolatedInjectRegistries {
            (ServiceInjectResolver.registry.resolverName, EntityInjectResolver.registry.resolverName)
        }
        let scope = "(isolated by withIsolatedInjectRegistries at ServiceInjectsTests/IsolatedRegistriesTests.swift:\(line))"
        #expect(names.0 == "ServiceInjectResolver \(scope)")
        #expect(names.1 == "EntityInjectResolver \(scope)")
    }

    @Test func wrapperMadeInAScopeIsInjectedWhenItsContainerComesLater() {
        let presenter = withIsolatedInjectRegistries {
            let presenter = ScopePresenter()
            #expect(!presenter.$tagged.isReady)
            let seen = Box<String?>(nil)
            presenter.$nested.setReadyHandler { seen.value = $0.tag }
            ServiceInjectResolver.register(ScopeServices.make(tag: "later"))
            #expect(presenter.$tagged.isReady)
            #expect(presenter.$params.isReady)
            #expect(!presenter.$lazyTagged.isReady)
            #expect(seen.value == "nested-later")
            return presenter
        }
        // The lazy property is read after the scope ended: from the scope's registries still.
        #expect(presenter.tags == ScopePresenter.expectedTags("later"))
    }

    @Test func wrapperWaitingInAScopeIsInjectedByARegistrationFromAChildTask() async throws {
        try await withAsyncTimeLimit {
            await withIsolatedInjectRegistries {
                let presenter = ScopePresenter()
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { ServiceInjectResolver.register(ScopeServices.make(tag: "child")) }
                }
                #expect(presenter.$tagged.isReady)
                #expect(presenter.tags == ScopePresenter.expectedTags("child"))
            }
        }
    }

    @Test func childTasksSeeTheScope() async throws {
        try await withAsyncTimeLimit {
            await withIsolatedInjectRegistries {
                ServiceInjectResolver.register(ScopeServices.make(tag: "parent"))
                async let fromAsyncLet = ScopePresenter().tagged.tag
                let fromTask = await Task { ScopePresenter().tagged.tag }.value
                let fromGroup = await withTaskGroup(of: String.self) { group in
                    group.addTask { ScopePresenter().tagged.tag }
                    return await group.next()
                }
                #expect(await fromAsyncLet == "parent")
                #expect(fromTask == "parent")
                #expect(fromGroup == "parent")
            }
        }
    }

    @Test func scopeOpenedInATaskGroupBodyReachesTheChildTasksItAdds() async throws {
        let tags = try await withAsyncTimeLimit {
            await withTaskGroup(of: [String].self) { group in
                await withIsolatedInjectRegistries {
                    ServiceInjectResolver.register(ScopeServices.make(tag: "group"))
                    group.addTask { ScopePresenter().tags }
                    return await group.next() ?? []
                }
            }
        }
        #expect(tags == ScopePresenter.expectedTags("group"))
    }

    @Test func nestedScopesStartEmptyAndLeaveTheOuterOneAsItWas() {
        withIsolatedInjectRegistries {
            ServiceInjectResolver.register(ScopeServices.make(tag: "outer"))
            let outerToken = EntityInjectResolver.register(ScopeEntity("outer"))
            let outerPresenter = ScopePresenter()
            let waiting = Box<Bool>(false)
            let readyToken = ServiceInjectResolver.addReadyContainerHandler(TestServices.self) { waiting.value = true }

            let innerPresenter = withIsolatedInjectRegistries {
                #expect(!ServiceInjectResolver.contains(ScopeServices.self))
                #expect(!EntityInjectResolver.contains(ScopeEntity.self))
                #expect(ServiceInjectResolver.registry.counts == (0, 0))
                ServiceInjectResolver.register(ScopeServices.make(tag: "inner"))
                ServiceInjectResolver.register(TestServices.make(tag: "inner"))  // not the outer handler's
                let token = EntityInjectResolver.register(ScopeEntity("inner"))
                #expect(ScopeEntityController().entity.name == "inner")
                withExtendedLifetime(token) {}
                ServiceInjectResolver.removeAll()
                return ScopePresenter()
            }

            #expect(!waiting.value)
            #expect(readyToken?.isWaiting == true)
            #expect(ServiceInjectResolver.registry.counts == (1, 1))
            #expect(ScopePresenter().tags == ScopePresenter.expectedTags("outer"))
            #expect(outerPresenter.tags == ScopePresenter.expectedTags("outer"))
            #expect(ScopeEntityController().entity.name == "outer")
            #expect(!innerPresenter.$tagged.isReady)  // the inner registries were emptied
            withExtendedLifetime(outerToken) {}
        }
    }

    @Test func twoScopesInConcurrentTasksSeeOnlyTheirOwnMocks() async throws {
        let aWaits = Signal()
        let bRegistered = Signal()
        let (tagsA, tagsB) = try await withAsyncTimeLimit {
            async let a: [String] = withIsolatedInjectRegistries {
                let presenter = ScopePresenter()
                aWaits.fire()
                await bRegistered.wait()
                #expect(!presenter.$tagged.isReady)  // B's registration is not A's
                #expect(!ServiceInjectResolver.contains(ScopeServices.self))
                ServiceInjectResolver.register(ScopeServices.make(tag: "a"))
                return presenter.tags
            }
            async let b: [String] = withIsolatedInjectRegistries {
                await aWaits.wait()
                ServiceInjectResolver.register(ScopeServices.make(tag: "b"))
                bRegistered.fire()
                return ScopePresenter().tags
            }
            return await (a, b)
        }
        #expect(tagsA == ScopePresenter.expectedTags("a"))
        #expect(tagsB == ScopePresenter.expectedTags("b"))
    }

    @Test func scopeInsideADetachedTask() async throws {
        try await withAsyncTimeLimit {
            await withIsolatedInjectRegistries {
                ServiceInjectResolver.register(ScopeServices.make(tag: "outer"))
                // A detached task does not inherit the scope: it sees the process's registries,
                // which hold no ScopeServices, until it opens a scope of its own.
                let seen = await Task.detached {
                    let before = ServiceInjectResolver.contains(ScopeServices.self)
                    let tags = await withIsolatedInjectRegistries {
                        #expect(!ServiceInjectResolver.contains(ScopeServices.self))
                        ServiceInjectResolver.register(ScopeServices.make(tag: "detached"))
                        await Task.yield()
                        return ScopePresenter().tags
                    }
                    return (before, tags, ServiceInjectResolver.contains(ScopeServices.self))
                }.value
                #expect(seen.0 == false)
                #expect(seen.1 == ScopePresenter.expectedTags("detached"))
                #expect(seen.2 == false)
                #expect(ScopePresenter().tags == ScopePresenter.expectedTags("outer"))
            }
        }
    }

    @Test func aTaskMadeInAScopeSeesItAfterTheScopeEnded() async throws {
        let scopeEnded = Signal()
        let task = withIsolatedInjectRegistries {
            ServiceInjectResolver.register(ScopeServices.make(tag: "ended"))
            return Task {
                await scopeEnded.wait()
                return ScopePresenter().tags
            }
        }
        scopeEnded.fire()
        let tags = try await withAsyncTimeLimit { await task.value }
        #expect(tags == ScopePresenter.expectedTags("ended"))
    }

    // In a process of its own, whose first scope this is: until a scope is opened, the wrappers
    // do not read the task-local value; the first scope must be seen all the same.
    @Test func theFirstScopeOfAProcessIsSeen() async {
        await #expect(processExitsWith: .success) {
            ServiceInjectResolver.register(ScopeServices.make(tag: "process"))
            precondition(ScopePresenter().tags == ScopePresenter.expectedTags("process"))
            let inScope = withIsolatedInjectRegistries {
                ServiceInjectResolver.register(ScopeServices.make(tag: "scope"))
                return ScopePresenter().tags
            }
            precondition(inScope == ScopePresenter.expectedTags("scope"), "\(inScope)")
            precondition(ScopePresenter().tags == ScopePresenter.expectedTags("process"))
        }
    }

    @Test func syncScopeOnAThreadWithoutATask() async throws {
        let tags = try await withAsyncTimeLimit {
            await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
                Thread {
                    let tags = withIsolatedInjectRegistries {
                        ServiceInjectResolver.register(ScopeServices.make(tag: "thread"))
                        return ScopePresenter().tags
                    }
                    #expect(!ServiceInjectResolver.contains(ScopeServices.self))
                    continuation.resume(returning: tags)
                }.start()
            }
        }
        #expect(tags == ScopePresenter.expectedTags("thread"))
    }

    @Test func threadStartedInAScopeDoesNotSeeIt() async throws {
        let seen = try await withAsyncTimeLimit {
            await withIsolatedInjectRegistries {
                ServiceInjectResolver.register(ScopeServices.make(tag: "scope"))
                return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    Thread { continuation.resume(returning: ServiceInjectResolver.contains(ScopeServices.self)) }.start()
                }
            }
        }
        #expect(seen == false)
    }

    @Test func readyHandlersAndTheirTokensStayInTheScope() {
        withIsolatedInjectRegistries {
            let ran = Counter()
            var token = ServiceInjectResolver.addReadyContainerHandler(ScopeServices.self) { ran.increment() }
            #expect(token?.isWaiting == true)
            #expect(ServiceInjectResolver.registry.counts == (0, 1))
            token = nil
            #expect(ServiceInjectResolver.registry.counts == (0, 0))
            token = ServiceInjectResolver.addReadyContainerHandler(ScopeServices.self) { ran.increment() }
            ServiceInjectResolver.registerSome([ScopeServices.make(tag: "some")])
            #expect(ran.value == 1)
            #expect(token?.isWaiting == false)
            #expect(ServiceInjectResolver.addReadyContainerHandler(ScopeServices.self) { ran.increment() } == nil)
            #expect(ran.value == 2)
            #expect(ServiceInjectResolver.remove(ScopeServices.self))
            #expect(!ServiceInjectResolver.contains(ScopeServices.self))
        }
    }

    @Test func replacingAContainerInAScopeOnPurpose() {
        withIsolatedInjectRegistries {
            ServiceInjectResolver.register(ScopeServices.make(tag: "first"))
            ServiceInjectResolver.register(ScopeServices.make(tag: "second"), failureIfContains: false)
            #expect(ScopePresenter().tagged.tag == "second")
        }
    }

    @Test func entitiesAreInjectedInsideTheScope() {
        let controller = withIsolatedInjectRegistries {
            let early = ScopeEntityController()
            #expect(!early.$entity.isReady)
            let token = EntityInjectResolver.register(ScopeEntity("scoped"))
            #expect(early.$entity.isReady)
            #expect(early.entity.name == "scoped")
            #expect(early.color == "color-scoped")
            let late = ScopeEntityController()
            #expect(late.entity === early.entity)
            let tokens = EntityInjectResolver.registerSome([ScopeEntity("newest")])
            #expect(ScopeEntityController().entity.name == "newest")
            let handled = Counter()
            #expect(EntityInjectResolver.addReadyContainerHandler(ScopeEntity.self) { handled.increment() } == nil)
            #expect(handled.value == 1)
            #expect(EntityInjectResolver.remove(ScopeEntity.self, onlyLast: true))
            #expect(ScopeEntityController().entity.name == "scoped")
            token.remove()
            #expect(!EntityInjectResolver.contains(ScopeEntity.self))
            withExtendedLifetime(tokens) {}
            return late
        }
        #expect(!EntityInjectResolver.contains(ScopeEntity.self))
        #expect(controller.entity.name == "scoped")
    }

    @Test func entityWaitingInAScopeIsNotInjectedFromAnotherScope() {
        let controller = withIsolatedInjectRegistries { ScopeEntityController() }
        withIsolatedInjectRegistries {
            let token = EntityInjectResolver.register(ScopeEntity("other"))
            #expect(!controller.$entity.isReady)
            withExtendedLifetime(token) {}
        }
    }

    @Test("The body runs on the caller's executor throughout, called from a nonisolated(nonsending) function")
    func bodyStaysOnTheCallersExecutor() async throws {
        let steps = try await withAsyncTimeLimit { await OnItsOwnExecutor().stepsThroughANonsendingFunction() }
        #expect(steps == [true, true, true])
    }
}

/// An actor on a `QueueExecutor`, which sees where the steps of an isolated registries' scope
/// run when a `nonisolated(nonsending)` function enters it for the actor.
private actor OnItsOwnExecutor {
    private let executor = QueueExecutor(label: "IsolatedRegistriesTests")

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    func stepsThroughANonsendingFunction() async -> [Bool] {
        await Self.steps(on: executor)
    }

    /// Where the body ran, at its start and after a suspension, and where the caller went on.
    private nonisolated(nonsending) static func steps(on executor: QueueExecutor) async -> [Bool] {
        var steps: [Bool] = []
        await withIsolatedInjectRegistries {
            steps.append(executor.isCurrent)
            try? await Task.sleep(for: .milliseconds(1))
            steps.append(executor.isCurrent)
        }
        steps.append(executor.isCurrent)
        return steps
    }
}
