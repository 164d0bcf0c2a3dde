// Code written as users of ServiceInjects 3.0 wrote it: the calls are spelled as in 3.0's own
// tests.
import Testing
import ServiceInjects

private protocol BaseContainer {}

private struct SimpleContainer: BaseContainer {
    let tagged: ServiceProvider<Tagged>
    static func make() -> SimpleContainer { SimpleContainer(tagged: ServiceProvider(Tagged("simple"))) }
}

private final class FirstEntity {}
private final class SecondEntity {}

extension InjectsTests {
    @Suite("ServiceInjects 3.0 spellings") struct OriginalSpellingTests {
        init() { resetRegistries() }

        @Test("Releasing a ServiceInjectReadyToken cancels its handler")
        func readyContainerInvalidate() {
            var token: ServiceInjectReadyToken? = ServiceInjectResolver.addReadyContainerHandler(BaseContainer.self) {
                Issue.record("a handler whose token was released must not run")
            }
            #expect(token?.isWaiting == true)
            token = nil
            ServiceInjectResolver.register(SimpleContainer.make())
            #expect(ServiceInjectResolver.contains(BaseContainer.self))
            _ = token.self
        }

        @Test("A kept ServiceInjectReadyToken lets its handler run once; none when already registered")
        func readyContainerHandler() {
            var calls = 0
            let token1 = ServiceInjectResolver.addReadyContainerHandler(BaseContainer.self) { calls += 1 }
            #expect(token1 != nil)
            #expect(calls == 0)
            ServiceInjectResolver.register(SimpleContainer.make())
            #expect(calls == 1)
            let token2 = ServiceInjectResolver.addReadyContainerHandler(BaseContainer.self) { calls += 1 }
            #expect(token2 == nil)
            #expect(calls == 2)
            ServiceInjectResolver.register(SimpleContainer.make(), failureIfContains: false)
            #expect(calls == 2)
            _ = token1.self
            _ = token2.self
        }

        @Test("Releasing an EntityInjectReadyToken cancels its handler")
        func entityReadyContainerInvalidate() {
            var token: EntityInjectReadyToken? = EntityInjectResolver.addReadyContainerHandler(BaseContainer.self) {
                Issue.record("a handler whose token was released must not run")
            }
            token = nil
            let tokenEntity = EntityInjectResolver.register(SimpleContainer.make())
            #expect(EntityInjectResolver.contains(BaseContainer.self))
            _ = token.self
            _ = tokenEntity.self
        }

        @Test("A kept EntityInjectReadyToken lets its handler run")
        func entityReadyContainerHandler() {
            var calls = 0
            let token = EntityInjectResolver.addReadyContainerHandler(BaseContainer.self) { calls += 1 }
            let tokenEntity = EntityInjectResolver.register(SimpleContainer.make())
            #expect(calls == 1)
            _ = token.self
            _ = tokenEntity.self
        }

        @Test("EntityInjectResolver.registerSome gives one token per entity")
        func registerSomeTokens() {
            var tokens: [EntityInjectToken] = EntityInjectResolver.registerSome([FirstEntity(), SecondEntity()])
            #expect(tokens.count == 2)
            #expect(EntityInjectResolver.contains(FirstEntity.self))
            #expect(EntityInjectResolver.contains(SecondEntity.self))
            tokens.removeLast()
            #expect(EntityInjectResolver.contains(FirstEntity.self))
            #expect(!EntityInjectResolver.contains(SecondEntity.self))
            tokens = []
            #expect(!EntityInjectResolver.contains(FirstEntity.self))
        }

        @Test("The earlier ServiceInjectToken name still names the ready token")
        @available(*, deprecated, message: "uses the deprecated ServiceInjectToken name on purpose")
        func deprecatedTokenName() {
            let token: ServiceInjectToken? = ServiceInjectResolver.addReadyContainerHandler(BaseContainer.self) {}
            #expect(token?.isWaiting == true)
        }
    }
}
