import Testing
@testable import ServiceInjects
import ServiceInjectsTesting

// The trait, as a test target uses it: tests and cases that register their own mock containers
// in parallel, each seeing only its own.

/// A service made for one test case.
final class Mock: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

/// Two unrelated container types, one per parameterized test.
struct GreetingServices {
    struct Nested { let mock: ServiceProvider<Mock> }
    let greeter: ServiceProvider<Mock>
    let lazyGreeter: ServiceProvider<Mock>
    let formatter: ServiceParamsProvider<Mock, Int>
    let nested: Nested

    static func mock(_ tag: String) -> GreetingServices {
        GreetingServices(
            greeter: ServiceProvider(Mock(tag)),
            lazyGreeter: ServiceProvider(mode: .lazy) { Mock("lazy-\(tag)") },
            formatter: ServiceParamsProvider { Mock("\(tag)-\($0)") },
            nested: Nested(mock: ServiceProvider(mode: .weak) { Mock("nested-\(tag)") })
        )
    }
}

struct StorageServices {
    let store: ServiceProvider<Mock>
    let cache: ServiceProvider<Mock>?

    static func mock(_ tag: String) -> StorageServices {
        StorageServices(store: ServiceProvider(mode: .many) { Mock("store-\(tag)") }, cache: ServiceProvider(Mock("cache-\(tag)")))
    }
}

final class GreetingPresenter {
    @ServiceInject(\GreetingServices.greeter) var greeter
    @ServiceInject(\GreetingServices.lazyGreeter, lazyInject: true) var lazyGreeter
    @ServiceParamsInject(\GreetingServices.formatter, params: 7) var formatter
    @ServiceInject(\GreetingServices.nested.mock) var nested
    @ServiceProviderInject(\GreetingServices.greeter) var provider
    @EntityInject(\SessionEntity.user) var user

    var tags: [String] {
        [greeter.tag, lazyGreeter.tag, formatter.tag, nested.tag, provider.getServiceOrFatal().tag, user]
    }

    static func expected(_ tag: String) -> [String] {
        [tag, "lazy-\(tag)", "\(tag)-7", "nested-\(tag)", tag, "user-\(tag)"]
    }
}

final class StoragePresenter {
    @ServiceInject(\StorageServices.store) var store
    @ServiceInject(\StorageServices.cache) var cache
    @EntityInject(SessionEntity.self) var session

    var tags: [String] {
        [store.tag, cache?.tag ?? "none", session.user]
    }

    static func expected(_ tag: String) -> [String] {
        ["store-\(tag)", "cache-\(tag)", "user-\(tag)"]
    }
}

/// An entity of one test case.
final class SessionEntity: Sendable {
    let user: String
    init(_ tag: String) { user = "user-\(tag)" }
}

@Suite(.isolatedInjectRegistries)
struct ParallelMockTests {
    static let cases = 0..<128

    /// Makes one presenter before the registrations and one after, with suspension points in
    /// between where the other cases run, and returns what both see.
    static func seen<Presenter>(
        tag: String,
        make: () -> Presenter,
        register: () -> EntityInjectToken,
        tags: (Presenter) -> [String]
    ) async -> (early: [String], late: [String]) {
        let early = make()
        await Task.yield()
        let token = register()
        await Task.yield()
        let late = make()
        await Task.yield()
        defer { withExtendedLifetime(token) {} }
        return (tags(early), tags(late))
    }

    @Test(arguments: cases)
    func greetingCaseSeesItsOwnMock(number: Int) async {
        let tag = "greeting-\(number)"
        #expect(!ServiceInjectResolver.contains(GreetingServices.self))
        let seen = await Self.seen(tag: tag, make: GreetingPresenter.init, register: {
            ServiceInjectResolver.register(GreetingServices.mock(tag))
            return EntityInjectResolver.register(SessionEntity(tag))
        }, tags: \.tags)
        #expect(seen.early == GreetingPresenter.expected(tag))
        #expect(seen.late == GreetingPresenter.expected(tag))
        #expect(ServiceInjectResolver.registry.counts == (1, 0))
    }

    @Test(arguments: cases)
    func storageCaseSeesItsOwnMock(number: Int) async {
        let tag = "storage-\(number)"
        #expect(!ServiceInjectResolver.contains(StorageServices.self))
        let seen = await Self.seen(tag: tag, make: StoragePresenter.init, register: {
            let token = EntityInjectResolver.register(SessionEntity(tag))
            ServiceInjectResolver.register(StorageServices.mock(tag))
            return token
        }, tags: \.tags)
        #expect(seen.early == StoragePresenter.expected(tag))
        #expect(seen.late == StoragePresenter.expected(tag))
        #expect(ServiceInjectResolver.registry.counts == (1, 0))
        #expect(EntityInjectResolver.registry.counts == (0, 0))  // `seen` released the token
    }
}

/// The suite's `init` runs in the registries of each test: were they shared, the second
/// registration of `GreetingServices` would stop the process (a duplicate).
@Suite(.isolatedInjectRegistries)
struct SuiteInitRegistersPerTest {
    let token: EntityInjectToken

    init() {
        ServiceInjectResolver.register(GreetingServices.mock("suite"))
        token = EntityInjectResolver.register(SessionEntity("suite"))
    }

    @Test func first() {
        #expect(GreetingPresenter().tags == GreetingPresenter.expected("suite"))
        #expect(ServiceInjectResolver.registry.counts == (1, 0))
    }

    @Test func second() async {
        await Task.yield()
        #expect(GreetingPresenter().tags == GreetingPresenter.expected("suite"))
        #expect(ServiceInjectResolver.registry.counts == (1, 0))
    }

    @Test(arguments: ["a", "b", "c"])
    func eachCaseToo(tag: String) {
        ServiceInjectResolver.register(GreetingServices.mock(tag), failureIfContains: false)
        #expect(GreetingPresenter().greeter.tag == tag)
        #expect(ServiceInjectResolver.registry.counts == (2, 0))
    }

    @Suite struct Nested {
        @Test func nestedSuiteInheritsTheTrait() {
            #expect(InjectRegistries.isolated != nil)
            #expect(!ServiceInjectResolver.contains(GreetingServices.self))
        }
    }
}

@Suite struct IsolatedInjectRegistriesTraitTests {
    static let namedLine = #line + 1
    @Test(.isolatedInjectRegistries) func namesTheTestInMessages() {
        let scope = "(isolated by the .isolatedInjectRegistries trait of test namesTheTestInMessages() at "
            + "ServiceInjectsTestingTests/IsolatedInjectRegistriesTraitTests.swift:\(Self.namedLine))"
        #expect(ServiceInjectResolver.registry.resolverName == "ServiceInjectResolver \(scope)")
        #expect(EntityInjectResolver.registry.resolverName == "EntityInjectResolver \(scope)")
    }

    @Test(.isolatedInjectRegistries) func aTestStartsWithEmptyRegistries() {
        #expect(ServiceInjectResolver.registry.counts == (0, 0))
        #expect(EntityInjectResolver.registry.counts == (0, 0))
        #expect(ServiceInjectResolver.registry !== InjectRegistries.process.containers)
    }

    @Test func aTestWithoutTheTraitUsesTheProcessRegistries() {
        #expect(InjectRegistries.isolated == nil)
        #expect(ServiceInjectResolver.registry === InjectRegistries.process.containers)
    }

    @Test func theTraitAppliesToEachTestOfASuite() {
        let trait: IsolatedInjectRegistriesTrait = .isolatedInjectRegistries
        #expect(trait.isRecursive)
    }

    @Test(.isolatedInjectRegistries) func aScopeInsideTheTestNestsInItsRegistries() {
        ServiceInjectResolver.register(GreetingServices.mock("test"))
        let token = EntityInjectResolver.register(SessionEntity("test"))
        let inner = withIsolatedInjectRegistries {
            ServiceInjectResolver.register(GreetingServices.mock("inner"))
            let token = EntityInjectResolver.register(SessionEntity("inner"))
            defer { withExtendedLifetime(token) {} }
            return GreetingPresenter().tags
        }
        #expect(inner == GreetingPresenter.expected("inner"))
        #expect(GreetingPresenter().tags == GreetingPresenter.expected("test"))
        withExtendedLifetime(token) {}
    }
}
