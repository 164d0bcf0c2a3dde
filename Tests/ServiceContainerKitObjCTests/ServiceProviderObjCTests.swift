import Foundation
import ServiceContainerKitObjC
import Testing
import TestSupport

@Suite struct ServiceProviderObjCTests {
    @Test func getServiceGivesTheProvidersInstance() throws {
        let provider = FirstServiceFactory().serviceProvider()
        let objc = ServiceProviderObjC(provider)

        let first = try #require(objc.getService() as? FirstService)
        let second = try #require(objc.getService() as? FirstService)
        #expect(first === second)
        #expect(first === (try provider.getService()))
    }

    @Test(arguments: [ServiceFactoryMode.atOne, .lazy, .weak, .many])
    func everyModeIsHandedOut(mode: ServiceFactoryMode) throws {
        let made = Counter()
        let objc = ServiceProviderObjC(ServiceProvider<FirstService>(mode: mode) {
            made.increment()
            return FirstService(name: "made")
        })

        let first = try #require(objc.getService() as? FirstService)
        let second = try #require(objc.getServiceOrFatal() as? FirstService)
        #expect(first.name == "made")
        #expect((first === second) == (mode != .many))
        #expect(made.value == (mode == .many ? 2 : 1))
    }

    @Test func serviceBehindAProtocolIsHandedOut() throws {
        let provider = ServiceProvider<any GreetingService>(Greeter(greeting: "hi"))
        let objc = ServiceProviderObjC(provider)

        let service = try #require(objc.getService() as? Greeter)
        #expect(service.greeting == "hi")
        #expect(same(objc.serviceType, (any GreetingService).self))
    }

    @Test func getServiceAndReturnErrorGivesTheServiceAndClearsTheError() throws {
        let objc = ServiceProviderObjC(ServiceProvider(FirstService(name: "ready")))
        var error: NSError? = NSError(domain: "stale", code: 7)

        let service = try #require(objc.getServiceAndReturnError(&error) as? FirstService)
        #expect(service.name == "ready")
        #expect(error == nil)
        #expect(objc.getServiceAndReturnError(nil) as? FirstService === service)
    }

    @Test func factoryFailureIsAnObtainFailureError() throws {
        let objc = ServiceProviderObjC(ServiceProvider<FirstService>(mode: .lazy) {
            throw TestFactoryError(reason: "no disk")
        })

        #expect(objc.getService() == nil)
        var error: NSError?
        #expect(objc.getServiceAndReturnError(&error) == nil)

        let nsError = try bridgeError(error)
        #expect(nsError.code == ServiceObjCErrorCode.obtainFailure.rawValue)
        #expect(ServiceObjCError.code(of: nsError) == .obtainFailure)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        #expect(underlying.error as? TestFactoryError == TestFactoryError(reason: "no disk"))
        #expect(nsError.localizedDescription == underlying.fatalMessage)
        #expect(nsError.localizedDescription.contains("FirstService"))
        #expect(nsError.localizedDescription.contains("no disk"))
        #expect(nsError.userInfo[ServiceObjCError.serviceTypeKey] as? String == String(reflecting: FirstService.self))
    }

    @Test func failureBehindAProtocolIsAnObtainFailure() throws {
        let objc = ServiceProviderObjC(ServiceProvider<any GreetingService>(mode: .lazy) {
            throw TestFactoryError(reason: "protocol")
        })

        #expect(objc.getService() == nil)
        var error: NSError?
        #expect(objc.getServiceAndReturnError(&error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .obtainFailure)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        #expect(same(underlying.service, (any GreetingService).self))
        #expect(nsError.localizedDescription.contains("GreetingService"))
    }

    @Test func nestedFailureNamesTheRequestedServiceAndKeepsThePath() throws {
        let dependency = ServiceProvider<Greeter>(mode: .lazy) { throw TestFactoryError(reason: "dependency") }
        let objc = ServiceProviderObjC(ServiceProvider<FirstService>(mode: .lazy) {
            FirstService(name: try dependency.getService().greeting)
        })

        var error: NSError?
        #expect(objc.getServiceAndReturnError(&error) == nil)

        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .obtainFailure)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        #expect(underlying.isNested)
        #expect(underlying.pathServices.map(ObjectIdentifier.init) == [
            ObjectIdentifier(FirstService.self), ObjectIdentifier(Greeter.self),
        ])
        #expect(nsError.userInfo[ServiceObjCError.serviceTypeKey] as? String == String(reflecting: FirstService.self))
        #expect(nsError.localizedDescription == underlying.fatalMessage)
    }

    @Test func atOneFailureIsReturnedOnEveryGet() throws {
        let provider = ServiceProvider<FirstService>(mode: .atOne) { throw TestFactoryError(reason: "at once") }
        let objc = ServiceProviderObjC(provider)

        for _ in 0..<2 {
            var error: NSError?
            #expect(objc.getServiceAndReturnError(&error) == nil)
            let underlying = try bridgeError(error).userInfo[NSUnderlyingErrorKey] as? ServiceObtainError
            #expect(underlying?.error as? TestFactoryError == TestFactoryError(reason: "at once"))
        }
    }

    @Test func wrongSessionIsAnObtainFailure() throws {
        struct OtherSession: ServiceSession {
            var key: AnyHashable { "other" }
        }
        let mediator = ServiceSessionMediator<OtherSession>(session: OtherSession())
        let objc = ServiceProviderObjC(UserServiceFactory().serviceProvider(mediator: mediator))

        var error: NSError?
        #expect(objc.getServiceAndReturnError(&error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .obtainFailure)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        guard case .wrongSession? = underlying.error as? ServiceFactoryError else {
            Issue.record("expected wrongSession, got \(underlying.error)")
            return
        }
    }

    @Test func dependencyCycleIsAnObtainFailure() throws {
        let holder = ProviderHolder()
        let provider = ServiceProvider<FirstService>(mode: .lazy) {
            _ = try holder.provider?.getService()
            return FirstService()
        }
        holder.provider = provider
        let objc = ServiceProviderObjC(provider)

        var error: NSError?
        #expect(objc.getServiceAndReturnError(&error) == nil)
        let underlying = try #require(try bridgeError(error).userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        #expect(underlying.isDependencyCycle)
    }

    final class NilService: NSObject, Sendable {}

    @Test func nonNSObjectClassIsRefusedAndReported() throws {
        final class LocalSwiftService: Sendable {}
        try RefusalRecorder.recording { recorder in
            let objc = ServiceProviderObjC(ServiceProvider(LocalSwiftService()))

            #expect(objc.getService() == nil)
            var error: NSError?
            #expect(objc.getServiceAndReturnError(&error) == nil)

            let nsError = try bridgeError(error)
            #expect(nsError.code == ServiceObjCErrorCode.notNSObject.rawValue)
            let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError)
            #expect(same(underlying.service, LocalSwiftService.self))
            #expect(same(underlying.obtainedType, LocalSwiftService.self))
            #expect(nsError.localizedDescription == underlying.description)
            #expect(nsError.localizedDescription.contains("LocalSwiftService"))
            #expect(nsError.localizedDescription.contains("not an NSObject"))
            #expect(recorder.count(of: LocalSwiftService.self) == 2)
        }
    }

    @Test func nonNSObjectBehindAProtocolNamesBothTypes() throws {
        protocol LocalProtocol: Sendable {}
        struct LocalValue: LocalProtocol {}
        try RefusalRecorder.recording { recorder in
            let objc = ServiceProviderObjC(ServiceProvider<any LocalProtocol>(LocalValue()))

            var error: NSError?
            #expect(objc.getServiceAndReturnError(&error) == nil)
            let nsError = try bridgeError(error)
            #expect(ServiceObjCError.code(of: nsError) == .notNSObject)
            let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError)
            #expect(same(underlying.service, (any LocalProtocol).self))
            #expect(same(underlying.obtainedType, LocalValue.self))
            #expect(nsError.localizedDescription.contains("LocalProtocol"))
            #expect(nsError.localizedDescription.contains("LocalValue"))
            // A local type: its full name without the address Swift writes into it.
            #expect(nsError.userInfo[ServiceObjCError.serviceTypeKey] as? String
                == "ServiceContainerKitObjCTests.ServiceProviderObjCTests.LocalProtocol")
            #expect(recorder.count(of: (any LocalProtocol).self) == 1)
        }
    }

    /// Wrappers of providers of optional services whose service is `nil`: of an optional
    /// `NSObject`, of two optionals, and of `Any` holding a `nil`; with the service type each
    /// names (no other test refuses these types, so that a report to a logger is told apart).
    static let nilServices: [(type: Any.Type, objc: ServiceProviderObjC)] = [
        (NilService?.self, ServiceProviderObjC(ServiceProvider<NilService?>(mode: .many) { nil })),
        (NilService??.self, ServiceProviderObjC(ServiceProvider<NilService??>(mode: .many) { .some(nil) })),
        (Any.self, ServiceProviderObjC(ServiceProvider<Any>(mode: .many) { NilService?.none as Any })),
    ]

    /// A `nil` is refused as `nil`, and not reported as a type that is not supported: its type
    /// is handed out whenever it holds an object.
    @Test(arguments: nilServices)
    func aNilServiceIsRefusedAsNil(type: Any.Type, objc: ServiceProviderObjC) throws {
        try RefusalRecorder.recording { recorder in
            var error: NSError?
            #expect(objc.getServiceAndReturnError(&error) == nil)
            let nsError = try bridgeError(error)
            #expect(nsError.code == ServiceObjCErrorCode.notNSObject.rawValue)
            let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError)
            #expect(underlying.isNil)
            #expect(nsError.localizedDescription == underlying.description)
            #expect(underlying.description.hasSuffix(
                "cannot be handed to an Objective-C style caller: the provider gave nil, which such a caller takes for a "
                    + "failure; make the factory return an object, or throw an error that says why there is none"))
            #expect(recorder.count(of: type) == 0)
        }
    }

    @Test func anOptionalServiceIsNamedByTheValueItHolds() throws {
        struct LocalSettings: Sendable {}
        try RefusalRecorder.recording { recorder in
            let objc = ServiceProviderObjC(ServiceProvider<LocalSettings?>(mode: .many) { LocalSettings() })
            var error: NSError?
            #expect(objc.getServiceAndReturnError(&error) == nil)
            let underlying = try #require(try bridgeError(error).userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError)
            #expect(!underlying.isNil)
            #expect(same(underlying.obtainedType, LocalSettings.self))
            let settings = "ServiceContainerKitObjCTests.ServiceProviderObjCTests.LocalSettings"
            #expect(underlying.description
                == "Service Swift.Optional<\(settings)> cannot be handed to an Objective-C style caller: it is of type \(settings), "
                    + "which is not an NSObject; provide an NSObject subclass that wraps it")
            #expect(recorder.count(of: LocalSettings?.self) == 1)
        }
    }

    @Test func anOptionalServiceThatIsSetIsHandedOut() throws {
        let objc = ServiceProviderObjC(ServiceProvider<FirstService?>(mode: .many) { FirstService(name: "set") })
        var error: NSError?
        #expect((objc.getServiceAndReturnError(&error) as? FirstService)?.name == "set")
        #expect(error == nil)
    }

    @Test func bridgedValuesAreHandedOutAsFoundationObjects() throws {
        let text = ServiceProviderObjC(ServiceProvider("text"))
        let number = ServiceProviderObjC(ServiceProvider(42))

        #expect(text.getService() as? NSString == NSString(string: "text"))
        #expect(number.getService() as? NSNumber == NSNumber(value: 42))
    }

    @Test func safeProvidersAreWrapped() throws {
        let kinds: [ServiceSafeProviderKind] = [.lock, .semaphore, .queue()]
        for kind in kinds {
            let made = Counter()
            let safe = ServiceSafeProvider<FirstService>(mode: .many, safeThread: kind) {
                made.increment()
                return FirstService(name: "safe \(made.value)")
            }
            let objc = ServiceProviderObjC(safe)

            #expect((objc.getService() as? FirstService)?.name == "safe 1")
            #expect((objc.getServiceOrFatal() as? FirstService)?.name == "safe 2")
            #expect(objc.provider(of: FirstService.self) === safe)
        }
    }

    @Test func sessionProviderFollowsTheSession() throws {
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let objc = ServiceProviderObjC(UserServiceFactory().serviceSafeProvider(mediator: mediator))

        let first = try #require(objc.getService() as? FirstService)
        #expect(first.name == "user 1")
        #expect(objc.getService() as? FirstService === first)

        mediator.updateSession(UserSession(userId: 2))
        let second = try #require(objc.getService() as? FirstService)
        #expect(second.name == "user 2")
        #expect(second !== first)
    }

    @Test func paramsProviderWithFixedParams() throws {
        let objc = ServiceProviderObjC(GreeterFactory().serviceProvider(), params: "Bob")

        let greeter = try #require(objc.getService() as? Greeter)
        #expect(greeter.greeting == "Hello, Bob")
        #expect(objc.provider(of: Greeter.self) != nil)
    }

    @Test func typedWayBackGivesTheSameProviderOrNil() {
        let provider = FirstServiceFactory().serviceProvider()
        let objc = ServiceProviderObjC(provider)

        let back: ServiceProvider<FirstService>? = objc.provider()
        #expect(back === provider)
        #expect(objc.provider(of: Greeter.self) == nil)
        #expect(objc.provider(of: NSObject.self) == nil)
        #expect(objc.provider(of: (any GreetingService).self) == nil)
    }

    @Test func descriptionNamesTheServiceType() {
        let objc = ServiceProviderObjC(FirstServiceFactory().serviceProvider())
        #expect(objc.description == "ServiceProviderObjC<\(String(reflecting: FirstService.self))>")
    }

    @Test(.offThePool) func concurrentGetsShareOneLazyInstance() throws {
        let made = Counter()
        let objc = ServiceProviderObjC(ServiceProvider<FirstService>(mode: .lazy) {
            made.increment()
            return FirstService()
        })

        // On threads of their own, inside a time limit: gets that deadlock in tasks would block
        // the concurrency pool, where no time limit can fire.
        let identifiers = try withTimeLimit {
            let all = FoundValues<ObjectIdentifier?>()
            DispatchQueue.concurrentPerform(iterations: 64) { _ in
                let identifier = (objc.getService() as? FirstService).map(ObjectIdentifier.init)
                all.insert(identifier)
            }
            return all.all
        }
        #expect(identifiers.count == 1)
        #expect(identifiers.first! != nil)
        #expect(made.value == 1)
    }

    @Test func getServiceOrFatalStopsOnAFactoryFailureAtTheCallersLine() async {
        let line = #line + 1  // in an exit test's body, a `#line` default argument is the macro's line
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let objc = ServiceProviderObjC(ServiceProvider<FirstService>(mode: .lazy) { throw TestFactoryError() })
            _ = objc.getServiceOrFatal()
        }
        #expect(standardError(of: result).contains(
            "ServiceContainerKitObjCTests/ServiceProviderObjCTests.swift:\(line): Fatal error: Failed to obtain service "
                + "\(String(reflecting: FirstService.self)) with error: test factory failed: broken"))
    }

    @Test func getServiceOrFatalStopsOnANonNSObjectAtTheCallersLine() async {
        let line = #line + 1  // in an exit test's body, a `#line` default argument is the macro's line
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let objc = ServiceProviderObjC(ServiceProvider(ValueService()))
            _ = objc.getServiceOrFatal()
        }
        #expect(standardError(of: result).contains(
            "ServiceContainerKitObjCTests/ServiceProviderObjCTests.swift:\(line): Fatal error: Service "
                + "\(String(reflecting: ValueService.self)) cannot be handed to an Objective-C style caller"))
    }
}
