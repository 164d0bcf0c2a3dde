import Foundation
import Testing
import ServiceInjects
import TestSupport

final class TestPresenter {
    @ServiceInject(\TestServices.tagged) var tagged
    @ServiceInject(\TestServices.lazyTagged, lazyInject: true) var lazyTagged
    @ServiceInject(\TestServices.nested.deeper.tagged) var nested
    @ServiceInject(\TestServices.optionalTagged) var optionalTagged
    @ServiceInject(\TestServices.missingTagged) var missingTagged
    @ServiceInject(\TestServices.missingTagged, lazyInject: true) var lazyMissingTagged
}

/// A container whose providers are safe ones, declared with their own types, as
/// `serviceSafeProvider()` gives them.
struct SafeServices {
    let tagged = ServiceSafeProvider<Tagged>(mode: .lazy) { Tagged("safe") }
    let optionalTagged: ServiceSafeProvider<Tagged>? = ServiceSafeProvider<Tagged>(Tagged("optional-safe"))
    let params = ServiceParamsSafeProvider<Tagged, String> { Tagged("safe-\($0)") }
    let optionalParams: ServiceParamsSafeProvider<Tagged, String>? = ServiceParamsSafeProvider { Tagged("optional-\($0)") }
}

/// Every wrapper, at the key paths of safe providers: a safe provider is a `ServiceProvider`.
final class SafePresenter {
    @ServiceInject(\SafeServices.tagged) var tagged
    @ServiceInject(\SafeServices.optionalTagged) var optionalTagged
    @ServiceParamsInject(\SafeServices.params, params: "1") var params
    @ServiceParamsInject(\SafeServices.optionalParams, params: "2") var optionalParams
    @ServiceProviderInject(\SafeServices.tagged) var taggedProvider
    @ServiceProviderInject(\SafeServices.optionalTagged) var optionalTaggedProvider
    @ServiceProviderInject(\SafeServices.params) var paramsProvider
    @ServiceProviderInject(\SafeServices.optionalParams) var optionalParamsProvider
}

extension InjectsTests {
    @Suite struct ServiceInjectTests {
        init() { resetRegistries() }

        @Test func injectsAtCreationWhenRegistered() {
            let made = Counter()
            ServiceInjectResolver.register(TestServices.make(tag: "a", made: made))
            let presenter = TestPresenter()
            #expect(presenter.$tagged.isReady)
            #expect(presenter.$nested.isReady)
            #expect(!presenter.$lazyTagged.isReady)
            #expect(made.value == 0)
            #expect(presenter.tagged.tag == "a")
            #expect(presenter.nested.tag == "nested-a")
            #expect(presenter.optionalTagged?.tag == "optional-a")
            #expect(presenter.missingTagged == nil)
            #expect(presenter.lazyMissingTagged == nil)
            #expect(presenter.$missingTagged.isReady)
        }

        @Test("Every wrapper takes the key path of a safe provider, as made or waiting", arguments: [true, false])
        func safeProviders(registeredFirst: Bool) throws {
            if registeredFirst { ServiceInjectResolver.register(SafeServices()) }
            let presenter = SafePresenter()
            if !registeredFirst { ServiceInjectResolver.register(SafeServices()) }
            #expect(presenter.tagged.tag == "safe")
            #expect(presenter.optionalTagged?.tag == "optional-safe")
            #expect(presenter.params.tag == "safe-1")
            #expect(presenter.optionalParams?.tag == "optional-2")
            // The providers keep their own types.
            let taggedProvider: ServiceSafeProvider<Tagged> = presenter.taggedProvider
            #expect(taggedProvider.getServiceOrFatal() === presenter.tagged)
            #expect(try #require(presenter.optionalTaggedProvider).getServiceOrFatal().tag == "optional-safe")
            let paramsProvider: ServiceParamsSafeProvider<Tagged, String> = presenter.paramsProvider
            #expect(try paramsProvider.getService(params: "3").tag == "safe-3")
            #expect(try #require(presenter.optionalParamsProvider).getServiceOrFatal(params: "4").tag == "optional-4")
        }

        @Test func lazyInjectionHappensAtFirstReadOnce() {
            let made = Counter()
            ServiceInjectResolver.register(TestServices.make(tag: "a", made: made))
            let presenter = TestPresenter()
            #expect(made.value == 0)
            let first = presenter.lazyTagged
            #expect(made.value == 1)
            #expect(presenter.$lazyTagged.isReady)
            #expect(presenter.lazyTagged === first)
            #expect(first.tag == "lazy-a")
        }

        @Test func waitingWrapperIsInjectedAtRegistration() {
            let presenter = TestPresenter()
            #expect(!presenter.$tagged.isReady)
            #expect(!presenter.$missingTagged.isReady)
            ServiceInjectResolver.register(TestServices.make(tag: "late"))
            #expect(presenter.$tagged.isReady)
            #expect(presenter.$nested.isReady)
            #expect(presenter.$missingTagged.isReady)
            #expect(!presenter.$lazyTagged.isReady)
            #expect(presenter.tagged.tag == "late")
            #expect(presenter.lazyTagged.tag == "lazy-late")
        }

        @Test func copyOfAWaitingWrapperReadsTheServiceAfterTheOriginalIsGone() {
            struct Dependencies {
                @ServiceInject(\TestServices.tagged) var tagged
                @ServiceInject(\TestServices.lazyTagged, lazyInject: true) var lazyTagged
            }
            var original: Dependencies? = Dependencies()
            let copy = original
            original = nil
            #expect(original == nil)
            ServiceInjectResolver.register(TestServices.make(tag: "copied"))
            #expect(copy?.$tagged.isReady == true)
            #expect(copy?.tagged.tag == "copied")
            #expect(copy?.lazyTagged.tag == "lazy-copied")
            #expect(copy?.lazyTagged === copy?.lazyTagged)
        }

        @Test func injectedServiceStaysAfterANewerContainer() {
            ServiceInjectResolver.register(TestServices.make(tag: "first"))
            let presenter = TestPresenter()
            ServiceInjectResolver.register(TestServices.make(tag: "second"), failureIfContains: false)
            #expect(presenter.tagged.tag == "first")
            // A lazy one takes the newest container at its first read.
            #expect(presenter.lazyTagged.tag == "lazy-second")
        }

        @Test func readyHandlerRunsRightAfterInjectionBeforeUse() {
            let presenter = TestPresenter()
            let order = Box<[String]>([])
            presenter.$tagged.setReadyHandler { order.value.append("first \($0.tag)") }
            presenter.$tagged.setReadyHandler { order.value.append("second \($0.tag)") }
            #expect(order.value.isEmpty)
            ServiceInjectResolver.register(TestServices.make(tag: "x"))
            #expect(order.value == ["first x", "second x"])
            presenter.$tagged.setReadyHandler { order.value.append("at once \($0.tag)") }
            #expect(order.value == ["first x", "second x", "at once x"])
        }

        @Test func readyHandlerOfALazyWrapperRunsAtFirstRead() {
            ServiceInjectResolver.register(TestServices.make(tag: "x"))
            let presenter = TestPresenter()
            let seen = Box<String?>(nil)
            presenter.$lazyTagged.setReadyHandler { service in
                seen.value = service.tag
                // The property can be read from its handler.
                #expect(presenter.lazyTagged === service)
                #expect(presenter.$lazyTagged.isReady)
            }
            #expect(seen.value == nil)
            #expect(presenter.lazyTagged.tag == "lazy-x")
            #expect(seen.value == "lazy-x")
        }

        @Test func releasedPresenterIsNotInjectedLater() {
            let handlerRuns = Counter()
            do {
                let presenter = TestPresenter()
                presenter.$tagged.setReadyHandler { _ in handlerRuns.increment() }
            }
            ServiceInjectResolver.register(TestServices.make())
            #expect(handlerRuns.value == 0)
        }

        @Test func wrapperWorksInAStructAndItsCopies() {
            struct Holder {
                @ServiceInject(\TestServices.tagged) var tagged
            }
            let holder = Holder()
            let copy = holder
            ServiceInjectResolver.register(TestServices.make(tag: "shared"))
            #expect(holder.$tagged.isReady)
            #expect(copy.tagged === holder.tagged)
        }
    }

    @Suite struct ServiceProviderInjectTests {
        init() { resetRegistries() }

        struct Providers {
            @ServiceProviderInject(\TestServices.tagged) var tagged
            @ServiceProviderInject(\TestServices.optionalTagged) var optionalTagged
            @ServiceProviderInject(\TestServices.missingTagged) var missingTagged
            @ServiceProviderInject(\TestServices.params) var params
            @ServiceProviderInject(\TestServices.optionalParams) var optionalParams
            @ServiceProviderInject(\TestServices.missingParams) var missingParams
            @ServiceProviderInject(\TestServices.nested.deeper.tagged) var nested
        }

        @Test func injectsEveryKindOfProvider() throws {
            ServiceInjectResolver.register(TestServices.make(tag: "p"))
            let providers = Providers()
            #expect(providers.tagged.getServiceAsOptional()?.tag == "p")
            #expect(try #require(providers.optionalTagged).getServiceOrFatal().tag == "optional-p")
            #expect(providers.missingTagged == nil)
            #expect(try providers.params.getService(params: "1").tag == "p-1")
            #expect(try #require(providers.optionalParams).getServiceOrFatal(params: "2").tag == "optional-p-2")
            #expect(providers.missingParams == nil)
            #expect(providers.nested.getServiceOrFatal().tag == "nested-p")
            #expect(providers.$tagged.isReady)
        }

        @Test func waitsForTheContainer() {
            let providers = Providers()
            #expect(!providers.$tagged.isReady)
            let seen = Box<String?>(nil)
            providers.$tagged.setReadyHandler { seen.value = $0.getServiceAsOptional()?.tag }
            ServiceInjectResolver.register(TestServices.make(tag: "later"))
            #expect(seen.value == "later")
            #expect(providers.tagged.getServiceOrFatal().tag == "later")
        }

        /// A container of the providers whose gets are awaited or run on the main actor.
        struct AwaitedServices {
            let remote = ServiceAsyncProvider(Tagged("remote"))
            let reports = ServiceAsyncParamsProvider<Tagged, String> { Tagged("report-\($0)") }
            let screen = ServiceMainActorProvider<Tagged>(mode: .lazy) { Tagged("screen") }
        }

        struct AwaitedProviders {
            @ServiceProviderInject(\AwaitedServices.remote) var remote
            @ServiceProviderInject(\AwaitedServices.reports) var reports
            @ServiceProviderInject(\AwaitedServices.screen) var screen
        }

        @Test @MainActor func injectsAsyncAndMainActorProviders() async throws {
            let services = AwaitedServices()
            ServiceInjectResolver.register(services)
            let providers = AwaitedProviders()
            #expect(providers.remote === services.remote)
            #expect(providers.reports === services.reports)
            #expect(providers.screen === services.screen)
            #expect(try await providers.remote.getService().tag == "remote")
            #expect(try await providers.reports.getService(params: "May").tag == "report-May")
            #expect(try providers.screen.getService().tag == "screen")
        }

        @Test func convertInitializerTransformsTheValue() {
            ServiceInjectResolver.register(TestServices.make(tag: "c"))
            @ServiceProviderInject(\TestServices.tagged, convert: { $0.getServiceOrFatal().tag.uppercased() })
            var upper: String
            #expect(upper == "C")
        }
    }
}

@MainActor
final class MainActorScreen {
    @ServiceInject(\TestServices.tagged) var tagged
    @EntityInject(\Settings.theme.color) var color
}

extension InjectsTests {
    @Suite struct MainActorTests {
        init() { resetRegistries() }

        @Test @MainActor func mainActorScreenIsInjectedByABackgroundRegistration() async {
            let screen = MainActorScreen()
            await Task.detached {
                ServiceInjectResolver.register(TestServices.make(tag: "detached"))
                EntityInjectResolver.registerForFirstInject(Settings(theme: .init(color: "teal")))
            }.value
            #expect(screen.$tagged.isReady)
            #expect(screen.tagged.tag == "detached")
            #expect(screen.color == "teal")
        }
    }
}
