import Foundation
import Testing
import ServiceInjects

struct ParamsDependencies {
    @ServiceParamsInject(\TestServices.params, params: "at-init") var atInit
    @ServiceParamsInject(\TestServices.params, params: "lazy", lazyInject: true) var lazyAtInit
    @ServiceParamsInject(\TestServices.params) var later
    @ServiceParamsInject(\TestServices.params, lazyInject: true) var lazyLater
    @ServiceParamsInject(\TestServices.optionalParams, params: "opt") var optional
    @ServiceParamsInject(\TestServices.missingParams, params: "none") var missing
    @ServiceParamsInject(\TestServices.optionalParams) var optionalLater
    @ServiceParamsInject(\TestServices.missingParams, lazyInject: true) var missingLater
}

extension InjectsTests {
    @Suite struct ServiceParamsInjectTests {
        init() { resetRegistries() }

        @Test func paramsFromTheAttribute() {
            ServiceInjectResolver.register(TestServices.make(tag: "s"))
            let dependencies = ParamsDependencies()
            #expect(dependencies.$atInit.isReady)
            #expect(!dependencies.$lazyAtInit.isReady)
            #expect(dependencies.atInit.tag == "s-at-init")
            #expect(dependencies.lazyAtInit.tag == "s-lazy")
            #expect(dependencies.$lazyAtInit.isReady)
            #expect(dependencies.optional?.tag == "optional-s-opt")
            #expect(dependencies.missing == nil)
            #expect(!dependencies.$later.isReady)
            #expect(!dependencies.$optionalLater.isReady)
        }

        @Test func setParametersInjectsNowWhenRegistered() {
            ServiceInjectResolver.register(TestServices.make(tag: "s"))
            let dependencies = ParamsDependencies()
            dependencies.$later.setParameters("given")
            #expect(dependencies.$later.isReady)
            #expect(dependencies.later.tag == "s-given")
            dependencies.$optionalLater.setParameters("o")
            #expect(dependencies.optionalLater?.tag == "optional-s-o")
            dependencies.$missingLater.setParameters("m")
            #expect(!dependencies.$missingLater.isReady)
            #expect(dependencies.missingLater == nil)
        }

        @Test func setParametersKeepsTheAttributesLazinessByDefault() {
            ServiceInjectResolver.register(TestServices.make(tag: "s"))
            let dependencies = ParamsDependencies()
            dependencies.$lazyLater.setParameters("p")
            #expect(!dependencies.$lazyLater.isReady)
            #expect(dependencies.lazyLater.tag == "s-p")
        }

        @Test(arguments: [(false, true), (true, false)])
        func setParametersOverridesLaziness(attributeLazy: Bool, callLazy: Bool) {
            ServiceInjectResolver.register(TestServices.make(tag: "s"))
            @ServiceParamsInject(\TestServices.params, lazyInject: attributeLazy) var service
            $service.setParameters("p", lazyInject: callLazy)
            #expect($service.isReady == !callLazy)
            #expect(service.tag == "s-p")
        }

        @Test func paramsBeforeTheContainerWaitForIt() {
            let dependencies = ParamsDependencies()
            dependencies.$later.setParameters("early")
            #expect(!dependencies.$atInit.isReady)
            #expect(!dependencies.$later.isReady)
            let seen = Box<String?>(nil)
            dependencies.$later.setReadyHandler { seen.value = $0.tag }
            ServiceInjectResolver.register(TestServices.make(tag: "s"))
            #expect(dependencies.$atInit.isReady)
            #expect(dependencies.$later.isReady)
            #expect(seen.value == "s-early")
            #expect(dependencies.later.tag == "s-early")
            #expect(!dependencies.$lazyAtInit.isReady)
        }

        @Test func containerBeforeParamsInjectsAtSetParameters() {
            let dependencies = ParamsDependencies()
            ServiceInjectResolver.register(TestServices.make(tag: "s"))
            #expect(!dependencies.$later.isReady)
            dependencies.$later.setParameters("now")
            #expect(dependencies.$later.isReady)
            #expect(dependencies.later.tag == "s-now")
        }
    }
}
