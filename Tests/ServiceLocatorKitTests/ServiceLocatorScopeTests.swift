import Testing
@testable import ServiceLocatorKit

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
