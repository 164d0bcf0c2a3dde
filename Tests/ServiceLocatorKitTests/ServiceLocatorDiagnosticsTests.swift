import Foundation
import LocatorTestSupport
import Testing
import TestSupport
import ServiceLocatorKit

/// A locator whose services depend on others by key, one of them missing.
private func makeLocator(counter: Counter) -> ServiceLocator {
    let parent = ServiceLocator()
    parent.addService(key: Keys.first, service: FirstService(name: "from parent"))
    let locator = ServiceLocator(parent: parent)
    locator.addService(key: Keys.lazy, factory: LazyServiceFactory())
    locator.addLazyService(key: Keys.dependent) { [unowned locator] in
        counter.increment()
        return DependentService(first: try locator.tryService(key: Keys.first))
    }
    locator.addService(key: Keys.many) { [unowned locator] in
        counter.increment()
        _ = try locator.tryService(key: Keys.failing)  // never added
        return ManyService()
    }
    locator.addService(key: Keys.params, factory: ParamsServiceFactory())
    locator.addService(key: NamedKey<FirstService>(storeKey: "named"), service: FirstService(name: "named"))
    return locator
}

@Suite("ServiceLocator diagnostics: validation and errors that name the cause")
struct ServiceLocatorDiagnosticsTests {
    @Test("A get of a key whose service an add of the other kind replaced, with or without params, says to look for that add")
    func replacedKindHint() {
        let locator = ServiceLocator()
        let paramsKey = ServiceLocatorParamsEasyKey<NumberService, Int>()
        let plainKey = ServiceLocatorEasyKey<NumberService>()  // the same slot
        locator.addService(key: paramsKey, factory: NumberServiceFactory())
        locator.addLazyService(key: plainKey) { NumberService(number: 0) }
        let withParams = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: paramsKey, params: 1) }
        #expect(withParams?.description == "Wrong params for service LocatorTestSupport.NumberService (key "
            + "'LocatorTestSupport.NumberService'): it takes no params, but got params of type Swift.Int; get it "
            + "without params, or find where a service without params was added under this key, replacing the one "
            + "you meant or hiding it in a parent (a key holds one service: each add under it replaces the one "
            + "before, with params or without)")
        locator.addService(key: paramsKey, factory: NumberServiceFactory())
        let withoutParams = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: plainKey) }
        #expect(withoutParams?.description == "Wrong params for service LocatorTestSupport.NumberService (key "
            + "'LocatorTestSupport.NumberService'): it takes params of type Swift.Int, but got no params; get it "
            + "with params of type Swift.Int, or find where a params service was added under this key, replacing "
            + "the one you meant or hiding it in a parent (a key holds one service: each add under it replaces the "
            + "one before, with params or without)")
        let wrongType = #expect(throws: ServiceLocatorError.self) {
            try locator.tryService(key: ServiceLocatorParamsEasyKey<NumberService, String>(), params: "1")
        }
        #expect(wrongType?.description.hasSuffix("get it with params of type Swift.Int") == true)
    }

    @Test("A locator is validated key by key, with its parent; a missing service fails with its path")
    func validation() {
        let counter = Counter()
        let locator = makeLocator(counter: counter)
        let report = ServiceValidator.validate(locator)
        // In the order of the keys: the shared services' names begin with their module's.
        #expect(report.made == [
            "[LocatorTestSupport.LazyService]",
            "[ServiceLocatorKitTests.DependentService]",
            "[named]",
            "parent[ServiceLocatorKitTests.FirstService]",
        ])
        #expect(report.failures.map(\.path) == ["[LocatorTestSupport.ManyService]"])
        let cause = report.failures.first?.error.error as? ServiceLocatorError
        #expect(cause?.description == "Service LocatorTestSupport.FailingService not found for key "
            + "'LocatorTestSupport.FailingService': nothing is stored under the key, in the locator or its parents; "
            + "add it (addService) before a get asks for it")
        #expect(report.skipped.map(\.path) == ["[LocatorTestSupport.ParamsService]"])
        #expect(report.skipped.first?.reason == "needs params of type Swift.Optional<Swift.String>: get it with params to check it")
        #expect(counter.value == 2)  // each factory once
        #expect(report.graph.nodes.map(\.mode) == [.lazy, .many, .params, .lazy, .atOne, .atOne])
    }

    @Test("A locator built by the validator shows which service asked for which")
    func graph() {
        let report = ServiceValidator.validate(building: { makeLocator(counter: Counter()) })
        #expect(report.graph.description == """
            [ServiceLocatorKitTests.DependentService] -> parent[ServiceLocatorKitTests.FirstService]
            [LocatorTestSupport.LazyService] (no dependency recorded)
            [LocatorTestSupport.ManyService] (no dependency recorded)
            [LocatorTestSupport.ParamsService] (no dependency recorded)
            [named] (no dependency recorded)
            """)
    }

    @Test("A get by a protocol that misses names the implementation stored under its own type")
    func protocolHint() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService())
        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: Keys.firstProtocol) }
        guard case .serviceNotFound(_, let service, let stored?)? = error else {
            Issue.record("expected serviceNotFound naming the implementation, got \(String(describing: error))")
            return
        }
        #expect(same(service, (any FirstServicing).self))
        #expect(same(stored, FirstService.self))
        #expect(error?.description == "Service ServiceLocatorKitTests.FirstServicing not found; "
            + "ServiceLocatorKitTests.FirstService is registered (under its own type): register it as "
            + "ServiceLocatorKitTests.FirstServicing, or ask for ServiceLocatorKitTests.FirstService")
        // In a parent too; not for a service that is no such implementation.
        let child = ServiceLocator(parent: locator)
        #expect(throws: ServiceLocatorError.self) { try child.tryService(key: Keys.firstProtocol) }
        let lazyMiss = #expect(throws: ServiceLocatorError.self) { try child.tryService(key: Keys.lazy) }
        guard case .serviceNotFound(_, _, nil)? = lazyMiss else {
            Issue.record("a miss with no implementation should name none, got \(String(describing: lazyMiss))")
            return
        }
        // A miss by a named key names none either.
        let named = #expect(throws: ServiceLocatorError.self) {
            try child.tryService(key: NamedKey<any FirstServicing>(storeKey: "first"))
        }
        guard case .serviceNotFound(_, _, nil)? = named else {
            Issue.record("a named key miss should name no implementation, got \(String(describing: named))")
            return
        }
    }

    @Test("With several implementations stored, a miss by their protocol names the one whose name sorts first")
    func severalImplementationsHint() {
        let locator = ServiceLocator()
        locator.addService(key: ServiceLocatorEasyKey<ZuluHintGreeting>(), service: ZuluHintGreeting())
        locator.addService(key: ServiceLocatorEasyKey<AlphaHintGreeting>(), service: AlphaHintGreeting())
        locator.addService(key: ServiceLocatorEasyKey<MikeHintGreeting>(), service: MikeHintGreeting())
        let error = #expect(throws: ServiceLocatorError.self) {
            try locator.tryService(key: ServiceLocatorEasyKey<any HintGreeting>())
        }
        #expect(error?.description == "Service ServiceLocatorKitTests.HintGreeting not found; "
            + "ServiceLocatorKitTests.AlphaHintGreeting is registered (under its own type): register it as "
            + "ServiceLocatorKitTests.HintGreeting, or ask for ServiceLocatorKitTests.AlphaHintGreeting")
    }

    @Test("A result names the implementation too; a get of Any gets the usual advice")
    func hintOnEveryThrowingGet() throws {
        let locator = ServiceLocator()
        locator.addService(key: Keys.first, service: FirstService())
        guard case .failure(ServiceLocatorError.serviceNotFound(_, _, let stored?)) = locator.getServiceAsResult(key: Keys.firstProtocol)
        else {
            Issue.record("getServiceAsResult should name the implementation")
            return
        }
        #expect(same(stored, FirstService.self))

        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: ServiceLocatorEasyKey<Any>()) }
        #expect(error?.description == "Service Any not found for key 'Any': nothing is stored under the key, in the locator or "
            + "its parents; add it (addService) before a get asks for it")
    }

    @Test("A subclass stored under its own type is named for a get of its superclass")
    func subclassHint() {
        class Base: @unchecked Sendable {}
        final class Derived: Base, @unchecked Sendable {}
        let locator = ServiceLocator()
        locator.addService(key: ServiceLocatorEasyKey<Derived>(), service: Derived())
        let error = #expect(throws: ServiceLocatorError.self) { try locator.tryService(key: ServiceLocatorEasyKey<Base>()) }
        #expect(error?.description.contains("Derived is registered (under its own type)") == true)
    }

    @Test("A refusal of a read-only locator asserts at the caller's line")
    func refusalNamesCaller() async {
        let result = await #expect(processExitsWith: assertionExit, observing: [\.standardErrorContent]) {
            // Reached only where assertions are compiled out (release): the change stays refused.
            #expect(ReadOnlyRefusal.run())
        }
        let output = standardError(of: result)
        guard assertionStops else {
            #expect(!output.contains("Fatal error"), "\(output)")
            return
        }
        #expect(output.contains("ServiceLocatorKitTests/ServiceLocatorDiagnosticsTests.swift:\(ReadOnlyRefusal.line)"), "\(output)")
        #expect(output.contains("ServiceLocatorKit.ServiceLocator is read-only: refused to add service"), "\(output)")
    }
}

/// Keeps the refusals reported with the file and line of the refused call.
private final class SiteRefusalLog: ServiceLocatorLogger, @unchecked Sendable {  // `sites` is reached under `lock` only
    static let shared: SiteRefusalLog = {
        let log = SiteRefusalLog()
        log.register()
        return log
    }()

    private let lock = NSLock()
    private var sites: [(locator: AnyObject, site: String)] = []

    func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError, file: StaticString, line: UInt) {
        lock.withLock { sites.append((locator, "\(file):\(line): \(error)")) }
    }

    func sites(of locator: AnyObject) -> [String] {
        lock.withLock { sites.filter { $0.locator === locator }.map(\.site) }
    }
}

extension ServiceLocatorDiagnosticsTests {
    @Test("A logger told the file and line of a refused change gets the caller's; one without them gets the event too")
    func refusalIsLoggedWithTheCallersLine() {
        let (log, plainLog) = (SiteRefusalLog.shared, RefusalLog.shared)
        let locator = ServiceLocator()
        locator.setReadOnly(assertionFailure: false)
        let line: UInt = #line + 1
        locator.addService(key: Keys.first, service: FirstService())
        #expect(
            log.sites(of: locator) == [
                "ServiceLocatorKitTests/ServiceLocatorDiagnosticsTests.swift:\(line): ServiceLocatorKit.ServiceLocator is "
                    + "read-only: refused to add service ServiceLocatorKitTests.FirstService for key "
                    + "'ServiceLocatorKitTests.FirstService'; make every change before setReadOnly(), or in a locator of "
                    + "your own whose parent this one is (setParent)"
            ]
        )
        #expect(plainLog.errors(of: locator).count == 1)  // it implements the event without them
    }
}

/// A change that a read-only locator refuses, on line `line`.
private enum ReadOnlyRefusal {
    static let line: UInt = #line + 6

    /// Whether the locator is unchanged after the refused change.
    static func run() -> Bool {
        let locator = ServiceLocator()
        locator.setReadOnly()
        locator.addService(key: Keys.first, service: FirstService())
        return locator.getService(key: Keys.first) == nil
    }
}

/// A protocol with several implementations, each stored under its own type.
protocol HintGreeting: Sendable {}
final class ZuluHintGreeting: HintGreeting {}
final class AlphaHintGreeting: HintGreeting {}
final class MikeHintGreeting: HintGreeting {}
