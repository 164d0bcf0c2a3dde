import Foundation
import ServiceContainerKitObjC
import Testing
import TestSupport

@Suite struct ServiceParamsProviderObjCTests {
    @Test func getServiceWithParamsMakesTheService() throws {
        let objc = ServiceParamsProviderObjC(GreeterFactory().serviceProvider())

        let greeter = try #require(objc.getServiceWithParams("Ann") as? Greeter)
        #expect(greeter.greeting == "Hello, Ann")
        let other = try #require(objc.getServiceOrFatalWithParams("Bob") as? Greeter)
        #expect(other.greeting == "Hello, Bob")
        #expect(other !== greeter)
    }

    @Test func foundationParamsOfTheBridgedTypeAreAccepted() throws {
        let objc = ServiceParamsProviderObjC(GreeterFactory().serviceProvider())

        let greeter = try #require(objc.getServiceWithParams(NSString(string: "Ann")) as? Greeter)
        #expect(greeter.greeting == "Hello, Ann")
    }

    @Test func getServiceWithParamsAndReturnErrorClearsTheError() throws {
        let objc = ServiceParamsProviderObjC(GreeterFactory().serviceProvider())
        var error: NSError? = NSError(domain: "stale", code: 1)

        let greeter = try #require(objc.getServiceWithParams("Cy", andReturnError: &error) as? Greeter)
        #expect(greeter.greeting == "Hello, Cy")
        #expect(error == nil)
        #expect((objc.getServiceWithParams("Di", andReturnError: nil) as? Greeter)?.greeting == "Hello, Di")
    }

    @Test(arguments: [5 as (any Sendable)?, 2.5, NSNumber(value: 1), nil])
    func wrongParamsGiveTheWrongParamsCode(params: (any Sendable)?) throws {
        let objc = ServiceParamsProviderObjC(GreeterFactory().serviceProvider())

        #expect(objc.getServiceWithParams(params) == nil)
        var error: NSError?
        #expect(objc.getServiceWithParams(params, andReturnError: &error) == nil)

        let nsError = try bridgeError(error)
        #expect(nsError.code == ServiceObjCErrorCode.wrongParams.rawValue)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        #expect(underlying.isWrongParams)
        guard case .wrongParams(let expected, _)? = underlying.error as? ServiceFactoryError else {
            Issue.record("expected wrongParams, got \(underlying.error)")
            return
        }
        #expect(same(expected, String.self))
        #expect(nsError.localizedDescription == underlying.fatalMessage)
        #expect(nsError.localizedDescription.contains("Greeter"))
        #expect(nsError.localizedDescription.contains("String"))
        #expect(nsError.userInfo[ServiceObjCError.serviceTypeKey] as? String == String(reflecting: Greeter.self))
    }

    @Test func nilStandsForNilOfOptionalParams() throws {
        let objc = ServiceParamsProviderObjC(OptionalParamsFactory().serviceProvider())

        #expect((objc.getServiceWithParams(nil) as? FirstService)?.name == "number -1")
        #expect((objc.getServiceWithParams(3) as? FirstService)?.name == "number 3")
        #expect((objc.getServiceWithParams(Int?.some(4)) as? FirstService)?.name == "number 4")

        var error: NSError?
        #expect(objc.getServiceWithParams("three", andReturnError: &error) == nil)
        #expect(ServiceObjCError.code(of: try bridgeError(error)) == .wrongParams)
    }

    @Test func nilOfAnotherOptionalTypeIsWrongParams() throws {
        let objc = ServiceParamsProviderObjC(OptionalParamsFactory().serviceProvider())

        var error: NSError?
        #expect(objc.getServiceWithParams(Optional<String>.none as Any, andReturnError: &error) == nil)
        #expect(ServiceObjCError.code(of: try bridgeError(error)) == .wrongParams)
        #expect((objc.getServiceWithParams(Optional<Int>.none as Any) as? FirstService)?.name == "number -1")
    }

    @Test func foundationParamsForOptionalParamsAreAccepted() throws {
        let objc = ServiceParamsProviderObjC(ServiceParamsProvider<FirstService, String?> { FirstService(name: $0 ?? "none") })

        #expect((objc.getServiceWithParams(NSString(string: "ns")) as? FirstService)?.name == "ns")
        #expect((objc.getServiceWithParams("swift") as? FirstService)?.name == "swift")
        #expect((objc.getServiceWithParams(nil) as? FirstService)?.name == "none")
        #expect(objc.getServiceWithParams(NSNumber(value: 1)) == nil)
    }

    @Test func paramsOfTypeAnyAreNeverMissing() throws {
        let objc = ServiceParamsProviderObjC(ServiceParamsProvider<FirstService, Any> { FirstService(name: "\($0)") })

        #expect((objc.getServiceWithParams(5) as? FirstService)?.name == "5")
        #expect((objc.getServiceWithParams(Optional<Int>.some(6) as Any) as? FirstService)?.name == "Optional(6)")
        for params in [nil, Optional<Int>.none as Any] {
            var error: NSError?
            #expect(objc.getServiceWithParams(params, andReturnError: &error) == nil)
            #expect(ServiceObjCError.code(of: try bridgeError(error)) == .wrongParams)
        }
    }

    @Test func factoryFailureIsAnObtainFailure() throws {
        let objc = ServiceParamsProviderObjC(ServiceParamsProvider<FirstService, String> { reason in
            throw TestFactoryError(reason: reason)
        })

        var error: NSError?
        #expect(objc.getServiceWithParams("bad input", andReturnError: &error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .obtainFailure)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        #expect(underlying.error as? TestFactoryError == TestFactoryError(reason: "bad input"))
        #expect(nsError.localizedDescription.contains("bad input"))
    }

    @Test func wrongParamsOfADependencyAreAnObtainFailure() throws {
        let dependency = ServiceParamsProviderObjC(GreeterFactory().serviceProvider())
        let objc = ServiceParamsProviderObjC(ServiceParamsProvider<FirstService, Int> { number in
            // The dependency is asked with params of the wrong type: the failure is the
            // dependency's, not the caller's.
            var error: NSError?
            guard dependency.getServiceWithParams(number, andReturnError: &error) != nil else {
                throw try #require(error?.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
            }
            return FirstService()
        })

        var error: NSError?
        #expect(objc.getServiceWithParams(1, andReturnError: &error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .obtainFailure)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        #expect(underlying.isWrongParams)
        #expect(underlying.isNested)
    }

    @Test func nonNSObjectIsRefusedAndReported() throws {
        struct LocalValue: Sendable {
            let number: Int
        }
        try RefusalRecorder.recording { recorder in
            let objc = ServiceParamsProviderObjC(ServiceParamsProvider<LocalValue, Int> { LocalValue(number: $0) })

            #expect(objc.getServiceWithParams(1) == nil)
            var error: NSError?
            #expect(objc.getServiceWithParams(2, andReturnError: &error) == nil)
            let nsError = try bridgeError(error)
            #expect(ServiceObjCError.code(of: nsError) == .notNSObject)
            let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError)
            #expect(same(underlying.service, LocalValue.self))
            #expect(nsError.localizedDescription.contains("LocalValue"))
            #expect(recorder.count(of: LocalValue.self) == 2)
        }
    }

    @Test func serviceBehindAProtocolIsCheckedOnEachGet() throws {
        let objc = ServiceParamsProviderObjC(ServiceParamsProvider<any GreetingService, String> { greeting in
            Greeter(greeting: greeting)
        })

        #expect((objc.getServiceWithParams("hey") as? Greeter)?.greeting == "hey")
        #expect(same(objc.serviceType, (any GreetingService).self))
        #expect(same(objc.paramsType, String.self))
    }

    @Test(arguments: [ServiceSafeProviderKind.lock, .semaphore, .queue()])
    func safeParamsProvidersAreWrapped(kind: ServiceSafeProviderKind) throws {
        let safe = GreeterFactory().serviceSafeProvider(safeThread: kind)
        let objc = ServiceParamsProviderObjC(safe)

        #expect((objc.getServiceWithParams("safe") as? Greeter)?.greeting == "Hello, safe")
        var error: NSError?
        #expect(objc.getServiceWithParams(1, andReturnError: &error) == nil)
        #expect(ServiceObjCError.code(of: try bridgeError(error)) == .wrongParams)
        #expect(objc.provider(of: Greeter.self, params: String.self) === safe)
    }

    @Test func typedWayBackGivesTheSameProviderOrNil() {
        let provider = GreeterFactory().serviceProvider()
        let objc = ServiceParamsProviderObjC(provider)

        let back: ServiceParamsProvider<Greeter, String>? = objc.provider()
        #expect(back === provider)
        #expect(objc.provider(of: Greeter.self, params: Int.self) == nil)
        #expect(objc.provider(of: FirstService.self, params: String.self) == nil)
    }

    @Test func descriptionNamesBothTypes() {
        let objc = ServiceParamsProviderObjC(GreeterFactory().serviceProvider())
        #expect(objc.description
            == "ServiceParamsProviderObjC<\(String(reflecting: Greeter.self)), \(String(reflecting: String.self))>")
    }

    @Test(.offThePool) func concurrentGetsOfASafeProviderAreSerialized() throws {
        let active = Counter()
        let overlaps = Counter()
        let objc = ServiceParamsProviderObjC(ServiceParamsSafeProvider<FirstService, Int> { number in
            active.increment()
            if active.value > 1 { overlaps.increment() }
            Thread.sleep(forTimeInterval: 0.000_1)
            active.decrement()
            return FirstService(name: "\(number)")
        })

        // On threads of their own, inside a time limit: gets that deadlock in tasks would block
        // the concurrency pool, where no time limit can fire.
        let names = try withTimeLimit {
            let all = FoundValues<String>()
            DispatchQueue.concurrentPerform(iterations: 32) { number in
                if let name = (objc.getServiceWithParams(number) as? FirstService)?.name {
                    all.insert(name)
                }
            }
            return all.all
        }
        #expect(names.count == 32)
        #expect(overlaps.value == 0)
    }

    @Test func getServiceOrFatalWithParamsStopsOnWrongParamsAtTheCallersLine() async {
        let line = #line + 1  // in an exit test's body, a `#line` default argument is the macro's line
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let objc = ServiceParamsProviderObjC(GreeterFactory().serviceProvider())
            _ = objc.getServiceOrFatalWithParams(1)
        }
        #expect(standardError(of: result).contains(
            "ServiceContainerKitObjCTests/ServiceParamsProviderObjCTests.swift:\(line): Fatal error: Failed to obtain service "
                + "\(String(reflecting: Greeter.self))"))
    }
}
