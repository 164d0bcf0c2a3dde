import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

// MARK: - Containers

final class AppSettings: Sendable {
    let url: String
    init(url: String = "db://local") { self.url = url }
}

final class Pool: Sendable {
    let url: String
    init(url: String) { self.url = url }
}

final class Job: Sendable {
    let pool: Pool
    init(pool: Pool) { self.pool = pool }
}

/// The README's container in small: an `atOne` service, a `lazy` one that asks for it, a `many`
/// one that asks for the lazy one, a params provider and a provider converted from it.
struct AppServices {
    let settings: ServiceProvider<AppSettings>
    let pool: ServiceProvider<Pool>
    let job: ServiceProvider<Job>
    let log: ServiceParamsProvider<String, String>
    let httpLog: ServiceProvider<String>

    static func make(counter: Counter = Counter()) -> AppServices {
        let settings = ServiceProvider(mode: .atOne) { () -> AppSettings in
            counter.increment()
            return AppSettings()
        }
        let pool = ServiceProvider(mode: .lazy) { () -> Pool in
            counter.increment()
            return Pool(url: try settings.getService().url)
        }
        let log = ServiceParamsProvider<String, String> { "log.\($0)" }
        return AppServices(
            settings: settings,
            pool: pool,
            job: ServiceProvider(mode: .many) { () -> Job in
                counter.increment()
                return Job(pool: try pool.getService())
            },
            log: log,
            httpLog: log.convert(params: "http")
        )
    }
}

/// Providers wired after they are made, so that they can ask for each other.
final class CycleServices: @unchecked Sendable {
    // Written once, before any get.
    var first: ServiceProvider<NodeOne>!
    var second: ServiceProvider<NodeTwo>!
    let third = ServiceProvider(Service(number: 3))

    init() {
        first = ServiceProvider(mode: .lazy) { [unowned self] in
            _ = try self.second.getService()
            return NodeOne()
        }
        second = ServiceProvider(mode: .many) { [unowned self] in
            _ = try self.first.getService()
            return NodeTwo()
        }
    }
}

/// A provider listed before the `lazy` one it needs.
struct ListedBeforeItsDependency {
    let dependent: ServiceProvider<Pool>
    let healthyLazy: ServiceProvider<AppSettings>
    let unrelated: ServiceProvider<Service>

    static func make(healthyLazy: ServiceProvider<AppSettings> = .init(mode: .lazy) { AppSettings(url: "db://lazy") })
        -> ListedBeforeItsDependency
    {
        ListedBeforeItsDependency(
            dependent: ServiceProvider(mode: .lazy) { Pool(url: try healthyLazy.getService().url) },
            healthyLazy: healthyLazy,
            unrelated: ServiceProvider(Service())
        )
    }
}

final class NodeOne: Sendable {}
enum Billing { struct Config: Sendable {} }
enum Shipping { struct Config: Sendable {} }
enum Wrap<Value> { final class Node: Sendable {} }
struct NotAContainer: Sendable { let name = "not a container" }
struct KeyedServices { let byKey: [String: ServiceProvider<Int>] }
class BaseServices {
    let base = ServiceProvider<Int>(mode: .lazy) { 1 }
}
class MiddleServices: BaseServices {
    let middle = ServiceProvider<Int>(mode: .lazy) { 2 }
}
final class DerivedServices: MiddleServices {
    let derived = ServiceProvider<Int>(mode: .lazy) { 3 }
}
/// `quick` asks for `slow`, each of whose makings takes 200 ms (a `many` one, made anew for it
/// whatever order the validator makes them in); its own takes next to none.
struct TimedServices {
    let quick: ServiceProvider<Int>
    let slow: ServiceProvider<Int>

    init() {
        let slow = ServiceProvider<Int>(mode: .many) {
            Thread.sleep(forTimeInterval: 0.2)
            return 1
        }
        self.slow = slow
        quick = ServiceProvider<Int>(mode: .lazy) { try slow.getService() + 1 }
    }
}
final class NodeTwo: Sendable {}

@Suite("ServiceValidator")
struct ValidatorTests {
    @Test("A valid container: every provider made once, params skipped, every dependency in the graph")
    func validContainer() {
        let counter = Counter()
        let report = ServiceValidator.validate(building: { AppServices.make(counter: counter) })
        #expect(report.isValid)
        #expect(report.failures.isEmpty)
        #expect(report.made == ["settings", "pool", "job", "httpLog"])
        #expect(counter.value == 3)  // each factory once
        #expect(report.skipped.map(\.path) == ["log"])
        #expect(report.skipped.first?.reason == "needs params of type Swift.String: get it with params to check it")
        #expect(report.graph.description == "pool -> settings\njob -> pool\nhttpLog -> log")
        #expect(report.graph.nodes.map(\.name) == ["settings", "pool", "job", "log", "httpLog"])
        #expect(report.graph.nodes.map(\.mode) == [.atOne, .lazy, .many, .params, .many])
        #expect(Set(report.timings.map(\.path)) == ["settings", "pool", "job", "httpLog"])
        let durations = report.timings.map(\.duration)
        #expect(durations == durations.sorted(by: >))
    }

    @Test("An existing container: every get a making asks for is in the graph, reads of ready services included")
    func existingContainer() {
        let services = AppServices.make()
        let report = ServiceValidator.validate(services)
        #expect(report.isValid)
        #expect(report.made == ["settings", "pool", "job", "httpLog"])
        // The job is made first (last to first), so its making makes the pool; the settings
        // were made with the container, and the pool's read of them is an edge all the same.
        // The converted provider runs the factory of its params provider.
        #expect(report.graph.description == "pool -> settings\njob -> pool\nhttpLog -> log")
        // Only the makings of the validation have a time: the atOne settings were made before.
        #expect(Set(report.timings.map(\.path)) == ["pool", "job", "httpLog"])
        // The providers are plain ones: not recorded.
        guard case .lazy = services.pool.source else {
            Issue.record("a provider made outside a validation should not record")
            return
        }
    }

    @Test("A provider listed before the lazy one it needs: its making reads the made service, and that is an edge")
    func readOfAMadeLazyServiceIsAnEdge() {
        let services = ListedBeforeItsDependency.make()
        // Made last to first: `healthyLazy` is made before `dependent` asks for it.
        let report = ServiceValidator.validate(services)
        #expect(report.isValid)
        #expect(report.graph.description == "dependent -> healthyLazy\nunrelated (no dependency recorded)")
    }

    @Test("Providers made while the validator builds record every get; others do not")
    func recordedProviders() throws {
        var built: AppServices?
        _ = ServiceValidator.validate(building: {
            let services = AppServices.make()
            built = services
            return services
        })
        let services = try #require(built)
        guard case .recorded(let recorded) = services.pool.source, case .lazy = recorded.source else {
            Issue.record("a provider made while validating should record")
            return
        }
        // Outside the validation they work as ever.
        #expect(try services.job.getService().pool === services.pool.getService())
        #expect(try services.settings.getService().url == "db://local")
        guard case .lazy = ServiceProvider(mode: .lazy, factory: { Pool(url: "") }).source else {
            Issue.record("a provider made after a validation should not record")
            return
        }
    }

    @Test("Every failure at once, each with its path: a failing atOne, what depends on it, a missing service")
    func failures() {
        struct Broken {
            let settings: ServiceProvider<AppSettings>
            let pool: ServiceProvider<Pool>
            let fine: ServiceProvider<Service>
            let missingLog: ServiceProvider<Service>?
            let needsLog: ServiceProvider<Service>
        }
        func make() -> Broken {
            let settings = ServiceProvider<AppSettings>(mode: .atOne) { throw TestError(code: 7) }
            let missingLog: ServiceProvider<Service>? = nil
            return Broken(
                settings: settings,
                pool: ServiceProvider(mode: .lazy) { Pool(url: try settings.getService().url) },
                fine: ServiceProvider(Service()),
                missingLog: missingLog,
                needsLog: ServiceProvider(mode: .lazy) {
                    guard let log = missingLog else { throw TestError(code: 404) }
                    return try log.getService()
                }
            )
        }
        for report in [ServiceValidator.validate(building: make), ServiceValidator.validate(make())] {
            #expect(!report.isValid)
            #expect(report.failures.map(\.path) == ["settings", "pool", "needsLog"])
            #expect(report.failures.map { $0.error.error as? TestError } == [TestError(code: 7), TestError(code: 7), TestError(code: 404)])
            #expect(typeList(report.failures[1].error.pathServices) == ["Pool", "AppSettings"])
            #expect(report.made == ["fine"])
            #expect(report.skipped.map(\.path) == ["missingLog"])
            #expect(report.skipped.first?.reason == "nil: no provider to make")
            #expect(report.graph.nodes.map { $0.failure != nil } == [true, true, false, true])
        }
        // Built by the validator or not, the pool's dependency on the failed settings is drawn.
        #expect(ServiceValidator.validate(building: make).graph.description == "pool -> settings\nfine (no dependency recorded)\nneedsLog (no dependency recorded)")
        #expect(ServiceValidator.validate(make()).graph.description == "pool -> settings\nfine (no dependency recorded)\nneedsLog (no dependency recorded)")
    }

    @Test("A provider validated alone is at the path `self`, failed or made")
    func providerAlone() {
        let failed = ServiceValidator.validate(ServiceProvider<Service>(mode: .lazy) { throw TestError(code: 3) })
        #expect(failed.failures.map(\.path) == ["self"])
        #expect(failed.failures.first?.error.error as? TestError == TestError(code: 3))
        #expect(failed.graph.nodes.map(\.name) == ["self"])
        let made = ServiceValidator.validate(ServiceProvider(mode: .lazy) { Service() })
        #expect(made.made == ["self"])
        #expect(made.failures.isEmpty)
    }

    @Test("A cycle fails each provider on it, and the graph marks its edges")
    func cycle() throws {
        for report in [ServiceValidator.validate(building: CycleServices.init), ServiceValidator.validate(CycleServices())] {
            #expect(report.failures.map(\.path) == ["first", "second"])
            #expect(report.failures.allSatisfy { $0.error.isDependencyCycle })
            #expect(report.made == ["third"])
            #expect(report.graph.description == "first -> second (cycle)\nsecond -> first (cycle)\nthird (no dependency recorded)")
            #expect(report.graph.edges.allSatisfy { $0.isCycle })
            let dot = report.graph.dot()
            #expect(dot.contains("n0 -> n1 [color=\"#dc2626\", penwidth=2, label=\"cycle\", fontcolor=\"#dc2626\"];"))
            #expect(dot.contains("n1 -> n0 [color=\"#dc2626\", penwidth=2, label=\"cycle\", fontcolor=\"#dc2626\"];"))
            #expect(report.graph.mermaid().contains("linkStyle 0,1 stroke:#dc2626,stroke-width:2px"))
        }
    }

    @Test("A provider whose factory gets itself fails, and the graph draws its edge to itself")
    func selfCycle() throws {
        final class Box: @unchecked Sendable {
            // Written once, before the validation.
            var provider: ServiceProvider<Service>?
        }
        struct Alone {
            let itself: ServiceProvider<Service>
        }
        let box = Box()
        let itself = ServiceProvider<Service>(mode: .lazy) {
            _ = try box.provider!.getService()
            return Service()
        }
        box.provider = itself
        let report = ServiceValidator.validate(Alone(itself: itself))
        #expect(report.failures.map(\.path) == ["itself"])
        #expect(report.failures.first?.error.isDependencyCycle == true)
        #expect(report.graph.description == "itself -> itself (cycle)")
        // Asked for by another provider, which is on no cycle, recorded or not.
        struct Asked {
            let outer: ServiceProvider<Service>
            let itself: ServiceProvider<Service>
        }
        let asked = {
            Asked(
                outer: ServiceProvider(mode: .lazy) {
                    _ = try? box.provider!.getService()
                    return Service()
                },
                itself: itself
            )
        }
        for report in [ServiceValidator.validate(asked()), ServiceValidator.validate(building: asked)] {
            #expect(report.graph.description == "outer -> itself\nitself -> itself (cycle)")
        }
        box.provider = nil
    }

    @Test("A cycle is marked on every edge of its path, not on the others")
    func cyclePath() {
        final class Ring: @unchecked Sendable {
            // Written once, before any get.
            var a: ServiceProvider<NodeOne>!
            var b: ServiceProvider<NodeTwo>!
            var c: ServiceProvider<Service>!
            var outside: ServiceProvider<Pool>!
        }
        let report = ServiceValidator.validate(building: { () -> Ring in
            let ring = Ring()
            ring.outside = ServiceProvider(mode: .lazy) { _ = try? ring.a.getService(); return Pool(url: "") }
            ring.a = ServiceProvider(mode: .lazy) { _ = try ring.b.getService(); return NodeOne() }
            ring.b = ServiceProvider(mode: .lazy) { _ = try ring.c.getService(); return NodeTwo() }
            ring.c = ServiceProvider(mode: .lazy) { _ = try ring.a.getService(); return Service() }
            return ring
        })
        #expect(report.failures.map(\.path) == ["a", "b", "c"])
        #expect(report.made == ["outside"])
        #expect(report.graph.description == "a -> b (cycle)\nb -> c (cycle)\nc -> a (cycle)\noutside -> a")
    }

    @Test("A cycle a factory got past is marked on every edge of its path, though every provider was made in the end")
    func cycleGotPast() {
        final class Ring: @unchecked Sendable {
            // Written once, before any get.
            var a: ServiceProvider<NodeOne>!
            var b: ServiceProvider<NodeTwo>!
            var c: ServiceProvider<Service>!
        }
        // Made last to first: c's making asks for a, whose making asks for b, whose making asks
        // for c: a cycle, which a's factory gets past. b, failed, is made again, asking for c
        // once more: an edge that is not a cycle between the same two providers.
        let report = ServiceValidator.validate(building: { () -> Ring in
            let ring = Ring()
            ring.a = ServiceProvider(mode: .lazy) { _ = try? ring.b.getService(); return NodeOne() }
            ring.b = ServiceProvider(mode: .lazy) { _ = try ring.c.getService(); return NodeTwo() }
            ring.c = ServiceProvider(mode: .lazy) { _ = try ring.a.getService(); return Service() }
            return ring
        })
        #expect(report.isValid)
        #expect(report.made == ["a", "b", "c"])
        #expect(report.graph.description == "a -> b (cycle)\nb -> c (cycle)\nc -> a (cycle)")
    }

    @Test("Providers that asked for each other in makings apart, each failing with an error of its own, are not drawn as a cycle")
    func loopWithoutACycle() {
        final class Pair: @unchecked Sendable {
            // Written once, before any get.
            var a: ServiceProvider<NodeOne>!
            var b: ServiceProvider<NodeTwo>!
        }
        let aMakings = Counter()
        let bMakings = Counter()
        // Made last to first: b's first making asks for a, whose first making asks for nothing;
        // a's second making asks for b, whose second making asks for nothing.
        let report = ServiceValidator.validate(building: { () -> Pair in
            let pair = Pair()
            pair.a = ServiceProvider(mode: .lazy) {
                if aMakings.increment() > 1 { _ = try? pair.b.getService() }
                throw TestError(code: 1)
            }
            pair.b = ServiceProvider(mode: .lazy) {
                if bMakings.increment() == 1 { _ = try? pair.a.getService() }
                throw TestError(code: 2)
            }
            return pair
        })
        #expect(report.failures.map(\.path) == ["a", "b"])
        #expect(!report.failures.contains { $0.error.isDependencyCycle })
        #expect(report.graph.description == "a -> b\nb -> a")
    }

    @Test("A provider that failed on a cycle of its own and one that asked for it, which it asked for too, are no cycle")
    func selfCycleBesideALoop() {
        final class Pair: @unchecked Sendable {
            // Written once, before any get.
            var x: ServiceProvider<NodeOne>!
            var y: ServiceProvider<NodeTwo>!
        }
        let xMakings = Counter()
        // Made last to first: y's making asks for x, whose making asks for itself; y gets past
        // that. x's second making reads y, then asks for itself again.
        let report = ServiceValidator.validate(building: { () -> Pair in
            let pair = Pair()
            pair.x = ServiceProvider(mode: .lazy) {
                if xMakings.increment() > 1 { _ = try pair.y.getService() }
                _ = try pair.x.getService()
                return NodeOne()
            }
            pair.y = ServiceProvider(mode: .lazy) { _ = try? pair.x.getService(); return NodeTwo() }
            return pair
        })
        #expect(report.failures.map(\.path) == ["x"])
        #expect(report.made == ["y"])
        #expect(report.graph.description == "x -> x (cycle)\nx -> y\ny -> x")
    }

    @Test("Nested containers, classes, tuples, arrays, dictionaries and optionals are walked, each provider once")
    func nestedContainers() {
        final class Shared: @unchecked Sendable {
            // Immutable.
            let api = ServiceProvider(mode: .lazy) { Service(number: 1) }
            var again: Shared?
        }
        struct Network {
            let shared: Shared
            let tokens: [ServiceProvider<Service>]
            let byName: [String: ServiceProvider<Service>]
            let pair: (ServiceProvider<Service>, label: ServiceProvider<Service>)
        }
        struct Root {
            let network: Network
            let sameShared: Shared
            let optional: ServiceProvider<Service>?
            let text = "not a provider"
            let numbers = [1, 2, 3]
        }
        let shared = Shared()
        shared.again = shared  // a loop: walked once
        let root = Root(
            network: Network(
                shared: shared,
                tokens: [ServiceProvider(Service(number: 2)), ServiceProvider(mode: .many) { Service(number: 3) }],
                byName: ["b": ServiceProvider(Service(number: 5)), "a": ServiceProvider(Service(number: 4))],
                pair: (ServiceProvider(Service(number: 6)), label: ServiceProvider(Service(number: 7)))
            ),
            sameShared: shared,
            optional: ServiceProvider(Service(number: 8))
        )
        let report = ServiceValidator.validate(root)
        #expect(report.isValid)
        #expect(report.made == [
            "network.shared.api", "network.tokens[0]", "network.tokens[1]", "network.byName[a]",
            "network.byName[b]", "network.pair.0", "network.pair.label", "optional",
        ])
        #expect(report.skipped.isEmpty)
    }

    @Test("Params providers, safe or not, are skipped with the reason")
    func paramsSkipped() {
        struct WithParams {
            let plain: ServiceParamsProvider<Service, Int>
            let safe: ServiceParamsProvider<Service, String?>
        }
        let report = ServiceValidator.validate(
            WithParams(
                plain: ServiceParamsProvider { Service(number: $0) },
                safe: ServiceParamsSafeProvider(factory: { (_: String?) in Service() })
            )
        )
        #expect(!report.isValid, "nothing was checked")
        #expect(report.made.isEmpty && report.failures.isEmpty)
        #expect(report.skipped.map(\.path) == ["plain", "safe"])
        #expect(report.skipped.map(\.reason) == [
            "needs params of type Swift.Int: get it with params to check it",
            "needs params of type Swift.Optional<Swift.String>: get it with params to check it",
        ])
        #expect(report.graph.nodes.map(\.isSafe) == [false, true])
        #expect(report.graph.nodes.map(\.mode) == [.params, .params])
    }

    @Test("Async and main-actor providers are listed as skipped, with the reason, and not made")
    @MainActor
    func asyncAndMainActorSkipped() {
        let counter = Counter()
        let report = ServiceValidator.validate(MixedServices.make(counter: counter))
        #expect(report.isValid)
        #expect(report.made == ["plain"])
        #expect(report.skipped.map(\.path) == ["loaded", "reports", "model", "broken", "none"])
        let async = "made with async: await a get to check it, or validate with ServiceValidator.validateIncludingAsync(building:)"
        #expect(report.skipped.map(\.reason) == [
            async,
            "made with async from params of type Swift.Int: await a get with params to check it",
            "bound to the main actor: get it there to check it, or validate with ServiceValidator.validateIncludingAsync(building:)",
            async,
            "nil: no provider to make",
        ])
        #expect(counter.value == 1)  // the plain one
        #expect(report.graph.nodes.map(\.name) == ["plain"])
    }

    @Test("Every kind of provider is made and drawn by its mode")
    func modes() throws {
        struct Kinds {
            let instance: ServiceProvider<Service>
            let weak: ServiceProvider<Service>
            let safe: ServiceProvider<Service>
            let session: ServiceProvider<UserData>
            let wrongSession: ServiceProvider<UserData>
        }
        let mediator = ServiceSessionMediator(session: UserSession(userId: 1))
        let log = SessionFactoryLog()
        let report = ServiceValidator.validate(building: {
            Kinds(
                instance: ServiceProvider(Service()),
                weak: ServiceProvider(mode: .weak) { Service() },
                safe: ServiceSafeProvider(mode: .lazy) { Service() },
                session: UserDataFactory(mode: .lazy, log: log).serviceProvider(mediator: mediator),
                wrongSession: UserDataFactory(mode: .lazy, log: log, failForUser: 1).serviceProvider(mediator: mediator)
            )
        })
        #expect(report.made == ["instance", "weak", "safe", "session"])
        #expect(report.failures.map(\.path) == ["wrongSession"])
        #expect(report.graph.nodes.map(\.mode) == [.atOne, .weak, .lazy, .session, .session])
        #expect(report.graph.nodes.map(\.isSafe) == [false, false, true, false, false])
        #expect(Set(report.timings.map(\.path)) == ["weak", "safe", "session", "wrongSession"])
        #expect(report.graph.edges.isEmpty)
    }

    @Test("A session provider of a signed-in user's session fails with wrongSession while a guest's is current, timed though its factory did not run")
    func sessionOfAnotherType() throws {
        struct CartFactory: ServiceSessionFactory {
            let mode: ServiceSessionFactoryMode = .lazy
            let made: Counter
            func makeService(session: SignedInSession) throws -> String {
                made.increment()
                return "cart of \(session.key)"
            }
        }
        struct Shop {
            let cart: ServiceProvider<String>
        }
        let made = Counter()
        let mediator = ServiceSessionMediator<AccountSession>(session: GuestSession(key: "guest"))
        let shop = Shop(cart: CartFactory(made: made).serviceProvider(mediator: mediator))

        let asGuest = ServiceValidator.validate(shop)
        #expect(!asGuest.isValid)
        #expect(asGuest.made.isEmpty)
        #expect(asGuest.failures.map(\.path) == ["cart"])
        #expect(asGuest.failures.first?.error.isWrongSession == true)
        #expect(asGuest.timings.map(\.path) == ["cart"])
        #expect(made.value == 0)

        mediator.updateSession(SignedInSession(key: 7))
        let signedIn = ServiceValidator.validate(shop)
        #expect(signedIn.isValid)
        #expect(signedIn.made == ["cart"])
        #expect(made.value == 1)
        #expect(try shop.cart.getService() == "cart of 7")
    }

    @Test("Creation times are slowest first, and a making's time leaves out what it asked for", .offThePool)
    func timings() throws {
        struct Slow {
            let quick: ServiceProvider<Service>
            let slow: ServiceProvider<Pool>
        }
        let report = ServiceValidator.validate(building: { () -> Slow in
            // Far longer than `quick`'s own making, so that a pause of the machine during that
            // making does not make it the slower.
            let slow = ServiceProvider(mode: .lazy) { () -> Pool in
                Thread.sleep(forTimeInterval: 0.2)
                return Pool(url: "")
            }
            let quick = ServiceProvider(mode: .lazy) { () -> Service in
                Thread.sleep(forTimeInterval: 0.005)
                _ = try slow.getService()
                return Service()
            }
            return Slow(quick: quick, slow: slow)
        })
        #expect(report.timings.map(\.path) == ["slow", "quick"])
        let slow = report.timings[0].duration
        let quick = report.timings[1].duration
        #expect(slow >= .milliseconds(200))
        #expect(quick >= .milliseconds(5))
        #expect(quick < slow)  // with the making it asked for, it would be longer than 205 ms
        #expect(report.graph.description == "quick -> slow")
    }

    @Test("A factory that failed is timed too, and listed under the creation times", .offThePool)
    func failedMakingIsTimed() throws {
        struct Flaky {
            let pool: ServiceProvider<Pool>
        }
        let report = ServiceValidator.validate(building: { () -> Flaky in
            Flaky(pool: ServiceProvider(mode: .lazy) { () -> Pool in
                Thread.sleep(forTimeInterval: 0.02)
                throw TestError()
            })
        })
        #expect(report.made.isEmpty)
        #expect(report.failures.map(\.path) == ["pool"])
        #expect(report.timings.map(\.path) == ["pool"])
        #expect(try #require(report.timings.first).duration >= .milliseconds(20))
        let lines = report.description.split(separator: "\n").map(String.init)
        #expect(lines.first == "Invalid: 0 providers made, 1 failed, 0 skipped")
        let times = try #require(lines.firstIndex(of: "Creation times, slowest first:"))
        #expect(lines[times + 1].hasPrefix("  pool (ServiceContainerKitTests.Pool)  "))
    }

    @Test("The report reads as text")
    func description() {
        struct Plain {
            let fine: ServiceProvider<Service>
            let broken: ServiceProvider<Service>
            let params: ServiceParamsProvider<Service, Int>
            let none: ServiceProvider<Service>?
        }
        let report = ServiceValidator.validate(
            Plain(
                fine: ServiceProvider(Service()),
                broken: ServiceProvider(mode: .atOne) { throw TestError(code: 2) },
                params: ServiceParamsProvider { Service(number: $0) },
                none: nil
            )
        )
        #expect(report.description == """
            Invalid: 1 provider made, 1 failed, 2 skipped
            Failures:
              broken: Failed to obtain service ServiceContainerKitTests.Service with error: TestError(code: 2)
            Skipped:
              params (ServiceContainerKitTests.Service): needs params of type Swift.Int: get it with params to check it
              none (ServiceContainerKitTests.Service): nil: no provider to make
            """)
        let valid = ServiceValidator.validate(building: { AppServices.make() })
        let lines = valid.description.split(separator: "\n").map(String.init)
        #expect(lines.first == "Valid: 4 providers made, 0 failed, 1 skipped")
        #expect(lines.contains("Creation times, slowest first:"))
        #expect(lines.suffix(4) == ["Dependencies:", "  pool -> settings", "  job -> pool", "  httpLog -> log"])
        #expect(ServiceValidationReport.milliseconds(.microseconds(1_500)) == "1.500 ms")
    }

    @Test(
        "A value without a provider is not valid, and the report says what to pass instead",
        arguments: [
            (42 as any Sendable, "Swift.Int"),
            (NotAContainer(), "ServiceContainerKitTests.NotAContainer"),
        ]
    )
    func nothingFound(value: any Sendable, typeName: String) {
        let report = ServiceValidator.validate(value)
        #expect(!report.isValid)
        #expect(report.made.isEmpty && report.failures.isEmpty && report.skipped.isEmpty)
        #expect(ObjectIdentifier(report.containerType) == ObjectIdentifier(type(of: value)))
        #expect(report.description == """
            Invalid: 0 providers made, 0 failed, 0 skipped
            No provider found in a value of type \(typeName): pass a container (a struct or class of \
            providers, or a locator), or the function that builds it as validate(building:)
            """)
    }

    @available(*, deprecated, message: "it calls the deprecated form on purpose")
    @Test("The builder passed without its label is still built and checked")
    func builderWithoutLabel() {
        let report = ServiceValidator.validate({ AppServices.make() })
        #expect(report.isValid)
        #expect(ObjectIdentifier(report.containerType) == ObjectIdentifier(AppServices.self))
        #expect(report.graph.description == "pool -> settings\njob -> pool\nhttpLog -> log")
    }

    @available(*, deprecated, message: "it calls the deprecated form on purpose")
    @Test("A builder isolated to the main actor, passed without its label, is still built and checked")
    @MainActor func mainActorBuilderWithoutLabel() {
        let report = ServiceValidator.validate(Self.buildOnTheMainActor)
        #expect(report.isValid)
        #expect(ObjectIdentifier(report.containerType) == ObjectIdentifier(AppServices.self))
        #expect(report.graph.description == "pool -> settings\njob -> pool\nhttpLog -> log")
    }

    @MainActor static func buildOnTheMainActor() -> AppServices { AppServices.make() }

    @Test("A container with nothing but nil optional providers is valid: it was found, with nothing to make")
    func onlyNilProviders() {
        struct Optionals {
            let none: ServiceProvider<Service>? = nil
            let noParams: ServiceParamsProvider<Service, Int>? = nil
            let noAsync: ServiceAsyncProvider<Service>? = nil
            let noAsyncParams: ServiceAsyncParamsProvider<Service, Int>? = nil
            let noModel: ServiceMainActorProvider<Service>? = nil
        }
        let report = ServiceValidator.validate(Optionals())
        #expect(report.isValid)
        #expect(report.skipped.map(\.path) == ["none", "noParams", "noAsync", "noAsyncParams", "noModel"])
        #expect(Set(report.skipped.map(\.reason)) == ["nil: no provider to make"])
        let built = ServiceValidator.validate(building: { AppServices.make() })
        #expect(ObjectIdentifier(built.containerType) == ObjectIdentifier(AppServices.self))
    }

    @Test("A lazy var provider is named as written; never read, it is skipped with what to do, and a container of only those checked nothing")
    func lazyVarProviders() {
        final class Lazies: @unchecked Sendable {  // its lazy vars are read on one thread here
            private let counter = Counter()
            lazy var token = ServiceProvider<Pool>(mode: .lazy) { throw TestError(code: 3) }
            lazy var api = ServiceProvider<Job>(mode: .lazy) { [unowned self] in
                self.counter.increment()
                return Job(pool: try self.token.getService())
            }
        }
        let unread = ServiceValidator.validate(Lazies())
        #expect(!unread.isValid)
        #expect(unread.skipped.map(\.path) == ["token", "api"])
        let reason = "a lazy var not read yet, which the validator cannot read: make it a let, or read it before validating"
        #expect(unread.skipped.map(\.reason) == [reason, reason])
        #expect(unread.description == """
            Invalid: 0 providers made, 0 failed, 2 skipped
            Nothing checked: every provider found was skipped, for the reason given with it
            Skipped:
              token (ServiceContainerKitTests.Pool): \(reason)
              api (ServiceContainerKitTests.Job): \(reason)
            """)

        // Read before the validation, they are checked under their own names.
        let read = Lazies()
        _ = (read.token, read.api)
        let report = ServiceValidator.validate(read)
        #expect(!report.isValid)
        #expect(report.failures.map(\.path) == ["token", "api"])
        #expect(report.graph.description == "api -> token")
    }

    @Test("A lazy var of an optional provider: unread, skipped with the fix; read, nil or not, as any optional provider")
    func optionalLazyVarProviders() {
        final class Lazies: @unchecked Sendable {  // its lazy vars are read on one thread here
            lazy var none: ServiceProvider<Pool>? = nil
            lazy var some: ServiceProvider<Pool>? = ServiceProvider(mode: .lazy) { Pool(url: "db://lazy") }
            lazy var count = 3  // not a provider: never listed
        }
        let unread = ServiceValidator.validate(Lazies())
        #expect(unread.skipped.map(\.path) == ["none", "some"])
        #expect(unread.skipped.allSatisfy { $0.reason.hasPrefix("a lazy var not read yet") })
        #expect(unread.skipped.allSatisfy { ObjectIdentifier($0.serviceType) == ObjectIdentifier(Pool.self) })
        #expect(!unread.isValid)

        let read = Lazies()
        _ = (read.none, read.some, read.count)
        let report = ServiceValidator.validate(read)
        #expect(report.isValid)
        #expect(report.made == ["some"])
        #expect(report.skipped.map(\.path) == ["none"])
        #expect(report.skipped.map(\.reason) == ["nil: no provider to make"])
    }

    @Test("A container whose every provider is skipped checked nothing and is not valid; nil optional ones beside it change nothing")
    func everyProviderSkipped() {
        struct Skipped {
            let log = ServiceParamsProvider<String, String> { $0 }
            let database = ServiceAsyncProvider<Pool>(mode: .lazy) { Pool(url: "db://async") }
            let none: ServiceProvider<Job>? = nil
        }
        let report = ServiceValidator.validate(Skipped())
        #expect(!report.isValid)
        #expect(report.skipped.map(\.path) == ["log", "database", "none"])
        #expect(report.description.contains("\nNothing checked: every provider found was skipped, for the reason given with it\n"))
    }

    @Test("The providers in an enum's payload are found, under the case's name")
    func enumPayloads() {
        enum Backend {
            case local(ServiceProvider<Pool>)
            case remote(pool: ServiceProvider<Pool>, job: ServiceProvider<Job>)
            case none
        }
        struct Container {
            let backend: Backend
            let spare: Backend
        }
        let pool = ServiceProvider(mode: .lazy) { Pool(url: "db://remote") }
        let container = Container(
            backend: .remote(pool: pool, job: ServiceProvider(mode: .many) { Job(pool: try pool.getService()) }),
            spare: .none
        )
        let report = ServiceValidator.validate(container)
        #expect(report.isValid)
        #expect(report.made == ["backend.remote.pool", "backend.remote.job"])
        #expect(report.graph.description == "backend.remote.job -> backend.remote.pool")
        let local = ServiceValidator.validate(Container(backend: .local(pool), spare: .none))
        #expect(local.made == ["backend.local"])
    }

    @Test(
        "A provider 32 levels below the container is found, one 33 levels below is not",
        arguments: [(31, true), (32, false)]
    )
    func depthLimit(links: Int, found: Bool) {
        indirect enum Chain {
            case link(Chain)
            case end(ServiceProvider<Pool>)
        }
        let provider = ServiceProvider(mode: .lazy) { Pool(url: "db://deep") }
        // Each payload is one level: the provider is `links + 1` levels below the chain.
        let chain = (0..<links).reduce(Chain.end(provider)) { inner, _ in .link(inner) }
        let report = ServiceValidator.validate(chain)
        let path = (Array(repeating: "link", count: links) + ["end"]).joined(separator: ".")
        #expect(report.made == (found ? [path] : []))
        #expect(report.failures.isEmpty)
        #expect(report.skipped.isEmpty)
    }

    @Test("Two entries whose paths print the same are both reported, the second with (2)")
    func samePrintedPaths() {
        struct Failing: Error {}
        struct ByID {
            let byID: [AnyHashable: ServiceProvider<Service>]
        }
        let failing = { ServiceProvider<Service>(mode: .lazy) { throw Failing() } }
        let report = ServiceValidator.validate(ByID(byID: [1: failing(), "1": failing()]))
        #expect(report.failures.map(\.path).sorted() == ["byID[1]", "byID[1] (2)"])
        #expect(report.graph.nodes.map(\.name).sorted() == ["byID[1]", "byID[1] (2)"])
    }

    @Test("An existing container's providers are made last to first")
    func madeLastToFirst() {
        struct Three {
            let first: ServiceProvider<Int>
            let second: ServiceProvider<Int>
            let third: ServiceProvider<Int>
        }
        let order = Locked<[String]>([])
        func provider(_ name: String) -> ServiceProvider<Int> {
            ServiceProvider(mode: .lazy) {
                order.withLock { $0.append(name) }
                return 1
            }
        }
        let report = ServiceValidator.validate(Three(first: provider("first"), second: provider("second"), third: provider("third")))
        #expect(report.made == ["first", "second", "third"])
        #expect(order.withLock { $0 } == ["third", "second", "first"])
    }

    @Test("The creation times line up, whatever the length of each name")
    func creationTimesLineUp() throws {
        struct Aligned {
            let a: ServiceProvider<Service>
            let longer: ServiceProvider<Service>
        }
        let report = ServiceValidator.validate(
            Aligned(a: ServiceProvider(mode: .lazy) { Service() }, longer: ServiceProvider(mode: .lazy) { Service() })
        )
        #expect(Set(report.timings.map(\.path)) == ["a", "longer"])
        let expected = report.timings.map { timing in
            let name = timing.path == "a"
                ? "a (ServiceContainerKitTests.Service)     " : "longer (ServiceContainerKitTests.Service)"
            return "  \(name)  \(ServiceValidationReport.milliseconds(timing.duration))"
        }
        let lines = report.description.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Creation times, slowest first:"))
        #expect(Array(lines.dropFirst(heading + 1).prefix(2)) == expected)
    }

    @Test("A creation time of a second or more is in milliseconds too")
    func millisecondsOfSeconds() {
        #expect(ServiceValidationReport.milliseconds(.seconds(2) + .microseconds(1_500)) == "2001.500 ms")
    }

    @Test("A provider made more than once in a validation is timed for all its makings", .offThePool)
    func everyMakingTimed() throws {
        struct Repeated {
            let first: ServiceProvider<Int>
            let second: ServiceProvider<Int>
            let stamp: ServiceProvider<Int>
        }
        // Made three times: by the validator, and for each of the two others.
        let stamp = ServiceProvider<Int>(mode: .many) {
            Thread.sleep(forTimeInterval: 0.03)
            return 1
        }
        let report = ServiceValidator.validate(
            Repeated(
                first: ServiceProvider(mode: .lazy) { try stamp.getService() },
                second: ServiceProvider(mode: .lazy) { try stamp.getService() },
                stamp: stamp
            )
        )
        #expect(report.isValid)
        let timing = try #require(report.timings.first { $0.path == "stamp" })
        #expect(timing.duration >= .milliseconds(90))
    }

    @Test("A provider outside the container that failed more than once is drawn with its last failure")
    func lastFailureOfAnOutsideProvider() throws {
        struct Askers {
            let first: ServiceProvider<Job>
            let second: ServiceProvider<Job>
        }
        let calls = Counter()
        let pool = ServiceProvider<Pool>(mode: .lazy) { throw TestError(code: calls.increment()) }
        let report = ServiceValidator.validate(
            Askers(
                first: ServiceProvider(mode: .lazy) { Job(pool: try pool.getService()) },
                second: ServiceProvider(mode: .lazy) { Job(pool: try pool.getService()) }
            )
        )
        // Made last to first: the second's making asked first.
        #expect(report.failures.map { $0.error.error as? TestError } == [TestError(code: 2), TestError(code: 1)])
        let outside = try #require(report.graph.nodes.first { $0.path == nil })
        #expect(outside.name == "Pool")
        #expect(outside.failure?.error as? TestError == TestError(code: 2))
    }

    @Test("An object or a skipped provider reached twice is listed once, under the first path")
    func reachedTwiceListedOnce() {
        final class Holder {
            let none: ServiceProvider<Service>? = nil
        }
        struct Twice {
            let loaded: ServiceAsyncProvider<Service>
            let holder: Holder
            let again: ServiceAsyncProvider<Service>
            let sameHolder: Holder
        }
        let loaded = ServiceAsyncProvider<Service>(mode: .lazy) { Service() }
        let holder = Holder()
        let report = ServiceValidator.validate(Twice(loaded: loaded, holder: holder, again: loaded, sameHolder: holder))
        #expect(report.skipped.map(\.path) == ["loaded", "holder.none"])
        #expect(report.description.split(separator: "\n").first == "Invalid: 0 providers made, 0 failed, 2 skipped")
    }

    @Test("Validations on several threads at once each see their own gets", .offThePool)
    func concurrentValidations() throws {
        let reports = try raceOnThreads(4) { _ in
            ServiceValidator.validate(building: { AppServices.make() }).graph.description
        }
        #expect(reports == Array(repeating: "pool -> settings\njob -> pool\nhttpLog -> log", count: 4))
    }
}

// MARK: - Including async providers

/// Async providers wired after they are made, so that they can await each other.
final class AsyncCycleServices: @unchecked Sendable {
    // Written once, before any get.
    var first: ServiceAsyncProvider<NodeOne>!
    var second: ServiceAsyncProvider<NodeTwo>!
    let plain = ServiceProvider(Service())

    init() {
        first = ServiceAsyncProvider(mode: .lazy) { [unowned self] in
            _ = try await self.second.getService()
            return NodeOne()
        }
        second = ServiceAsyncProvider(mode: .lazy) { [unowned self] in
            _ = try await self.first.getService()
            return NodeTwo()
        }
    }
}

/// A plain provider beside an async, an async params, a main-actor and a failing async one, and
/// a `nil` optional one; `counter` counts the makings.
struct MixedServices {
    let plain: ServiceProvider<Pool>
    let loaded: ServiceAsyncProvider<Service>
    let reports: ServiceAsyncParamsProvider<Service, Int>
    let model: ServiceMainActorProvider<Service>
    let broken: ServiceAsyncProvider<Job>
    let none: ServiceAsyncProvider<Service>?

    static func make(counter: Counter) -> MixedServices {
        let plain = ServiceProvider(mode: .lazy) { () -> Pool in
            counter.increment()
            return Pool(url: "db://plain")
        }
        return MixedServices(
            plain: plain,
            loaded: ServiceAsyncProvider(mode: .lazy) { () async -> Service in
                counter.increment()
                return Service()
            },
            reports: ServiceAsyncParamsProvider { Service(number: $0) },
            model: ServiceMainActorProvider(mode: .lazy) {
                counter.increment()
                return Service()
            },
            broken: ServiceAsyncProvider(mode: .lazy) { () async throws -> Job in
                _ = try plain.getService()
                throw TestError(code: 7)
            },
            none: nil
        )
    }
}

@Suite("ServiceValidator, including async and main-actor providers")
struct IncludingAsyncValidatorTests {
    @Test("Async and main-actor providers are got once each, their failures reported at their paths; params providers are still skipped")
    func asyncAndMainActorGot() async throws {
        let counter = Counter()
        let report = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(building: { MixedServices.make(counter: counter) })
        }
        #expect(!report.isValid)
        #expect(report.made == ["plain", "loaded", "model"])
        #expect(report.failures.map(\.path) == ["broken"])
        #expect((report.failures.first?.error.error as? TestError) == TestError(code: 7))
        #expect(report.skipped.map(\.path) == ["reports", "none"])
        #expect(report.skipped.map(\.reason) == [
            "made with async from params of type Swift.Int: await a get with params to check it",
            "nil: no provider to make",
        ])
        #expect(counter.value == 3)
        // The async and main-actor gets are recorded too: `broken` asked for `plain`.
        #expect(report.graph.nodes.map(\.name) == ["plain", "loaded", "model", "broken"])
        #expect(report.graph.description == "broken -> plain\nloaded (no dependency recorded)\nmodel (no dependency recorded)")
        #expect(report.graph.nodes.map(\.mode) == [.lazy, .lazy, .lazy, .lazy])
        #expect((report.graph.nodes.last?.failure?.error as? TestError) == TestError(code: 7))
        #expect(report.timings.map(\.path).sorted() == ["broken", "loaded", "model", "plain"])
        #expect(report.description.hasPrefix("Invalid: 3 providers made, 1 failed, 2 skipped\nFailures:\n  broken: "))
    }

    @Test("Async and main-actor providers are got last to first, as the synchronous ones are made")
    func awaitedLastToFirst() async throws {
        struct Three {
            let first: ServiceAsyncProvider<Service>
            let second: ServiceMainActorProvider<Service>
            let third: ServiceAsyncProvider<Service>
        }
        // Each service is numbered by the order of its making.
        let makings = Counter()
        let three = Three(
            first: ServiceAsyncProvider(mode: .lazy) { Service(number: makings.increment()) },
            second: ServiceMainActorProvider(mode: .lazy) { Service(number: makings.increment()) },
            third: ServiceAsyncProvider(mode: .lazy) { Service(number: makings.increment()) }
        )
        let report = try await withAsyncTimeLimit { await ServiceValidator.validateIncludingAsync(three) }
        #expect(report.made == ["first", "second", "third"])
        #expect(try await three.third.getService().number == 1)
        #expect(try await MainActor.run { try three.second.getService() }.number == 2)
        #expect(try await three.first.getService().number == 3)
    }

    @Test("A container given as a value is validated the same")
    func containerValue() async throws {
        let counter = Counter()
        let mixed = MixedServices.make(counter: counter)
        let report = try await withAsyncTimeLimit { await ServiceValidator.validateIncludingAsync(mixed) }
        #expect(report.made == ["plain", "loaded", "model"])
        #expect(report.failures.map(\.path) == ["broken"])
        #expect(counter.value == 3)
        #expect(ServiceValidator.validate(mixed).made == ["plain"])
        // A synchronous validation draws none of the providers it skips.
        #expect(ServiceValidator.validate(mixed).graph.nodes.map(\.name) == ["plain"])
    }

    @Test("A cycle of async providers, which a synchronous validation skips, fails each provider on it at its path")
    func asyncCycle() async throws {
        let skipped = ServiceValidator.validate(AsyncCycleServices())
        #expect(skipped.isValid)
        #expect(skipped.skipped.map(\.path) == ["first", "second"])
        let report = try await withAsyncTimeLimit { await ServiceValidator.validateIncludingAsync(AsyncCycleServices()) }
        #expect(!report.isValid)
        #expect(report.failures.map(\.path) == ["first", "second"])
        // The loop is drawn as a cycle, though no get of it was recorded as the one that closed it.
        #expect(report.graph.description == "first -> second (cycle)\nsecond -> first (cycle)\nplain (no dependency recorded)")
        #expect(report.failures.allSatisfy { $0.error.isDependencyCycle })
        #expect(report.made == ["plain"])
    }

    @Test("A builder isolated to the main actor is called on it, and what its atOne providers make is timed")
    @MainActor
    func mainActorBuilder() async throws {
        let report = try await withAsyncTimeLimit { @MainActor in
            await ServiceValidator.validateIncludingAsync(building: ValidatorTests.buildOnTheMainActor)
        }
        #expect(report.isValid)
        #expect(report.made == ["settings", "pool", "job", "httpLog"])
        #expect(report.timings.map(\.path).sorted() == ["httpLog", "job", "pool", "settings"])
    }

    @Test("What the builder throws is thrown")
    func builderThrows() async {
        await #expect(throws: TestError(code: 1)) {
            _ = try await ServiceValidator.validateIncludingAsync(building: { () throws -> MixedServices in throw TestError(code: 1) })
        }
    }

    @Test("A main-actor provider that fails, and one that cannot be scoped, are failures at their paths")
    func mainActorFailures() async throws {
        struct Models {
            let failing = ServiceMainActorProvider<Service>(mode: .lazy) { throw TestError(code: 4) }
            let scoped = ServiceMainActorProvider<Service>(mode: .scoped) { Service() }
        }
        let report = try await withAsyncTimeLimit { await ServiceValidator.validateIncludingAsync(Models()) }
        #expect(report.made.isEmpty)
        #expect(report.failures.map(\.path) == ["failing", "scoped"])
        #expect((report.failures.first?.error.error as? TestError) == TestError(code: 4))
        #expect(report.failures.last?.error.description.contains("cannot be scoped on the main actor") == true)
    }

    @Test("An async atOne provider whose making failed is a failure; one provider held twice is got once, under its first path")
    func atOneFailureAndOneProviderTwice() async throws {
        let counter = Counter()
        let many = ServiceAsyncProvider<Service>(mode: .many) {
            counter.increment()
            return Service()
        }
        struct Held {
            let first: ServiceAsyncProvider<Service>
            let again: [ServiceAsyncProvider<Service>]
            let broken = ServiceAsyncProvider<Service>(mode: .atOne) { throw TestError(code: 5) }
        }
        let report = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(Held(first: many, again: [many]))
        }
        #expect(report.made == ["first"])
        #expect(report.failures.map(\.path) == ["broken"])
        #expect((report.failures.first?.error.error as? TestError) == TestError(code: 5))
        #expect(counter.value == 1)
    }

    @Test("An async provider of a synchronous provider is that provider: made once, synchronously, timed and drawn at the wrapper's path")
    func wrappedSynchronousProvider() async throws {
        struct Wrapped {
            let settings: ServiceProvider<AppSettings>
            let pool: ServiceAsyncProvider<Pool>
            let failing: ServiceAsyncProvider<Job>
        }
        struct Both {
            let sync: ServiceProvider<Pool>
            let wrapped: ServiceAsyncProvider<Pool>
        }
        let counter = Counter()
        let build = { @Sendable in
            let settings = ServiceProvider(mode: .lazy) { AppSettings() }
            let pool = ServiceProvider(mode: .lazy) { () -> Pool in
                counter.increment()
                return Pool(url: try settings.getService().url)
            }
            let failing = ServiceProvider<Job>(mode: .lazy) {
                counter.increment()
                throw TestError(code: 6)
            }
            return Wrapped(settings: settings, pool: ServiceAsyncProvider(pool), failing: ServiceAsyncProvider(failing))
        }
        let synchronous = ServiceValidator.validate(building: build)
        let awaited = try await withAsyncTimeLimit { await ServiceValidator.validateIncludingAsync(building: build) }
        for report in [synchronous, awaited] {
            #expect(report.made == ["settings", "pool"])
            #expect(report.failures.map(\.path) == ["failing"])
            #expect(report.skipped.isEmpty)
            #expect(report.graph.description == "pool -> settings\nfailing (no dependency recorded)")
            #expect(report.timings.map(\.path).sorted() == ["failing", "pool", "settings"])
        }
        #expect(counter.value == 4)  // each factory once a validation

        let pool = ServiceProvider(mode: .lazy) { () -> Pool in
            counter.increment()
            return Pool(url: "db://both")
        }
        let both = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(Both(sync: pool, wrapped: ServiceAsyncProvider(pool)))
        }
        #expect(both.made == ["sync"])
        #expect(counter.value == 5)
    }

    @Test("A validation whose task is cancelled fails the async singletons it had not made, and is not valid")
    func cancelledValidation() async throws {
        let counter = Counter()
        let report = try await withAsyncTimeLimit {
            await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await ServiceValidator.validateIncludingAsync(building: { MixedServices.make(counter: counter) })
            }.value
        }
        #expect(!report.isValid)
        #expect(report.made == ["plain", "model"])
        #expect(report.failures.map(\.path) == ["loaded", "broken"])
        #expect(report.failures.allSatisfy { $0.error.error is CancellationError })
        #expect(counter.value == 2)
    }

    @Test("A value without a provider is not valid, and the report names the validation's own builder call")
    func nothingFound() async {
        let report = await ServiceValidator.validateIncludingAsync(42)
        #expect(!report.isValid)
        #expect(report.description.hasSuffix("or the function that builds it as validateIncludingAsync(building:)"))
    }

    @available(*, deprecated, message: "it calls the deprecated form on purpose")
    @Test("The builder passed without its label is still built and checked")
    func builderWithoutLabel() async {
        let report = await ServiceValidator.validateIncludingAsync({ AppServices.make() })
        #expect(report.isValid)
        #expect(ObjectIdentifier(report.containerType) == ObjectIdentifier(AppServices.self))
    }

    @available(*, deprecated, message: "it calls the deprecated form on purpose")
    @Test("A builder isolated to the main actor, passed without its label, is still built and checked")
    @MainActor func mainActorBuilderWithoutLabel() async {
        let report = await ServiceValidator.validateIncludingAsync(ValidatorTests.buildOnTheMainActor)
        #expect(report.isValid)
        #expect(ObjectIdentifier(report.containerType) == ObjectIdentifier(AppServices.self))
    }
}

// MARK: - Rendering

@Suite("ServiceGraph renderings")
struct ServiceGraphRenderingTests {
    /// Three providers: an `atOne` one that failed itself, a safe `lazy` one that failed through
    /// it, and a provider outside the container; a cycle between the last two.
    static let graph: ServiceGraph = {
        let names = ServiceGraph.TypeNames()
        return ServiceGraph(
            nodes: [
                .init(
                    path: "settings", serviceType: AppSettings.self, mode: .atOne, kind: .plain,
                    failure: ServiceObtainError(service: AppSettings.self, error: TestError()), in: names
                ),
                .init(
                    path: "pool \"main\"", serviceType: Pool.self, mode: .lazy, kind: .safe,
                    failure: ServiceObtainError(service: AppSettings.self, error: TestError())
                        .withAddedToPath(service: Pool.self),
                    in: names
                ),
                .init(
                    path: nil, serviceType: ServiceProvider<Job>.self, mode: .unknown, kind: .plain, failure: nil,
                    in: names
                ),
            ],
            edges: [
                .init(from: 1, to: 0, isCycle: false),
                .init(from: 1, to: 2, isCycle: true),
                .init(from: 2, to: 1, isCycle: true),
            ]
        )
    }()

    @Test("dot(): a node per provider styled by mode, failures and cycles in red")
    func dot() {
        #expect(Self.graph.dot() == #"""
            digraph services {
                rankdir=LR;
                node [fontname="Helvetica", fontsize=11, shape=box];
                edge [color="#475569", fontname="Helvetica", fontsize=10];
                n0 [label="settings\nAppSettings (atOne)", style=filled, fillcolor="#fecaca", color="#dc2626", penwidth=2];
                n1 [label="pool \"main\"\nPool (lazy, safe)", style="rounded,filled", fillcolor="#dcfce7", peripheries=2, color="#dc2626", penwidth=2];
                n2 [label="ServiceProvider<Job>\nServiceProvider<Job> (not in the container)", shape=ellipse, style="dashed,filled", fillcolor=white];
                n1 -> n0;
                n1 -> n2 [color="#dc2626", penwidth=2, label="cycle", fontcolor="#dc2626"];
                n2 -> n1 [color="#dc2626", penwidth=2, label="cycle", fontcolor="#dc2626"];
            }

            """#)
    }

    @Test("Two types of one own name are drawn by their full names; a type alone in its name by its own")
    func typesOfOneName() throws {
        let billing = ServiceProvider<Billing.Config>(mode: .lazy) { .init() }
        let shipping = ServiceProvider<Shipping.Config>(mode: .lazy) { .init() }
        let stringNode = ServiceProvider<Wrap<String>.Node>(mode: .lazy) { .init() }
        struct Container {
            let app: ServiceProvider<AppSettings>
            let node: ServiceProvider<Wrap<Int>.Node>
        }
        let container = Container(
            app: ServiceProvider(mode: .lazy) {
                _ = try billing.getService()
                _ = try shipping.getService()
                _ = try stringNode.getService()
                return AppSettings(url: "db")
            },
            node: ServiceProvider(mode: .lazy) { .init() }
        )
        let graph = ServiceValidator.validate(container).graph
        let typeNames = try #require(graph.nodes.first?.typeNames.names)
        #expect(!typeNames.areNamed, "a validation names the graph's types before anything reads a name")
        let module = "ServiceContainerKitTests"
        #expect(graph.nodes.map(\.name) == [
            "app", "node", "\(module).Billing.Config", "\(module).Shipping.Config", "\(module).Wrap<Swift.String>.Node",
        ])
        #expect(typeNames.areNamed)
        #expect(graph.description == """
            app -> \(module).Billing.Config
            app -> \(module).Shipping.Config
            app -> \(module).Wrap<Swift.String>.Node
            node (no dependency recorded)
            """)
        #expect(graph.dot().contains(#"n0 [label="app\nAppSettings (lazy)""#))
        #expect(graph.dot().contains(#"n1 [label="node\n\#(module).Wrap<Swift.Int>.Node (lazy)""#))
    }

    @Test("Two types of one full name (declared in functions, or private to files) are told apart by number")
    func typesOfOneFullName() {
        func first() -> Any.Type {
            struct Config {}
            return Config.self
        }
        func second() -> Any.Type {
            struct Config {}
            return Config.self
        }
        let name = "ServiceContainerKitTests.ServiceGraphRenderingTests.Config"
        #expect(ServiceGraph.typeNames(of: [first(), second(), first(), Int.self]) == [name, "\(name) (2)", name, "Int"])
    }

    @Test("A Mermaid label reads its text literally: quotes, angle brackets, # and & are entity codes, a line break <br/>")
    func mermaidLabelEscapes() {
        #expect(ServiceGraph.mermaidQuoted(#"Box<any A & B> "x" #tag;"#) == "Box#lt;any A #38; B#gt; #quot;x#quot; #35;tag;")
        #expect(ServiceGraph.mermaidQuoted("byKey[a\nb]") == "byKey[a<br/>b]")
        #expect(ServiceGraph.mermaidQuoted("byKey[a\r\nb\rc]") == "byKey[a<br/>b<br/>c]")
        #expect(ServiceGraph.dotQuoted("byKey[a\r\nb\rc]") == #""byKey[a\nb\nc]""#)
        // A backslash of the text stays one, and one at its end does not escape the closing quote.
        #expect(ServiceGraph.dotQuoted(#"byKey[C:\tmp\]"#) == #""byKey[C:\\tmp\\]""#)
    }

    @Test("mermaid(): the same graph as a flowchart")
    func mermaid() {
        #expect(Self.graph.mermaid() == """
            flowchart LR
                n0["settings<br/>AppSettings (atOne)"]
                n1("pool #quot;main#quot;<br/>Pool (lazy, safe)")
                n2(("ServiceProvider#lt;Job#gt;<br/>ServiceProvider#lt;Job#gt; (not in the container)"))
                n1 --> n0
                n1 -->|cycle| n2
                n2 -->|cycle| n1
                classDef safe stroke-width:3px
                class n1 safe
                classDef failedBelow stroke:#dc2626,stroke-width:2px
                class n1 failedBelow
                classDef failed fill:#fecaca,stroke:#dc2626,stroke-width:2px
                class n0 failed
                linkStyle 1,2 stroke:#dc2626,stroke-width:2px

            """)
    }

    @Test("Every mode has its shape", arguments: [
        (ServiceGraph.Mode.atOne, "[", "style=filled"),
        (.lazy, "(", "style=\"rounded,filled\""),
        (.weak, "([", "style=\"rounded,dashed,filled\""),
        (.many, "[[", "shape=box3d"),
        (.session, "{{", "shape=hexagon"),
        (.params, "[/", "style=\"filled,diagonals\""),
        (.unknown, "((", "shape=ellipse"),
    ])
    func shapes(mode: ServiceGraph.Mode, mermaidOpening: String, dotAttribute: String) {
        let graph = ServiceGraph(
            nodes: [.init(path: "p", serviceType: Service.self, mode: mode, kind: .plain, failure: nil, in: .init())],
            edges: []
        )
        #expect(graph.mermaid().contains("    n0\(mermaidOpening)\"p<br/>"))
        #expect(graph.dot().contains(dotAttribute))
        #expect(graph.description == "p (no dependency recorded)")
    }
}

@Suite("ServiceValidator, converted safe params providers")
struct ConvertedSafeGraphTests {
    @Test("Providers converted from one safe params provider are nodes of their own, with no edge between them")
    func convertedSafeProviders() {
        struct Logs {
            let log: ServiceParamsProvider<String, String>
            let http: ServiceProvider<String>
            let sql: ServiceProvider<String>
            let user: ServiceProvider<Job>
        }
        let report = ServiceValidator.validate(building: {
            let log = ServiceParamsSafeProvider<String, String> { "log.\($0)" }
            let http = log.convert(params: "http")
            let sql = log.convert(params: "sql")
            return Logs(
                log: log, http: http, sql: sql,
                user: ServiceProvider(mode: .lazy) { Job(pool: Pool(url: try sql.getService())) }
            )
        })
        #expect(report.isValid)
        #expect(report.made == ["http", "sql", "user"])
        #expect(report.graph.description == "http -> log\nsql -> log\nuser -> sql")
    }

    @Test("Without their params provider in the container, converted safe providers have no edge between them")
    func convertedWithoutTheirParamsProvider() {
        struct Logs {
            let http: ServiceProvider<String>
            let sql: ServiceProvider<String>
        }
        let log = ServiceParamsSafeProvider<String, String> { "log.\($0)" }
        let report = ServiceValidator.validate(Logs(http: log.convert(params: "http"), sql: log.convert(params: "sql")))
        #expect(report.isValid)
        // Each runs the factory of the params provider, which is drawn by its service type.
        #expect(report.graph.nodes.map(\.name) == ["http", "sql", "String"])
        #expect(report.graph.description == "http -> String\nsql -> String")
    }

    @Test("A converted safe provider whose making asks for another of the same serialization: a cycle edge between the two")
    func cycleThroughTheSharedSerialization() {
        final class Logs: @unchecked Sendable {
            // Written once, before any get.
            var http: ServiceProvider<String>!
            var sql: ServiceProvider<String>!
        }
        let logs = Logs()
        let log = ServiceParamsSafeProvider<String, String> { name in
            name == "http" ? "log.http+" + (try logs.sql.getService()) : "log.\(name)"
        }
        logs.http = log.convert(params: "http")
        logs.sql = log.convert(params: "sql")
        #expect(throws: ServiceObtainError.self) { try logs.http.getService() }
        struct Container {
            let http: ServiceProvider<String>
            let sql: ServiceProvider<String>
        }
        let report = ServiceValidator.validate(Container(http: logs.http, sql: logs.sql))
        #expect(!report.isValid)
        #expect(report.graph.description == "http -> sql (cycle)\nhttp -> String\nsql -> String")
        #expect(report.failures.map(\.path) == ["http"])
    }

    @Test("A safe params provider whose factory asks for it again: the cycle is an edge of its own node, at its path")
    func safeParamsProviderAsksForItself() {
        final class Box: @unchecked Sendable {
            // Written once, before any get.
            var log: ServiceParamsProvider<String, String>!
        }
        struct Logs {
            let log: ServiceParamsProvider<String, String>
            let user: ServiceProvider<Job>
        }
        let box = Box()
        box.log = ServiceParamsSafeProvider<String, String> { name in
            name == "http" ? "log.http+" + (try box.log.getService(params: "sql")) : "log.\(name)"
        }
        let report = ServiceValidator.validate(Logs(
            log: box.log,
            user: ServiceProvider(mode: .lazy) { Job(pool: Pool(url: try box.log.getService(params: "http"))) }
        ))
        #expect(report.failures.map(\.path) == ["user"])
        #expect(report.failures.first?.error.isDependencyCycle == true)
        #expect(report.graph.nodes.map(\.name) == ["log", "user"])
        #expect(report.graph.description == "log -> log (cycle)\nuser -> log")
    }

    @Test("Providers that factories make and drop during a validation are nodes of their own, never merged")
    func shortLivedProviders() {
        struct Container {
            let log: ServiceParamsProvider<String, String>
            let parts: [ServiceProvider<Job>]
        }
        func make() -> Container {
            let log = ServiceParamsProvider<String, String> { "log.\($0)" }
            // Each factory converts `log` anew: the converted provider lives for one making only.
            let parts = (0..<50).map { index in
                ServiceProvider(mode: .lazy) { () -> Job in
                    _ = try log.convert(params: "part\(index)").getService()
                    return Job(pool: Pool(url: "db://\(index)"))
                }
            }
            return Container(log: log, parts: parts)
        }
        let report = ServiceValidator.validate(building: make)
        #expect(report.isValid)
        // 50 converted providers, each its own node asked by one part, each running `log`,
        // numbered from the second, as nodes without a path of one type are.
        let converted = ["String"] + (2...50).map { "String (\($0))" }
        let edges = report.graph.edges.map { (report.graph.nodes[$0.from].name, report.graph.nodes[$0.to].name) }
        #expect(edges.filter { $0.1.hasPrefix("String") }.map(\.1).sorted() == converted.sorted())
        #expect(edges.filter { $0.1 == "log" }.map(\.0).sorted() == converted.sorted())
        #expect(report.graph.edges.allSatisfy { $0.from != $0.to })
        #expect(report.graph.nodes.filter { $0.path == nil }.count == 50)
    }

    @Test("A making's read of a safe singleton, made or handed an instance, is an edge to that provider, at its path")
    func readOfASafeSingleton() {
        struct Reads {
            let settings: ServiceProvider<AppSettings>
            let given: ServiceProvider<AppSettings>
            let pool: ServiceProvider<Pool>
        }
        let settings = ServiceSafeProvider(mode: .atOne) { AppSettings() }
        let given = ServiceSafeProvider(AppSettings(url: "db://given"))
        let report = ServiceValidator.validate(Reads(
            settings: settings,
            given: given,
            pool: ServiceProvider(mode: .lazy) { Pool(url: try settings.getService().url + (try given.getService().url)) }
        ))
        #expect(report.isValid)
        #expect(report.graph.nodes.map(\.name) == ["settings", "given", "pool"])
        #expect(report.graph.description == "pool -> settings\npool -> given")
    }

    @Test("A safe provider that is not in the container is one node, named by its service type")
    func safeProviderOutsideTheContainer() {
        let hidden = ServiceSafeProvider<Pool>(mode: .lazy) { Pool(url: "db://hidden") }
        struct Container {
            let job: ServiceProvider<Job>
        }
        let report = ServiceValidator.validate(Container(job: ServiceProvider(mode: .lazy) { Job(pool: try hidden.getService()) }))
        #expect(report.isValid)
        #expect(report.graph.nodes.map(\.name) == ["job", "Pool"])
        #expect(report.graph.description == "job -> Pool")
    }

    @Test("A dictionary's entries are walked in the order of their keys, whatever order they were added in")
    func dictionaryEntriesInKeyOrder() {
        let keys = ["kilo", "alpha", "echo", "zulu", "bravo", "mike", "delta", "yankee", "charlie", "oscar"]
        let report = ServiceValidator.validate(building: {
            KeyedServices(byKey: Dictionary(uniqueKeysWithValues: keys.map { key in (key, ServiceProvider<Int>(mode: .lazy) { 1 }) }))
        })
        #expect(report.made == keys.sorted().map { "byKey[\($0)]" })
        #expect(report.graph.nodes.map(\.name) == keys.sorted().map { "byKey[\($0)]" })
    }

    @Test("A class's superclass properties are walked before its own")
    func superclassPropertiesFirst() {
        let report = ServiceValidator.validate(building: { DerivedServices() })
        #expect(report.made == ["base", "middle", "derived"])
    }

    @Test("A making's time leaves out the time of the services it asked for")
    func ownTimeLeavesOutDependencies() {
        let report = ServiceValidator.validate(building: { TimedServices() })
        let durations = Dictionary(uniqueKeysWithValues: report.timings.map { ($0.path, $0.duration) })
        #expect(report.timings.map(\.path) == ["slow", "quick"], "slowest first")
        #expect(durations["slow"].map { $0 >= .milliseconds(200) } == true)
        #expect(durations["quick"].map { $0 < .milliseconds(100) } == true, "the 200 ms of slow are not counted again")
    }
}
