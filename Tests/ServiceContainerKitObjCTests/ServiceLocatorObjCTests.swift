import Foundation
import ServiceContainerKitObjC
import Testing
import TestSupport

/// A key whose slot is its store key, as custom keys are.
struct NamedFirstServiceKey: ServiceLocatorKey {
    typealias ServiceType = FirstService
    var storeKey: String { "named.first" }
}

/// A params key whose slot is its store key.
struct NamedGreeterKey: ServiceLocatorParamsKey {
    typealias ServiceType = Greeter
    typealias ParamsType = String
    var storeKey: String { "named.greeter" }
}

/// A params key with optional params, whose slot is its store key.
struct NamedOptionalParamsKey: ServiceLocatorParamsKey {
    typealias ServiceType = FirstService
    typealias ParamsType = Int?
    var storeKey: String { "named.optional" }
}

/// A key of a `FirstService` slot named by any string.
struct NamedKeyOfFirst: ServiceLocatorKey {
    typealias ServiceType = FirstService
    let storeKey: String
}

/// A key of a failing service, whose slot is its store key.
struct NamedFailingKey: ServiceLocatorKey {
    typealias ServiceType = Greeter
    var storeKey: String { "named.failing" }
}

// Easy keys name their slot by service type: each type here has one key.
enum LocatorKeys {
    static let first = ServiceLocatorEasyKey<FirstService>()
    static let greeter = GreeterFactory.defaultKey
    static let value = ServiceLocatorEasyKey<ValueService>()
    static let protocolService = ServiceLocatorEasyKey<any GreetingService>()
}

extension ServiceLocatorObjCKey {
    static let first = ServiceLocatorObjCKey(LocatorKeys.first)
    static let greeter = ServiceLocatorObjCKey(LocatorKeys.greeter)
    static let optionalParams = ServiceLocatorObjCKey(NamedOptionalParamsKey())
    static let value = ServiceLocatorObjCKey(LocatorKeys.value)
    static let failing = ServiceLocatorObjCKey(NamedFailingKey())
    static let protocolService = ServiceLocatorObjCKey(LocatorKeys.protocolService)
    static let namedFirst = ServiceLocatorObjCKey(NamedFirstServiceKey())
    static let namedGreeter = ServiceLocatorObjCKey(NamedGreeterKey())
}

@Suite struct ServiceLocatorObjCTests {
    let first = FirstService(name: "located")
    let locator = ServiceLocator()
    let objc: ServiceLocatorObjC

    init() {
        locator.addService(key: LocatorKeys.first, service: first)
        locator.addService(key: LocatorKeys.greeter, factory: GreeterFactory())
        locator.addService(key: NamedOptionalParamsKey(), factory: OptionalParamsFactory())
        locator.addService(key: LocatorKeys.value, service: ValueService())
        locator.addLazyService(key: NamedFailingKey()) { throw TestFactoryError(reason: "locator") }
        locator.addService(key: LocatorKeys.protocolService, service: Greeter(greeting: "by protocol"))
        locator.addService(key: NamedFirstServiceKey(), service: FirstService(name: "named"))
        locator.addService(key: NamedGreeterKey(), provider: GreeterFactory().serviceProvider())
        locator.setReadOnly()
        objc = ServiceLocatorObjC(locator)
    }

    @Test func getServiceWithKeyGivesTheStoredService() throws {
        #expect(objc.getServiceWithKey(.first) as? FirstService === first)
        #expect((objc.getServiceWithKey(.protocolService) as? Greeter)?.greeting == "by protocol")
        #expect((objc.getServiceWithKey(.namedFirst) as? FirstService)?.name == "named")
        #expect(objc.locator === locator)
    }

    @Test("A miss names the implementation stored under its own type when an error pointer takes the error")
    func missWithErrorPointerNamesTheImplementation() throws {
        let local = ServiceLocator()
        local.addService(key: ServiceLocatorEasyKey<Greeter>(), service: Greeter(greeting: "as itself"))
        let objc = ServiceLocatorObjC(local)
        #expect(objc.getServiceWithKey(.protocolService) == nil)
        var error: NSError?
        #expect(objc.getServiceWithKey(.protocolService, error: &error) == nil)
        let underlying = try bridgeError(error).userInfo[NSUnderlyingErrorKey] as? ServiceLocatorError
        guard case .serviceNotFound(_, _, let stored?)? = underlying else {
            Issue.record("expected serviceNotFound naming Greeter, got \(String(describing: underlying))")
            return
        }
        #expect(ObjectIdentifier(stored) == ObjectIdentifier(Greeter.self))
    }

    @Test func getServiceWithKeyAndErrorClearsTheError() throws {
        var error: NSError? = NSError(domain: "stale", code: 1)
        #expect(objc.getServiceWithKey(.first, error: &error) as? FirstService === first)
        #expect(error == nil)
        #expect(objc.getServiceWithKey(.first, error: nil) as? FirstService === first)
    }

    @Test func getServiceWithKeyAndParams() throws {
        #expect((objc.getServiceWithKey(.greeter, params: "Ann") as? Greeter)?.greeting == "Hello, Ann")
        #expect((objc.getServiceWithKey(.namedGreeter, params: "Bo") as? Greeter)?.greeting == "Hello, Bo")

        var error: NSError? = NSError(domain: "stale", code: 1)
        let greeter = objc.getServiceWithKey(.greeter, params: "Cy", error: &error) as? Greeter
        #expect(greeter?.greeting == "Hello, Cy")
        #expect(error == nil)
    }

    @Test func optionalParamsCanBeLeftOut() {
        #expect((objc.getServiceWithKey(.optionalParams) as? FirstService)?.name == "number -1")
        #expect((objc.getServiceWithKey(.optionalParams, params: nil) as? FirstService)?.name == "number -1")
        #expect((objc.getServiceWithKey(.optionalParams, params: 7) as? FirstService)?.name == "number 7")
    }

    @Test func missingKeyIsServiceNotFound() throws {
        let missing = ServiceLocatorObjCKey(ServiceLocatorEasyKey<Counter>())
        #expect(objc.getServiceWithKey(missing) == nil)
        var error: NSError?
        #expect(objc.getServiceWithKey(missing, error: &error) == nil)

        let nsError = try bridgeError(error)
        #expect(nsError.code == ServiceObjCErrorCode.serviceNotFound.rawValue)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceLocatorError)
        guard case .serviceNotFound = underlying else {
            Issue.record("expected serviceNotFound, got \(underlying)")
            return
        }
        #expect(nsError.localizedDescription == underlying.description)
        #expect(nsError.localizedDescription.contains("Counter"))
        #expect(nsError.userInfo[ServiceObjCError.serviceTypeKey] as? String == String(reflecting: Counter.self))
    }

    @Test func keyOfAnotherTypeIsServiceNotFound() throws {
        struct OtherTypeKey: ServiceLocatorKey {
            typealias ServiceType = Greeter
            var storeKey: String { "named.first" }
        }
        var error: NSError?
        #expect(objc.getServiceWithKey(ServiceLocatorObjCKey(OtherTypeKey()), error: &error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .serviceNotFound)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceLocatorError)
        guard case .serviceNotFound(_, _, _?) = underlying else {
            Issue.record("expected serviceNotFound naming the stored type, got \(underlying)")
            return
        }
    }

    @Test(arguments: [
        (ServiceLocatorObjCKey.greeter, 5 as (any Sendable)?),
        (.greeter, nil),
        (.first, "params of a plain service"),
        (.optionalParams, "three"),
        (.namedGreeter, 1),
    ])
    func paramsThatDoNotFitAreWrongParams(key: ServiceLocatorObjCKey, params: (any Sendable)?) throws {
        #expect(objc.getServiceWithKey(key, params: params) == nil)
        var error: NSError?
        #expect(objc.getServiceWithKey(key, params: params, error: &error) == nil)

        let nsError = try bridgeError(error)
        #expect(nsError.code == ServiceObjCErrorCode.wrongParams.rawValue)
        #expect(nsError.localizedDescription.contains(String(reflecting: try #require(key.serviceType))))
        let underlying = nsError.userInfo[NSUnderlyingErrorKey]
        let isWrongParams = (underlying as? ServiceObtainError)?.isWrongParams == true
            || { if case .wrongParams? = underlying as? ServiceLocatorError { true } else { false } }()
        #expect(isWrongParams)
    }

    @Test func factoryFailureIsAnObtainFailure() throws {
        var error: NSError?
        #expect(objc.getServiceWithKey(.failing, error: &error) == nil)

        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .obtainFailure)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ServiceObtainError)
        #expect(underlying.error as? TestFactoryError == TestFactoryError(reason: "locator"))
        #expect(nsError.localizedDescription == underlying.fatalMessage)
    }

    @Test func nonNSObjectIsRefusedAndReported() throws {
        struct LocalValue: Sendable {}
        let local = ServiceLocator()
        local.addService(key: ServiceLocatorEasyKey<LocalValue>(), service: LocalValue())
        let key = ServiceLocatorObjCKey(ServiceLocatorEasyKey<LocalValue>())

        try RefusalRecorder.recording { recorder in
            let objc = ServiceLocatorObjC(local)
            #expect(objc.getServiceWithKey(key) == nil)
            var error: NSError?
            #expect(objc.getServiceWithKey(key, params: nil, error: &error) == nil)

            let nsError = try bridgeError(error)
            #expect(ServiceObjCError.code(of: nsError) == .notNSObject)
            #expect(nsError.localizedDescription.contains("LocalValue"))
            #expect(recorder.count(of: LocalValue.self) == 2)
        }
    }

    @Test func nonNSObjectWithParamsIsRefused() throws {
        struct LocalValue: Sendable {
            let number: Int
        }
        let local = ServiceLocator()
        let key = ServiceLocatorParamsEasyKey<LocalValue, Int>()
        local.addService(key: key, provider: ServiceParamsProvider<LocalValue, Int> { LocalValue(number: $0) })

        var error: NSError?
        #expect(ServiceLocatorObjC(local).getServiceWithKey(ServiceLocatorObjCKey(key), params: 1, error: &error) == nil)
        #expect(ServiceObjCError.code(of: try bridgeError(error)) == .notNSObject)
    }

    @Test func storeKeyFindsCustomKeysOfAnyType() throws {
        let named = ServiceLocatorObjCKey(storeKey: "named.first")
        #expect(named.serviceType == nil)
        #expect(named.storeKey == "named.first")
        #expect((objc.getServiceWithKey(named) as? FirstService)?.name == "named")

        let greeter = ServiceLocatorObjCKey(storeKey: "named.greeter")
        #expect((objc.getServiceWithKey(greeter, params: "Di") as? Greeter)?.greeting == "Hello, Di")

        var error: NSError?
        #expect(objc.getServiceWithKey(greeter, params: 3, error: &error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .wrongParams)
        #expect(nsError.userInfo[ServiceObjCError.serviceTypeKey] as? String == String(reflecting: Greeter.self))
    }

    @Test func missingStoreKeyIsServiceNotFoundWithoutAType() throws {
        var error: NSError?
        #expect(objc.getServiceWithKey(ServiceLocatorObjCKey(storeKey: "nothing"), error: &error) == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .serviceNotFound)
        #expect(nsError.localizedDescription == "No service found for key 'nothing': nothing is stored under it, "
            + "and it names no stored type, or is the short name of more than one (give a type's full name, such as "
            + "App.Item)")
        #expect(nsError.userInfo[ServiceObjCError.serviceTypeKey] == nil)
    }

    @Test("ServiceLocatorObjCKey(storeKey:) finds a service added with an easy key, as in 2.0.1")
    func storeKeyFindsEasyKeyServices() throws {
        final class OnlyHere: NSObject, Sendable {}
        let parent = ServiceLocator()
        parent.addService(key: ServiceLocatorEasyKey<OnlyHere>(), service: OnlyHere())
        let serviceLocator = ServiceLocator(parent: parent)
        serviceLocator.addService(key: ServiceLocatorEasyKey<FirstService>(), service: FirstService(name: "easy"))
        let locator = ServiceLocatorObjC(serviceLocator)

        // 2.0.1's easy key stored the service under "\(ServiceType.self)".
        let short = locator.getServiceWithKey(ServiceLocatorObjCKey(storeKey: "FirstService")) as? FirstService
        #expect(short?.name == "easy")
        let full = ServiceLocatorObjCKey(storeKey: ServiceLocatorEasyKey<FirstService>().storeKey)
        #expect((locator.getServiceWithKey(full) as? FirstService)?.name == "easy")
        #expect(locator.getServiceWithKey(ServiceLocatorObjCKey(storeKey: "OnlyHere")) is OnlyHere)
        // A string slot of that name comes first.
        serviceLocator.addService(key: NamedKeyOfFirst(storeKey: "FirstService"), service: FirstService(name: "named"))
        #expect((locator.getServiceWithKey(ServiceLocatorObjCKey(storeKey: "FirstService")) as? FirstService)?.name == "named")
    }

    @Test func storeKeyOfAShortNameTwoTypesShareIsNotFound() throws {
        enum Other { final class FirstService: NSObject, Sendable {} }
        let serviceLocator = ServiceLocator()
        serviceLocator.addService(key: ServiceLocatorEasyKey<FirstService>(), service: FirstService())
        serviceLocator.addService(key: ServiceLocatorEasyKey<Other.FirstService>(), service: Other.FirstService())
        var error: NSError?
        let got = ServiceLocatorObjC(serviceLocator).getServiceWithKey(ServiceLocatorObjCKey(storeKey: "FirstService"), error: &error)
        #expect(got == nil)
        let nsError = try bridgeError(error)
        #expect(ServiceObjCError.code(of: nsError) == .serviceNotFound)
        #expect(nsError.localizedDescription == "No service found for key 'FirstService': nothing is stored under it, "
            + "and it names no stored type, or is the short name of more than one (give a type's full name, such as "
            + "App.Item)")
        let full = ServiceLocatorObjCKey(storeKey: String(reflecting: Other.FirstService.self))
        #expect(ServiceLocatorObjC(serviceLocator).getServiceWithKey(full) is Other.FirstService)
    }

    @Test func storeKeyOfANonNSObjectIsRefused() throws {
        struct NamedValueKey: ServiceLocatorKey {
            typealias ServiceType = ValueService
            var storeKey: String { "named.value" }
        }
        let local = ServiceLocator()
        local.addService(key: NamedValueKey(), service: ValueService())

        var error: NSError?
        let got = ServiceLocatorObjC(local).getServiceWithKey(ServiceLocatorObjCKey(storeKey: "named.value"), error: &error)
        #expect(got == nil)
        let underlying = try #require(try bridgeError(error).userInfo[NSUnderlyingErrorKey] as? ServiceNotNSObjectError)
        #expect(same(underlying.service, ValueService.self))
    }

    @Test func storeKeyOfAFailingServiceIsAnObtainFailure() throws {
        let local = ServiceLocator()
        local.addLazyService(key: NamedFailingKey()) { throw TestFactoryError(reason: "named") }

        var error: NSError?
        #expect(ServiceLocatorObjC(local).getServiceWithKey(ServiceLocatorObjCKey(storeKey: "named.failing"), error: &error) == nil)
        #expect(ServiceObjCError.code(of: try bridgeError(error)) == .obtainFailure)
    }

    @Test func parentLocatorAnswersMisses() throws {
        let child = ServiceLocator(parent: locator)
        let objc = ServiceLocatorObjC(child)
        #expect(objc.getServiceWithKey(.first) as? FirstService === first)
        #expect((objc.getServiceWithKey(.namedFirst) as? FirstService)?.name == "named")
        #expect((objc.getServiceWithKey(ServiceLocatorObjCKey(storeKey: "named.first")) as? FirstService)?.name == "named")
    }

    @Test func keysAreEqualWhenTheyNameTheSameSlot() throws {
        #expect(ServiceLocatorObjCKey(LocatorKeys.first) == ServiceLocatorObjCKey.first)
        #expect(ServiceLocatorObjCKey(LocatorKeys.first).hash == ServiceLocatorObjCKey.first.hash)
        #expect(ServiceLocatorObjCKey(storeKey: "named.first") == ServiceLocatorObjCKey.namedFirst)
        #expect(ServiceLocatorObjCKey.first != ServiceLocatorObjCKey.namedFirst)
        #expect(!ServiceLocatorObjCKey.first.isEqual("first"))
        #expect(ServiceLocatorObjCKey.namedFirst.description == "ServiceLocatorObjCKey(\"named.first\")")
        #expect(same(try #require(ServiceLocatorObjCKey.first.serviceType), FirstService.self))
        #expect(ServiceLocatorObjCKey.first.storeKey == String(reflecting: FirstService.self))
    }

    @Test("The slot of a type and the slot named by the type's name are two keys, which print apart")
    func typeSlotIsNotTheSlotOfItsName() {
        let byType = ServiceLocatorObjCKey.first
        let byName = ServiceLocatorObjCKey(storeKey: String(reflecting: FirstService.self))
        #expect(byType.storeKey == byName.storeKey)
        #expect(!byType.isEqual(byName))
        #expect(byType.description == "ServiceLocatorObjCKey(\(String(reflecting: FirstService.self)))")
        #expect(byName.description == "ServiceLocatorObjCKey(\"\(String(reflecting: FirstService.self))\")")
        #expect(ServiceLocatorObjCKey(storeKey: #"say "hi""#).description == #"ServiceLocatorObjCKey("say \"hi\"")"#)
    }

    @Test("A factory stored in a locator that refuses its params with wrongParams gives that code, not an obtain failure")
    func factoryWrongParamsKeepsItsCode() throws {
        struct RefusingFactory: ServiceParamsFactory {
            func makeService(params: String) throws -> FirstService {
                throw ServiceFactoryError.wrongParams(expected: Int.self, received: String.self)
            }
        }
        struct RefusingKey: ServiceLocatorParamsKey {
            typealias ServiceType = FirstService
            typealias ParamsType = String
            var storeKey: String { "refusing" }
        }
        let local = ServiceLocator()
        local.addService(key: RefusingKey(), factory: RefusingFactory())
        var error: NSError?
        let got = ServiceLocatorObjC(local).getServiceWithKey(ServiceLocatorObjCKey(RefusingKey()), params: "x", error: &error)
        #expect(got == nil)
        #expect(ServiceObjCError.code(of: try bridgeError(error)) == .wrongParams)
    }

    @Test(.offThePool) func concurrentGetsShareOneLazyInstance() throws {
        let made = Counter()
        let local = ServiceLocator()
        local.addLazyService(key: LocatorKeys.first) {
            made.increment()
            return FirstService()
        }
        let objc = ServiceLocatorObjC(local)

        // On threads of their own, inside a time limit: gets that deadlock in tasks would block
        // the concurrency pool, where no time limit can fire.
        let identifiers = try withTimeLimit {
            let all = FoundValues<ObjectIdentifier?>()
            DispatchQueue.concurrentPerform(iterations: 32) { _ in
                let identifier = (objc.getServiceWithKey(.first) as? FirstService).map(ObjectIdentifier.init)
                all.insert(identifier)
            }
            return all.all
        }
        #expect(identifiers.count == 1)
        #expect(identifiers.first! != nil)
        #expect(made.value == 1)
    }
}
