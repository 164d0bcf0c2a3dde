import LocatorTestSupport
import Testing
@testable import ServiceLocatorKit
import TestSupport

private final class ScopedLog: Sendable {}
private final class KeepingService: Sendable {}

@Suite("ServiceLocator: scoped services")
struct ServiceLocatorScopeTests {
    @Test("A locator's lazy service cannot keep a scoped service; a scoped provider in a locator is one per scope")
    func captiveInALocator() throws {
        let locator = ServiceLocator()
        let log = ServiceProvider<ScopedLog>(mode: .scoped) { ScopedLog() }
        let logKey = NamedKey<ScopedLog>(storeKey: "log")
        let keeperKey = NamedKey<KeepingService>(storeKey: "keeper")
        locator.addService(key: logKey, provider: log)
        locator.addLazyService(key: keeperKey) { [locator] in
            _ = try locator.tryService(key: logKey)
            return KeepingService()
        }
        let scope = ServiceScope(label: "request")
        let (first, second) = try scope.run { (try locator.tryService(key: logKey), try locator.tryService(key: logKey)) }
        #expect(first === second)
        #expect(try ServiceScope().run { try locator.tryService(key: logKey) } !== first)
        let error = scope.run { locator.getServiceAsResult(key: keeperKey) }
        guard case .failure(let failure as ServiceObtainError) = error,
            case .captiveDependency(let singleton, let kind, let scoped)? = failure.error as? ServiceFactoryError
        else {
            Issue.record("not a captive dependency: \(error)")
            return
        }
        #expect(
            [String(reflecting: singleton), kind, String(reflecting: scoped)]
                == [String(reflecting: KeepingService.self), "a lazy singleton", String(reflecting: ScopedLog.self)]
        )
    }
}

private final class ClosingPart: ClosableService {
    let name: String
    let closed: Counter
    init(_ name: String, closed: Counter) {
        self.name = name
        self.closed = closed
    }
    func close() async throws { closed.increment() }
}

/// In a process of its own, as the core's shutdown tests: a shutdown turns on the slow path of
/// every get of its process.
@Suite("ServiceLocator: shutdown")
struct ServiceLocatorShutdownTests {
    @Test("A locator's shutdown closes its own keys' services, not its parent's, and refuses its own gets")
    func ownKeysOnly() async {
        await #expect(processExitsWith: .success) { try await ServiceLocatorShutdownTests.ownKeysOnlyInItsOwnProcess() }
    }

    static func ownKeysOnlyInItsOwnProcess() async throws {
        let closedByParent = Counter()
        let closedByChild = Counter()
        let parent = ServiceLocator()
        let child = ServiceLocator()
        let parentKey = NamedKey<ClosingPart>(storeKey: "parent part")
        let childKey = NamedKey<ClosingPart>(storeKey: "child part")
        parent.addLazyService(key: parentKey) { ClosingPart("parent", closed: closedByParent) }
        child.addLazyService(key: childKey) { ClosingPart("child", closed: closedByChild) }
        #expect(child.setParent(parent).failure == nil)
        #expect(try child.tryService(key: parentKey).name == "parent")
        #expect(try child.tryService(key: childKey).name == "child")
        let report = await ServiceShutdown.close(child)
        #expect(report.closedCount == 1 && report.isClean)
        #expect(closedByChild.value == 1 && closedByParent.value == 0)
        #expect(try parent.tryService(key: parentKey).name == "parent")
        guard case .failure(let error as ServiceObtainError) = child.getServiceAsResult(key: childKey),
            case .shutDown? = error.error as? ServiceFactoryError
        else {
            Issue.record("the child's own service is still handed out")
            return
        }
    }

    @Test("A locator's shutdown leaves alone an instance it was handed, also where a lazy service made or returned it")
    func handedInstanceLeftAlone() async {
        await #expect(processExitsWith: .success) {
            try await ServiceLocatorShutdownTests.handedInstanceLeftAloneInItsOwnProcess()
        }
    }

    static func handedInstanceLeftAloneInItsOwnProcess() async throws {
        let closed = Counter()
        let locator = ServiceLocator()
        let instanceKey = NamedKey<ClosingPart>(storeKey: "instance")
        let aliasKey = NamedKey<ClosingPart>(storeKey: "alias")
        locator.addService(key: instanceKey, service: ClosingPart("handed in", closed: closed))
        locator.addLazyService(key: aliasKey) { [locator] in try locator.tryService(key: instanceKey) }
        #expect(try locator.tryService(key: aliasKey).name == "handed in")
        // Handed in under a protocol type, kept in a provider rather than in a slot: the same.
        let poolKey = NamedKey<ClosingPart>(storeKey: "pool")
        let handedOnKey = NamedKey<any ClosableService>(storeKey: "handed on")
        locator.addLazyService(key: poolKey) { ClosingPart("pool", closed: closed) }
        locator.addService(key: handedOnKey, service: try locator.tryService(key: poolKey) as any ClosableService)
        let report = await ServiceShutdown.close(locator)
        #expect(report.closedCount == 0 && report.isClean)
        #expect(closed.value == 0)
    }
}
