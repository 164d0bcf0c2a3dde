import Foundation
import Testing
@testable import ServiceInjects
import TestSupport

// A wrapper made while its container (or entity) is registered takes it from the registry's
// boxes of values already cast to the types asked for; these tests change the registered
// values between wrappers and check that every wrapper sees the newest one all the same.

/// What `TestServices` offers when asked for by a protocol it conforms to.
protocol TaggedServices {
    var tagged: ServiceProvider<Tagged> { get }
}

extension TestServices: TaggedServices {}

/// Two wrappers of the same provider, one asking for the container by its type and one by a
/// protocol: two look-ups, of two types, in one registry.
final class ByTypeAndProtocolPresenter {
    @ServiceInject(\TestServices.tagged) var byType
    @ServiceInject(\TaggedServices.tagged) var byProtocol
    @ServiceProviderInject(\TaggedServices.tagged) var provider

    var tags: [String] {
        [byType.tag, byProtocol.tag, provider.getServiceOrFatal().tag]
    }
}

/// A wrapper made before its container, with a look at its cell.
struct LateDependencies {
    @ServiceInject(\TestServices.tagged) var tagged

    var cell: InjectCell<Tagged>? { _tagged.storage.cell }
}

extension InjectsTests {
    @Suite struct InjectAtCreationTests {
        init() { resetRegistries() }

        /// The tags a presenter made now sees; `nil` for a property that waits.
        func tagsOfANewPresenter() -> [String?] {
            let presenter = ByTypeAndProtocolPresenter()
            return [
                presenter.$byType.isReady ? presenter.byType.tag : nil,
                presenter.$byProtocol.isReady ? presenter.byProtocol.tag : nil,
                presenter.$provider.isReady ? presenter.provider.getServiceOrFatal().tag : nil,
            ]
        }

        @Test func everyWrapperMadeAfterAChangeGetsTheNewestContainer() {
            ServiceInjectResolver.register(TestServices.make(tag: "first"))
            #expect(tagsOfANewPresenter() == ["first", "first", "first"])
            #expect(tagsOfANewPresenter() == ["first", "first", "first"])

            ServiceInjectResolver.register(TestServices.make(tag: "second"), failureIfContains: false)
            #expect(tagsOfANewPresenter() == ["second", "second", "second"])

            #expect(ServiceInjectResolver.remove(TestServices.self, onlyLast: true))
            #expect(tagsOfANewPresenter() == ["first", "first", "first"])

            ServiceInjectResolver.registerSome([TestServices.make(tag: "some")], failureIfContains: false)
            #expect(tagsOfANewPresenter() == ["some", "some", "some"])

            #expect(ServiceInjectResolver.remove(TestServices.self))
            #expect(tagsOfANewPresenter() == [nil, nil, nil])

            ServiceInjectResolver.register(TestServices.make(tag: "third"))
            #expect(tagsOfANewPresenter() == ["third", "third", "third"])

            ServiceInjectResolver.removeAll()
            #expect(tagsOfANewPresenter() == [nil, nil, nil])
            ServiceInjectResolver.register(TestServices.make(tag: "fourth"))
            #expect(tagsOfANewPresenter() == ["fourth", "fourth", "fourth"])
        }

        @Test func aWrapperInjectedWhenMadeIsReadyAndRunsItsHandlersAtOnce() {
            ServiceInjectResolver.register(TestServices.make(tag: "now"))
            let presenter = TestPresenter()
            let seen = Box<[String]>([])
            presenter.$tagged.setReadyHandler { seen.value.append("tagged \($0.tag)") }
            presenter.$missingTagged.setReadyHandler { seen.value.append("missing \($0 == nil)") }
            presenter.$optionalTagged.setReadyHandler { seen.value.append("optional \($0?.tag ?? "none")") }
            #expect(seen.value == ["tagged now", "missing true", "optional optional-now"])
            #expect(presenter.$tagged.isReady)
            #expect(presenter.$missingTagged.isReady)
            #expect(presenter.$optionalTagged.isReady)
            #expect(!presenter.$lazyTagged.isReady)
        }

        @MainActor
        @Test func aNewerEntityKeptUntilItsFirstInjectionIsStillMarkedInjected() async {
            let token = EntityInjectResolver.register(ScreenImpl("kept"))
            #expect(ScreenController().screen.name == "kept")
            EntityInjectResolver.registerForFirstInject(ScreenImpl("once"))
            #expect(ScreenController().screen.name == "once")
            // Injected, so removed at the next main-loop turn; every controller of this turn
            // still gets it.
            #expect(ScreenController().screen.name == "once")
            await nextMainLoopTurn()
            #expect(ScreenController().screen.name == "kept")
            withExtendedLifetime(token) {}
        }

        @Test func anEntityRemovedByItsTokenIsNotGivenToTheNextWrapper() {
            let older = EntityInjectResolver.register(ScreenImpl("older"))
            var newer: EntityInjectToken? = EntityInjectResolver.register(ScreenImpl("newer"))
            #expect(ScreenController().screen.name == "newer")
            withExtendedLifetime(newer) {}
            newer = nil
            #expect(ScreenController().screen.name == "older")
            older.remove()
            #expect(!ScreenController().$screen.isReady)
        }

        @Test func aWrapperMadeBeforeItsContainerHasACellAndOneMadeAfterHasNone() throws {
            let late = LateDependencies()
            let cell = try #require(late.cell)
            #expect(!cell.isReady)
            ServiceInjectResolver.register(TestServices.make(tag: "late"))
            #expect(cell.isReady)
            // A first read that finds the value injected meanwhile (by the registering thread)
            // returns it.
            #expect(cell.valueAtFirstRead().tag == "late")
            #expect(late.tagged.tag == "late")
            #expect(LateDependencies().cell == nil)
            #expect(LateDependencies().tagged.tag == "late")
        }

        /// What two threads that both found the value not injected do, one after the other here:
        /// each makes a value, the first to publish wins, the second gets that value back, and
        /// the ready handlers run once.
        @Test func aValuePublishedSecondGivesWayToTheFirst() throws {
            let late = LateDependencies()
            let cell = try #require(late.cell)
            let seen = Box<[String]>([])
            late.$tagged.setReadyHandler { seen.value.append($0.tag) }

            let first = Tagged("first")
            #expect(cell.publish(first) === first)
            #expect(cell.publish(Tagged("second")) === first)
            #expect(late.tagged === first)
            #expect(seen.value == ["first"])
        }

        @Test(.offThePool) func wrappersMadeOnManyThreadsWhileContainersChangeGetARegisteredOne() throws {
            let rounds = 200
            let threads = 4
            let registered = Set((0..<rounds).map { "round \($0)" })
            let seen = Box<Set<String>>([])
            let lock = NSLock()
            try withTimeLimit {
                DispatchQueue.concurrentPerform(iterations: threads + 1) { thread in
                    if thread == threads {
                        for round in 0..<rounds {
                            ServiceInjectResolver.register(TestServices.make(tag: "round \(round)"), failureIfContains: false)
                            if round % 2 == 0 {
                                ServiceInjectResolver.remove(TestServices.self, onlyLast: true)
                            }
                        }
                        return
                    }
                    var tags: Set<String> = []
                    for _ in 0..<rounds {
                        let presenter = ByTypeAndProtocolPresenter()
                        if presenter.$byType.isReady { tags.insert(presenter.byType.tag) }
                        if presenter.$byProtocol.isReady { tags.insert(presenter.byProtocol.tag) }
                    }
                    lock.withLock { seen.value.formUnion(tags) }
                }
            }
            // Only the odd rounds stay registered; a wrapper may have been made while an even
            // one was, before its removal.
            #expect(seen.value.isSubset(of: registered))
            #expect(ByTypeAndProtocolPresenter().tags == ["round 199", "round 199", "round 199"])
            #expect(ServiceInjectResolver.registry.counts == (rounds / 2, 0))
        }
    }
}
