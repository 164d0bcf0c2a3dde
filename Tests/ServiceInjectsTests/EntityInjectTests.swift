import Foundation
import Testing
@testable import ServiceInjects
import TestSupport

protocol Screen: AnyObject {
    var name: String { get }
}

final class ScreenImpl: Screen {
    let name: String
    init(_ name: String) { self.name = name }
}

struct Settings {
    struct Theme { let color: String }
    let theme: Theme
}

final class ScreenController {
    @EntityInject(Screen.self) var screen
    @EntityInject(\Settings.theme.color) var color
}

extension InjectsTests {
    @Suite struct EntityInjectTests {
        init() { resetRegistries() }

        @Test func tokenKeepsTheEntityRegistered() {
            var token: EntityInjectToken? = EntityInjectResolver.register(ScreenImpl("a"))
            #expect(EntityInjectResolver.contains(Screen.self))
            #expect(EntityInjectResolver.contains(ScreenImpl.self))
            let controller = ScreenController()
            #expect(controller.screen.name == "a")
            withExtendedLifetime(token) {}
            token = nil
            #expect(!EntityInjectResolver.contains(Screen.self))
            // Injected values stay.
            #expect(controller.screen.name == "a")
        }

        @Test func tokenRemoveRemovesAtOnce() {
            let token = EntityInjectResolver.register(ScreenImpl("a"))
            token.remove()
            #expect(!EntityInjectResolver.contains(Screen.self))
        }

        @Test func latestRegistrationWins() {
            let first = EntityInjectResolver.register(ScreenImpl("first"))
            var second: EntityInjectToken? = EntityInjectResolver.register(ScreenImpl("second"))
            #expect(ScreenController().screen.name == "second")
            withExtendedLifetime(second) {}
            second = nil
            #expect(ScreenController().screen.name == "first")
            withExtendedLifetime(first) {}
        }

        @Test func registerSomeGivesATokenPerEntity() {
            var tokens: [EntityInjectToken] = EntityInjectResolver.registerSome([
                ScreenImpl("some"), Settings(theme: .init(color: "red")),
            ])
            #expect(tokens.count == 2)
            let controller = ScreenController()
            #expect(controller.screen.name == "some")
            #expect(controller.color == "red")
            tokens.removeFirst()
            #expect(!EntityInjectResolver.contains(Screen.self))
            #expect(EntityInjectResolver.contains(Settings.self))
            tokens.removeAll()
            #expect(!EntityInjectResolver.contains(Settings.self))
        }

        @Test func wrapperMadeBeforeRegistrationIsInjectedAtRegistration() {
            let controller = ScreenController()
            #expect(!controller.$screen.isReady)
            let seen = Box<String?>(nil)
            controller.$screen.setReadyHandler { seen.value = $0.name }
            let token = EntityInjectResolver.register(ScreenImpl("later"))
            #expect(controller.$screen.isReady)
            #expect(seen.value == "later")
            #expect(!controller.$color.isReady)
            withExtendedLifetime(token) {}
        }

        @Test(arguments: [false, true])
        func removeRemovesAllOrTheNewest(onlyLast: Bool) {
            let tokens = [
                EntityInjectResolver.register(ScreenImpl("1")),
                EntityInjectResolver.register(ScreenImpl("2")),
            ]
            #expect(EntityInjectResolver.remove(Screen.self, onlyLast: onlyLast))
            #expect(EntityInjectResolver.contains(Screen.self) == onlyLast)
            if onlyLast {
                #expect(ScreenController().screen.name == "1")
            }
            withExtendedLifetime(tokens) {}
        }

        @Test func readyHandler() throws {
            let calls = Counter()
            let token = try #require(EntityInjectResolver.addReadyContainerHandler(Settings.self) { calls.increment() })
            #expect(token.isWaiting)
            let entity = EntityInjectResolver.register(Settings(theme: .init(color: "c")))
            #expect(calls.value == 1)
            #expect(EntityInjectResolver.addReadyContainerHandler(Settings.self) { calls.increment() } == nil)
            #expect(calls.value == 2)
            withExtendedLifetime(entity) {}
        }

        @Test func removeAllForgetsEntitiesAndLeavesTokensHarmless() {
            var token: EntityInjectToken? = EntityInjectResolver.register(ScreenImpl("a"))
            EntityInjectResolver.removeAll()
            #expect(!EntityInjectResolver.contains(Screen.self))
            let other = EntityInjectResolver.register(ScreenImpl("b"))
            withExtendedLifetime(token) {}
            token = nil
            #expect(EntityInjectResolver.contains(Screen.self))
            withExtendedLifetime(other) {}
        }

        @Test @MainActor func firstInjectEntityIsRemovedAtTheNextMainLoopTurn() async {
            let logger = RecordingInjectLogger()
            logger.register()
            defer { logger.unregister() }

            EntityInjectResolver.registerForFirstInject(ScreenImpl("once") as Screen)
            #expect(EntityInjectResolver.contains(Screen.self))
            let first = ScreenController()
            // Still there for every injection in the same turn.
            let second = ScreenController()
            #expect(EntityInjectResolver.contains(Screen.self))
            #expect(first.screen === second.screen)

            await nextMainLoopTurn()
            #expect(!EntityInjectResolver.contains(Screen.self))
            #expect(first.screen.name == "once")
            #expect(logger.recorded == ["removed ScreenImpl injected: true"])
        }

        @Test @MainActor func firstInjectEntityIsKeptUntilInjected() async {
            EntityInjectResolver.registerForFirstInject(ScreenImpl("kept"))
            await nextMainLoopTurn()
            #expect(EntityInjectResolver.contains(Screen.self))
            // A waiting wrapper's injection at registration counts too.
            EntityInjectResolver.removeAll()
            let waiting = ScreenController()
            EntityInjectResolver.registerForFirstInjectSome([ScreenImpl("w"), Settings(theme: .init(color: "g"))])
            #expect(waiting.screen.name == "w")
            #expect(waiting.color == "g")
            await nextMainLoopTurn()
            #expect(!EntityInjectResolver.contains(Screen.self))
            #expect(!EntityInjectResolver.contains(Settings.self))
        }

        @Test @MainActor func lazyFirstReadCountsAsTheInjection() async {
            let controller = ScreenController()
            EntityInjectResolver.removeAll()  // drops the pending injection: the read resolves it
            EntityInjectResolver.registerForFirstInject(ScreenImpl("read"))
            await nextMainLoopTurn()
            #expect(EntityInjectResolver.contains(Screen.self))
            #expect(controller.screen.name == "read")
            await nextMainLoopTurn()
            #expect(!EntityInjectResolver.contains(Screen.self))
        }

        @Test @MainActor func uninjectedEntityIsRemovedAfterTheDelay() async throws {
            let logger = RecordingInjectLogger()
            logger.register()
            defer { logger.unregister() }

            EntityInjectResolver.registerForFirstInject(ScreenImpl("never"), autoRemoveDelay: 0.05)
            EntityInjectResolver.registerForFirstInject(Settings(theme: .init(color: "used")), autoRemoveDelay: 0.05)
            @EntityInject(\Settings.theme.color) var color
            #expect(color == "used")
            #expect(EntityInjectResolver.contains(Screen.self))
            // The delay runs on the main queue; wait for it (generously, on a loaded machine).
            let deadline = Date().addingTimeInterval(10)
            while EntityInjectResolver.contains(Screen.self), Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(!EntityInjectResolver.contains(Screen.self))
            #expect(!EntityInjectResolver.contains(Settings.self))
            #expect(logger.recorded.sorted() == [
                "removed ScreenImpl after 0.05 s",
                "removed ScreenImpl injected: false",
                "removed Settings injected: true",
            ])
        }

        @Test("A ready handler that a first-inject entity runs is not its injection: the entity stays")
        @MainActor func readyHandlerIsNoInjection() async {
            let logger = RecordingInjectLogger()
            logger.register()
            defer { logger.unregister() }
            let ran = Counter()
            let token = EntityInjectResolver.addReadyContainerHandler(Screen.self) { ran.increment() }
            EntityInjectResolver.registerForFirstInject(ScreenImpl("handled") as Screen)
            #expect(ran.value == 1)
            await nextMainLoopTurn()
            await nextMainLoopTurn()
            #expect(EntityInjectResolver.contains(Screen.self))
            #expect(logger.recorded.isEmpty)
            withExtendedLifetime(token) {}
        }

        @Test("An entity injected after its delay passed, before the main queue ran the removal, is reported as injected")
        @MainActor func injectedWhileTheRemovalWaits() async throws {
            let logger = RecordingInjectLogger()
            logger.register()
            defer { logger.unregister() }
            EntityInjectResolver.registerForFirstInject(Settings(theme: .init(color: "late")), autoRemoveDelay: 0.05)
            usleep(200_000)  // the main queue is busy here while the delay passes: its removal waits
            @EntityInject(\Settings.theme.color) var color
            #expect(color == "late")
            // Both removals run on the main queue: wait for them (generously, on a loaded machine).
            let deadline = Date().addingTimeInterval(10)
            while EntityInjectResolver.contains(Settings.self) || logger.recorded.isEmpty, Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            await nextMainLoopTurn()
            #expect(!EntityInjectResolver.contains(Settings.self))
            #expect(logger.recorded == ["removed Settings injected: true"])
        }

        @Test("A delay of zero or less removes the entity at the next main-loop turn", arguments: [0, -1, -3_600])
        @MainActor func delayOfZeroOrLess(delay: Double) async {
            EntityInjectResolver.removeAll()
            EntityInjectResolver.registerForFirstInject(ScreenImpl("never"), autoRemoveDelay: delay)
            #expect(EntityInjectResolver.contains(Screen.self))
            await nextMainLoopTurn()
            #expect(!EntityInjectResolver.contains(Screen.self))
        }

        @Test("An infinite or NaN delay never removes the entity", arguments: [Double.infinity, .nan])
        @MainActor func delayOfNever(delay: Double) async throws {
            EntityInjectResolver.removeAll()
            EntityInjectResolver.registerForFirstInject(ScreenImpl("never"), autoRemoveDelay: delay)
            for _ in 0..<10 {
                await nextMainLoopTurn()
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(EntityInjectResolver.contains(Screen.self))
            EntityInjectResolver.removeAll()
        }

        @Test @MainActor func removeAllVoidsPendingRemovals() async {
            EntityInjectResolver.registerForFirstInject(ScreenImpl("old"))
            _ = ScreenController().screen
            EntityInjectResolver.removeAll()
            let token = EntityInjectResolver.register(ScreenImpl("new"))
            await nextMainLoopTurn()
            #expect(EntityInjectResolver.contains(Screen.self))
            withExtendedLifetime(token) {}
            #expect(EntityInjectResolver.registry.counts.entries == 1)
        }
    }
}
