import Foundation
import Testing

@testable import ServiceContainerKit

private final class NetToken: Sendable {}
private final class NetAPI: Sendable { init(_: NetToken) {} }

/// A container whose provider's factory gets a provider that the container does not hold.
private struct OutsideProviderServices {
    let api: ServiceProvider<NetAPI>

    static func make() -> OutsideProviderServices {
        let token = ServiceProvider<NetToken>(mode: .lazy) { NetToken() }  // not in the container
        return OutsideProviderServices(api: ServiceProvider(mode: .lazy) { NetAPI(try token.getService()) })
    }
}

private final class Metrics: Sendable {}
private final class Database: Sendable {}
private struct DatabaseDown: Error {}

/// A container with a failing provider, whose failure a logger handles with a get of its own.
private struct LoggedFailureServices {
    let metrics = ServiceProvider<Metrics>(mode: .lazy) { Metrics() }
    let database = ServiceProvider<Database>(mode: .lazy) { throw DatabaseDown() }
}

/// Counts failures in the metrics service it gets: a logger that gets a service.
private final class MetricsLogger: ProvidersLogger {
    let metrics: ServiceProvider<Metrics>
    init(metrics: ServiceProvider<Metrics>) { self.metrics = metrics }
    func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
        _ = metrics.getServiceAsOptional()
    }
}

@MainActor private final class ScreenModel {
    init(_: NetToken) {}
}

// A recorder records the gets of every thread, so each test runs in a child process of its own,
// where no other test's gets can mix in.
@Suite("ServiceGraphRecorder")
struct GraphRecorderTests {
    @Test("Started before the container is built, a recorder sees every real get, on any thread")
    func realGets() async {
        await #expect(processExitsWith: .success) {
            let recorder = ServiceGraphRecorder()
            #expect(recorder.isRecording)
            let services = AppServices.make()
            #expect(recorder.graph(of: services).edges.isEmpty, "nothing asked yet")
            _ = try raceOnThreads(1) { _ in try? services.job.getService() }  // on another thread
            let graph = recorder.graph(of: services)
            #expect(graph.description == "pool -> settings\njob -> pool\nlog (no dependency recorded)\nhttpLog (no dependency recorded)")
            #expect(graph.nodes.map(\.name) == ["settings", "pool", "job", "log", "httpLog"])

            recorder.stop()
            recorder.stop()  // again: nothing more
            #expect(!recorder.isRecording)
            #expect(GetRecording.users == 0)
            // Gets after the stop are not recorded, and the providers still work.
            let later = ServiceProvider(mode: .lazy) { try services.pool.getService().url }
            #expect((try? later.getService()) == "db://local")
            #expect(recorder.graph(of: services).description == "pool -> settings\njob -> pool\nlog (no dependency recorded)\nhttpLog (no dependency recorded)")
            guard case .lazy = later.source else {
                Issue.record("a provider made after the recorder stopped should not record")
                return
            }
        }
    }

    @Test("Started after the services were made, a recorder draws a making's read of them, and no get outside a making")
    func readsOfMadeServices() async {
        await #expect(processExitsWith: .success) {
            let services = ListedBeforeItsDependency.make()
            #expect((try? services.healthyLazy.getService())?.url == "db://lazy")
            let recorder = ServiceGraphRecorder()
            _ = try? services.unrelated.getService()
            _ = try? services.healthyLazy.getService()
            #expect(recorder.graph(of: services).edges.isEmpty, "no get was asked by a making")
            #expect((try? services.dependent.getService())?.url == "db://lazy")
            recorder.stop()
            #expect(recorder.graph(of: services).description == "dependent -> healthyLazy\nunrelated (no dependency recorded)")
        }
    }

    @Test("A safe provider made while recording is one node: no edge to itself, one to what it asked for")
    func safeProviderMadeWhileRecording() async {
        await #expect(processExitsWith: .success) {
            let recorder = ServiceGraphRecorder()
            let settings = ServiceProvider(mode: .lazy) { AppSettings() }
            let pool = ServiceSafeProvider<Pool>(mode: .lazy) { Pool(url: try settings.getService().url) }
            _ = try raceOnThreads(2) { _ in try? pool.getService() }
            #expect(recorder.graph().description == "Pool -> AppSettings")
            #expect(recorder.graph(of: (pool: pool, settings: settings)).description == "pool -> settings")
        }
    }

    @Test("Without a container the nodes are named by service type; failures and cycles are drawn")
    func withoutContainer() async {
        await #expect(processExitsWith: .success) {
            let recorder = ServiceGraphRecorder()
            let cycle = CycleServices()
            _ = try? cycle.first.getService()
            let failing = ServiceProvider<Pool>(mode: .lazy) { throw TestError(code: 5) }
            _ = try? failing.getService()
            let graph = recorder.graph()
            #expect(graph.nodes.allSatisfy { $0.path == nil && $0.mode == .unknown })
            #expect(graph.nodes.map(\.name) == ["NodeOne", "NodeTwo", "Pool"])
            #expect(graph.description == "NodeOne -> NodeTwo (cycle)\nNodeTwo -> NodeOne (cycle)\nPool (no dependency recorded)")
            #expect(graph.nodes.map { $0.failure != nil } == [true, true, true])
            #expect(graph.nodes[2].failure?.error as? TestError == TestError(code: 5))
        }
    }

    @Test("Providers of one type outside the container are numbered from the second, not drawn as one asking itself")
    func oneTypeOutsideContainer() async {
        await #expect(processExitsWith: .success) {
            let recorder = ServiceGraphRecorder()
            let greeting = ServiceParamsProvider<String, String> { "Hello, \($0)" }
            let converted = greeting.convert(params: "world")
            #expect(converted.getServiceAsOptional() == "Hello, world")
            let outer = ServiceProvider<String>(mode: .many) { try converted.getService() + "!" }
            #expect(outer.getServiceAsOptional() == "Hello, world!")
            recorder.stop()
            let graph = recorder.graph()
            #expect(graph.nodes.map(\.name) == ["String", "String (2)", "String (3)"])
            #expect(graph.description == "String -> String (2)\nString (3) -> String")
            #expect(graph.edges.allSatisfy { $0.from != $0.to })
            #expect(graph.dot().contains("label=\"String (2)\\nString (not in the container)\""))
        }
    }

    @Test("A provider got by no making is a node all the same, after the container's, in the order they were got")
    func getsOutsideMakings() async {
        await #expect(processExitsWith: .success) {
            let settings = ServiceProvider(mode: .lazy) { AppSettings() }
            let pool = ServiceProvider(mode: .lazy) { Pool(url: "db://outside") }
            let job = ServiceProvider(mode: .lazy) { Job(pool: Pool(url: "db://job")) }
            let recorder = ServiceGraphRecorder()
            _ = try? pool.getService()
            _ = try? settings.getService()
            recorder.stop()
            #expect(recorder.graph().nodes.map(\.name) == ["Pool", "AppSettings"])
            let graph = recorder.graph(of: (job: job, settings: settings))
            #expect(graph.nodes.map(\.name) == ["job", "settings", "Pool"])
            #expect(graph.edges.isEmpty)
        }
    }

    @Test("A recorder started after the container was built draws every get a making asks for")
    func startedLate() async {
        await #expect(processExitsWith: .success) {
            let services = AppServices.make()
            let recorder = ServiceGraphRecorder()
            _ = try? services.job.getService()
            _ = try? services.job.getService()
            // The pool reads the atOne settings, made with the container: an edge all the same.
            #expect(recorder.graph(of: services).description == "pool -> settings\njob -> pool\nlog (no dependency recorded)\nhttpLog (no dependency recorded)")
        }
    }

    @Test("Recording many threads at once, with validations beside it, loses nothing")
    func concurrent() async {
        await #expect(processExitsWith: .success) {
            let recorder = ServiceGraphRecorder()
            let services = AppServices.make()
            let graphs = try raceOnThreads(8) { index in
                if index.isMultiple(of: 2) {
                    for _ in 0..<50 { _ = try? services.job.getService() }
                    return ""
                }
                return ServiceValidator.validate(building: { AppServices.make() }).graph.description
            }
            #expect(
                graphs.filter { !$0.isEmpty } == Array(repeating: "pool -> settings\njob -> pool\nhttpLog -> log", count: 4)
            )
            #expect(recorder.graph(of: services).description == "pool -> settings\njob -> pool\nlog (no dependency recorded)\nhttpLog (no dependency recorded)")
        }
    }

    @Test("Containers built and dropped while recording are not taken for the providers made after them at the same addresses")
    func droppedContainers() async {
        await #expect(processExitsWith: .success) {
            let recorder = ServiceGraphRecorder()
            for _ in 0..<200 {
                let dropped = AppServices.make()
                _ = try? dropped.job.getService()
            }
            let services = AppServices.make()
            _ = try? services.job.getService()
            recorder.stop()
            let graph = recorder.graph(of: services)
            // The live container's gets are its own. Each dropped container's are there too, on
            // nodes of their own named by their types, numbered from the second: 200 of each
            // edge, none joining another.
            let lines = graph.description.split(separator: "\n").map(String.init)
            #expect(lines.prefix(2) == ["pool -> settings", "job -> pool"])
            let jobs = lines.dropFirst(2).filter { $0.hasPrefix("Job") }
            let pools = lines.dropFirst(2).filter { $0.hasPrefix("Pool") }
            #expect(jobs.count == 200 && Set(jobs).count == 200 && jobs.first == "Job -> Pool")
            #expect(pools.count == 200 && Set(pools).count == 200 && pools.first == "Pool -> AppSettings")
            #expect(Set(jobs.map { $0.split(separator: " -> ")[1] }).count == 200)  // each to a pool of its own
            let unnamed = graph.nodes.filter { $0.path == nil }.map(\.name)
            #expect(unnamed.filter { $0.hasPrefix("Job") }.sorted() == (["Job"] + (2...200).map { "Job (\($0))" }).sorted())
            #expect(lines.count == 402 + 2)  // and `log (no dependency recorded)`, `httpLog (no dependency recorded)`
            #expect(graph.nodes.count == 5 + 600)
            #expect(graph.nodes.filter { $0.path != nil }.map(\.name) == ["settings", "pool", "job", "log", "httpLog"])
            #expect(graph.edges.allSatisfy { $0.from != $0.to })
        }
    }

    @Test("A provider outside the container, made while one log ran and got under another, is one node")
    func outsideProviderUnderAnotherLog() async {
        await #expect(processExitsWith: .success) {
            // A validation while a recorder runs: the provider was made under the recorder.
            let recorder = ServiceGraphRecorder()
            let validated = OutsideProviderServices.make()
            #expect(ServiceValidator.validate(validated).graph.description == "api -> NetToken")
            recorder.stop()
            // A second recorder records the gets of a container built under the first.
            let first = ServiceGraphRecorder()
            let services = OutsideProviderServices.make()
            first.stop()
            let second = ServiceGraphRecorder()
            _ = services.api.getServiceAsOptional()
            second.stop()
            let graph = second.graph(of: services)
            #expect(graph.description == "api -> NetToken")
            #expect(graph.nodes.count == 2)
        }
    }

    @Test("The gets of a logger that handles a failure are not dependencies of the failed making")
    func loggerGetsAreNotDependencies() async {
        await #expect(processExitsWith: .success) {
            let services = LoggedFailureServices()
            let logger = MetricsLogger(metrics: services.metrics)
            logger.register()
            let report = ServiceValidator.validate(services)
            #expect(report.failures.map(\.path) == ["database"])
            #expect(report.graph.edges.isEmpty, "\(report.graph)")
            let recorder = ServiceGraphRecorder()
            _ = services.database.getServiceAsOptional()
            recorder.stop()
            #expect(recorder.graph(of: services).edges.isEmpty)
            logger.unregister()
        }
    }

    @Test("A main-actor provider's making is recorded: what its factory gets is its dependency")
    func mainActorMakingRecorded() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let token = ServiceProvider<NetToken>(mode: .lazy) { NetToken() }
                let model = ServiceMainActorProvider<ScreenModel>(mode: .lazy) { ScreenModel(try token.getService()) }
                let recorder = ServiceGraphRecorder()
                _ = try? model.getService()
                recorder.stop()
                let graph = recorder.graph(of: (token: token, model: model))
                #expect(graph.description == "model -> token")
                #expect(graph.nodes.map { graph.detail(of: $0) } == ["NetToken (lazy)", "ScreenModel (lazy, main actor)"])
                #expect(graph.nodes.map(\.name) == ["token", "model"])
            }
        }
    }

    @Test("A recorder that is released stops")
    func releasedStops() async {
        await #expect(processExitsWith: .success) {
            do {
                let recorder = ServiceGraphRecorder()
                #expect(recorder.isRecording)
            }
            #expect(GetRecording.users == 0)
            #expect(GetRecording.runningRecorders == 0)
        }
    }
}
