import Testing
@testable import ServiceInjects

// What a scope does to the process's registries, and they to it: nothing. These tests register
// in the process's registries, so they are in the serialized `InjectsTests`.

extension InjectsTests {
    @Suite struct ProcessAndScopeTests {
        init() { resetRegistries() }

        @Test func aScopeDoesNotSeeTheProcessRegistriesNorChangeThem() {
            ServiceInjectResolver.register(TestServices.make(tag: "process"))
            let token = EntityInjectResolver.register(ScreenImpl("process"))
            let waiting = ScopePresenter()
            withIsolatedInjectRegistries {
                #expect(!ServiceInjectResolver.contains(TestServices.self))
                #expect(!EntityInjectResolver.contains(Screen.self))
                ServiceInjectResolver.register(ScopeServices.make(tag: "scope"))
                ServiceInjectResolver.register(TestServices.make(tag: "scope"))  // no duplicate: another registry
                #expect(TestPresenter().tagged.tag == "scope")
                ServiceInjectResolver.removeAll()
                EntityInjectResolver.removeAll()
            }
            #expect(!waiting.$tagged.isReady)  // the scope's registration is not the process's
            #expect(!ServiceInjectResolver.contains(ScopeServices.self))
            #expect(ServiceInjectResolver.registry.counts.entries == 1)
            #expect(TestPresenter().tagged.tag == "process")
            #expect(ScreenController().screen.name == "process")
            withExtendedLifetime(token) {}
        }

        @Test func aWrapperMadeInAScopeIsNotInjectedFromTheProcessRegistries() {
            let presenter = withIsolatedInjectRegistries { TestPresenter() }
            let handled = Box(false)
            let readyToken = withIsolatedInjectRegistries {
                ServiceInjectResolver.addReadyContainerHandler(TestServices.self) { handled.value = true }
            }
            ServiceInjectResolver.register(TestServices.make(tag: "process"))
            #expect(!presenter.$tagged.isReady)
            #expect(!handled.value)
            #expect(readyToken?.isWaiting == true)
            #expect(ServiceInjectResolver.registry.counts == (1, 0))
        }

        @Test func outsideEveryScopeTheProcessRegistriesAreUsed() async {
            #expect(InjectRegistries.isolated == nil)
            #expect(ServiceInjectResolver.registry === InjectRegistries.process.containers)
            #expect(EntityInjectResolver.registry === InjectRegistries.process.entities)
            #expect(ServiceInjectResolver.registry.resolverName == "ServiceInjectResolver")
            #expect(EntityInjectResolver.registry.resolverName == "EntityInjectResolver")
            let presenter = TestPresenter()
            await Task.detached { ServiceInjectResolver.register(TestServices.make(tag: "detached")) }.value
            #expect(presenter.tagged.tag == "detached")
        }

        // Its automatic removals are reported to the process's loggers, which other tests of
        // the serialized suite record.
        @MainActor
        @Test func firstInjectEntitiesAreRemovedFromTheScopeAtTheNextMainLoopTurn() async {
            await withIsolatedInjectRegistries {
                EntityInjectResolver.registerForFirstInject(ScopeEntity("first"))
                #expect(ScopeEntityController().entity.name == "first")
                #expect(EntityInjectResolver.contains(ScopeEntity.self))
                await nextMainLoopTurn()
                #expect(!EntityInjectResolver.contains(ScopeEntity.self))

                // Never injected: removed after the delay, from the scope's registry.
                EntityInjectResolver.registerForFirstInjectSome([ScopeEntity("never")], autoRemoveDelay: 0.01)
                let deadline = ContinuousClock.now + .seconds(10)
                while EntityInjectResolver.contains(ScopeEntity.self), ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                #expect(!EntityInjectResolver.contains(ScopeEntity.self))
            }
        }
    }
}
