import Foundation
import LocatorTestSupport
import Testing
import TestSupport
import ServiceEasyLocatorKit

/// A protocol that a type of the standard library is too, whose name sorts after `Swift.Optional`.
protocol Labelled {}
extension String: Labelled {}
extension TaggedSharedService: Labelled {}

@Suite("ServiceEasyLocator diagnostics: validation and errors that name the cause")
struct ServiceEasyLocatorDiagnosticsTests {
    @Test("Every service type of an easy locator is validated; a failing one is reported with its path")
    func validation() {
        let locator = ServiceEasyLocator()
        locator.addService(SharedService() as any SharedServicing)
        locator.addService(factory: LazyServiceFactory())
        locator.addService(factory: FailingServiceFactory())
        locator.addService(factory: NumberServiceFactory())
        let report = ServiceValidator.validate(locator)
        #expect(report.made == ["[LocatorTestSupport.LazyService]", "[ServiceEasyLocatorKitTests.SharedServicing]"])
        #expect(report.failures.map(\.path) == ["[LocatorTestSupport.FailingService]"])
        #expect(report.failures.first?.error.error as? TestError == .failed)
        #expect(report.skipped.map(\.path) == ["[LocatorTestSupport.NumberService]"])
    }

    @Test("A get of a protocol stored only as its implementation says which type is registered")
    func protocolHint() {
        let locator = ServiceEasyLocator()
        locator.addService(SharedService())  // stored as SharedService, not as SharedServicing
        let error = #expect(throws: ServiceLocatorError.self) {
            let _: any SharedServicing = try locator.tryService()
        }
        #expect(error?.description == "Service ServiceEasyLocatorKitTests.SharedServicing not found; "
            + "ServiceEasyLocatorKitTests.SharedService is registered (under its own type): register it as "
            + "ServiceEasyLocatorKitTests.SharedServicing, or ask for ServiceEasyLocatorKitTests.SharedService")
        #expect(locator.getService(serviceType: (any SharedServicing).self) == nil)
    }

    @Test("A get of an implementation added as its protocol says which type it was added as")
    func addedAsProtocolHint() throws {
        let locator = ServiceEasyLocator()
        locator.addService(SharedService() as any SharedServicing)  // stored as SharedServicing
        let error = #expect(throws: ServiceLocatorError.self) {
            let _: SharedService = try locator.tryService()
        }
        #expect(error?.description == addedAsMessage(asked: "SharedService", addedAs: "SharedServicing"))
        guard case .serviceNotFound(_, let service, let stored)? = error else { throw TestError.failed }
        #expect(ObjectIdentifier(service) == ObjectIdentifier(SharedService.self))
        #expect(stored.map(ObjectIdentifier.init) == ObjectIdentifier((any SharedServicing).self))
        #expect(locator.getService(serviceType: SharedService.self) == nil)  // a get that drops the error
    }

    @Test("A provider's service is named by the type it was added as once it is made, and never made for a miss")
    func addedAsProtocolHintOfAProvider() throws {
        let locator = ServiceEasyLocator()
        let made = Counter()
        locator.addService(provider: ServiceProvider<any SharedServicing>(mode: .lazy) {
            made.increment()
            return TaggedSharedService()
        })
        let before = #expect(throws: ServiceLocatorError.self) {
            let _: TaggedSharedService = try locator.tryService()
        }
        #expect(before?.description.hasSuffix("nothing is stored under the key, in the locator or its parents; add "
            + "it (addService) before a get asks for it") == true)
        #expect(made.value == 0)
        let _: any SharedServicing = try locator.tryService()
        let after = #expect(throws: ServiceLocatorError.self) {
            let _: TaggedSharedService = try locator.tryService()
        }
        #expect(after?.description == addedAsMessage(asked: "TaggedSharedService", addedAs: "SharedServicing"))
        let other = #expect(throws: ServiceLocatorError.self) {
            let _: SharedService = try locator.tryService()  // the service made is not a SharedService
        }
        #expect(other?.description.hasSuffix("add it (addService) before a get asks for it") == true)
        #expect(made.value == 1)
    }

    @Test("A get of an optional type, whose wrapped type is stored, says to ask for that type")
    func optionalHint() {
        let locator = ServiceEasyLocator()
        locator.addService(SharedService())
        let error = #expect(throws: ServiceLocatorError.self) {
            let _: SharedService? = try locator.tryService()  // asks for Optional<SharedService>
        }
        #expect(error?.description == "Service Swift.Optional<ServiceEasyLocatorKitTests.SharedService> not found; "
            + "ServiceEasyLocatorKitTests.SharedService is registered (under its own type): ask for "
            + "ServiceEasyLocatorKitTests.SharedService, not for an optional (a result of tryService() declared "
            + "optional asks for the optional type: declare it without `?`, or call getService(), which gives nil for "
            + "a missing service)")
        let viaProtocol = #expect(throws: ServiceLocatorError.self) {
            let _: (any SharedServicing)? = try locator.tryService()
        }
        #expect(viaProtocol?.description.contains(
            "ServiceEasyLocatorKitTests.SharedService is registered (under its own type): register it as "
                + "ServiceEasyLocatorKitTests.SharedServicing, or ask for ServiceEasyLocatorKitTests.SharedService, not "
                + "for an optional") == true)
        let twice = #expect(throws: ServiceLocatorError.self) {
            let _: SharedService?? = try locator.tryService()
        }
        #expect(twice?.description.contains("ask for ServiceEasyLocatorKitTests.SharedService, not for an optional") == true)
        let missing = #expect(throws: ServiceLocatorError.self) {
            let _: Int? = try locator.tryService()
        }
        #expect(missing?.description.hasSuffix("add it (addService) before a get asks for it") == true)
    }

    /// The message of a get of `asked` that finds only `optional`, a service registered as an optional.
    func registeredAsOptionalMessage(asked: String, optional: String) -> String {
        "Service \(asked) not found; \(optional) is registered (under its own type): a service registered as an "
            + "optional is kept under the optional's type; register it as \(asked), not as an optional (unwrap a value "
            + "before adding it; make a factory or closure give \(asked)), or ask for \(optional)"
    }

    @Test("A get of a type registered as an optional of an optional names that type too")
    func addedDoubleOptionalHint() throws {
        let locator = ServiceEasyLocator()
        let maybe: SharedService?? = SharedService()
        locator.addService(maybe)  // kept under Optional<Optional<SharedService>>
        let error = #expect(throws: ServiceLocatorError.self) {
            let _: SharedService = try locator.tryService()
        }
        #expect(error?.description == registeredAsOptionalMessage(
            asked: "ServiceEasyLocatorKitTests.SharedService",
            optional: "Swift.Optional<Swift.Optional<ServiceEasyLocatorKitTests.SharedService>>"
        ))
    }

    @Test("A get of a type registered as an optional says the optional is registered and to register it unwrapped")
    func addedOptionalHint() throws {
        let locator = ServiceEasyLocator()
        let maybe: SharedService? = SharedService()
        locator.addService(maybe)  // kept under Optional<SharedService>
        let error = #expect(throws: ServiceLocatorError.self) {
            let _: SharedService = try locator.tryService()
        }
        let optional = "Swift.Optional<ServiceEasyLocatorKitTests.SharedService>"
        #expect(error?.description == registeredAsOptionalMessage(asked: "ServiceEasyLocatorKitTests.SharedService", optional: optional))
        let viaProtocol = #expect(throws: ServiceLocatorError.self) {
            let _: any SharedServicing = try locator.tryService()
        }
        #expect(
            viaProtocol?.description
                == registeredAsOptionalMessage(asked: "ServiceEasyLocatorKitTests.SharedServicing", optional: optional)
        )
        let child = ServiceEasyLocator()
        child.setParent(locator)
        let throughParent = #expect(throws: ServiceLocatorError.self) {
            let _: SharedService = try child.tryService()
        }
        #expect(throughParent?.description == error?.description)
        // An optional asked for finds only what its wrapped type is, not another optional.
        let twice = #expect(throws: ServiceLocatorError.self) {
            let _: SharedService?? = try locator.tryService()
        }
        #expect(twice?.description.hasSuffix("add it (addService) before a get asks for it") == true)
        let kept: SharedService? = try locator.tryService()  // the optional, asked for as it was added
        #expect(kept === maybe)
    }

    @Test("A provider of an optional is named the same way, and a type that is the one asked for before any optional")
    func optionalProviderHint() {
        let locator = ServiceEasyLocator()
        locator.addLazyService { Optional(TaggedSharedService()) }  // a provider of Optional<TaggedSharedService>
        let error = #expect(throws: ServiceLocatorError.self) {
            let _: TaggedSharedService = try locator.tryService()
        }
        #expect(error?.description.contains("Swift.Optional<ServiceEasyLocatorKitTests.TaggedSharedService> is "
            + "registered (under its own type): a service registered as an optional is kept under the optional's type")
            == true)
        // `Swift.Optional<...>` sorts before `Swift.String`, which is still named first: it is one.
        locator.addService("main")
        let protocolError = #expect(throws: ServiceLocatorError.self) {
            let _: any Labelled = try locator.tryService()
        }
        #expect(protocolError?.description == "Service ServiceEasyLocatorKitTests.Labelled not found; Swift.String is "
            + "registered (under its own type): register it as ServiceEasyLocatorKitTests.Labelled, or ask for "
            + "Swift.String")
    }

    @Test("A get of a composition of protocols stored only as its implementation says which type is registered")
    func compositionHint() {
        let locator = ServiceEasyLocator()
        locator.addService(TaggedSharedService())
        let composition = "ServiceEasyLocatorKitTests.SharedServicing & ServiceEasyLocatorKitTests.Tagging"
        let error = #expect(throws: ServiceLocatorError.self) {
            let _: any SharedServicing & Tagging = try locator.tryService()
        }
        #expect(error?.description == "Service \(composition) not found; "
            + "ServiceEasyLocatorKitTests.TaggedSharedService is registered (under its own type): register it as "
            + "\(composition), or ask for ServiceEasyLocatorKitTests.TaggedSharedService")
        let withAnyObject = #expect(throws: ServiceLocatorError.self) {
            let _: any Tagging & AnyObject = try locator.tryService()
        }
        #expect(withAnyObject?.description.contains("TaggedSharedService is registered (under its own type)") == true)
        locator.addService(TaggedNamedService())
        let withClass = #expect(throws: ServiceLocatorError.self) {
            let _: any NamedBase & Tagging = try locator.tryService()
        }
        #expect(withClass?.description.contains(
            "ServiceEasyLocatorKitTests.TaggedNamedService is registered (under its own type)") == true)
    }

    @Test("A miss of a private type names it the same way in every run, without an address")
    func privateTypeMiss() {
        let locator = ServiceEasyLocator()
        locator.addService(PrivateService())
        let error = #expect(throws: ServiceLocatorError.self) {
            let _: any PrivateServicing = try locator.tryService()
        }
        #expect(error?.description == "Service ServiceEasyLocatorKitTests.PrivateServicing not found for key "
            + "'ServiceEasyLocatorKitTests.PrivateServicing': nothing is stored under the key, in the locator or its parents; "
            + "add it (addService) before a get asks for it")
    }

    @Test("A refusal of a read-only easy locator asserts at the caller's line")
    func refusalNamesCaller() async {
        let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
            // Reached only where assertions are compiled out (release): the change stays refused.
            #expect(EasyReadOnlyRefusal.run())
        }
        let output = standardError(of: result)
        guard assertionStops else {
            #expect(!output.contains("Fatal error"), "\(output)")
            return
        }
        #expect(
            output.contains("ServiceEasyLocatorKitTests/ServiceEasyLocatorDiagnosticsTests.swift:\(EasyReadOnlyRefusal.line)"),
            "\(output)"
        )
        #expect(output.contains("ServiceEasyLocatorKit.ServiceEasyLocator is read-only: refused to remove service"), "\(output)")
    }
}

/// A change that a read-only easy locator refuses, on line `line`.
private enum EasyReadOnlyRefusal {
    static let line: UInt = #line + 7

    /// Whether the locator is unchanged after the refused change.
    static func run() -> Bool {
        let locator = ServiceEasyLocator()
        locator.addService(SharedService())
        locator.setReadOnly()
        locator.removeService(serviceType: SharedService.self)
        return locator.getService(serviceType: SharedService.self) != nil
    }
}

private protocol PrivateServicing: AnyObject {}
private final class PrivateService: PrivateServicing {}

/// The message of a miss of `asked` whose service is stored as `addedAs`, two types of this module.
private func addedAsMessage(asked: String, addedAs: String) -> String {
    let (asked, addedAs) = ("ServiceEasyLocatorKitTests." + asked, "ServiceEasyLocatorKitTests." + addedAs)
    return "Service \(asked) not found; an instance is registered as \(addedAs) (a get finds a service under the type "
        + "it was added as): ask for \(addedAs), or register it as \(asked)"
}
