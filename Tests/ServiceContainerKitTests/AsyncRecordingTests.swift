import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

private final class Settings: Sendable {}
private final class Connection: Sendable { init(_: Settings) {} }
private final class Repository: Sendable { init(_: Connection) {} }
private final class Report: Sendable { init(_: Repository, _: Settings) {} }
private struct Unreachable: Error {}

/// A server's container: a synchronous provider, async ones of every mode that get it and each
/// other, and one that fails.
private struct Backend {
    let settings: ServiceProvider<Settings>
    let connection: ServiceAsyncProvider<Connection>
    let repository: ServiceAsyncProvider<Repository>
    let report: ServiceAsyncProvider<Report>
    let failing: ServiceAsyncProvider<Repository>

    static func make() -> Backend {
        let settings = ServiceProvider(mode: .lazy) { Settings() }
        let connection = ServiceAsyncProvider(mode: .atOne) { Connection(try settings.getService()) }
        let repository = ServiceAsyncProvider(mode: .weak) { Repository(try await connection.getService()) }
        return Backend(
            settings: settings,
            connection: connection,
            repository: repository,
            report: ServiceAsyncProvider(mode: .many) { Report(try await repository.getService(), try settings.getService()) },
            failing: ServiceAsyncProvider(mode: .lazy) {
                _ = try await connection.getService()
                throw Unreachable()
            }
        )
    }
}

/// An async provider whose making awaits a slow one: the time of that wait is not its own.
private struct SlowDependency {
    let slow: ServiceAsyncProvider<Settings>
    let quick: ServiceAsyncProvider<Connection>

    static func make() -> SlowDependency {
        let slow = ServiceAsyncProvider(mode: .lazy) { () async throws -> Settings in
            try await Task.sleep(for: .milliseconds(200))
            return Settings()
        }
        return SlowDependency(slow: slow, quick: ServiceAsyncProvider(mode: .lazy) { Connection(try await slow.getService()) })
    }
}

/// Two async providers that get each other, and one that gets the first of them.
private final class AsyncLoop: @unchecked Sendable {
    // Written once, before any get.
    var outer: ServiceAsyncProvider<Report>!
    var first: ServiceAsyncProvider<Settings>!
    var second: ServiceAsyncProvider<Connection>!

    init() {
        outer = ServiceAsyncProvider(mode: .lazy) { [unowned self] in
            _ = try await self.first.getService()
            throw Unreachable()
        }
        first = ServiceAsyncProvider(mode: .lazy) { [unowned self] in
            _ = try await self.second.getService()
            return Settings()
        }
        second = ServiceAsyncProvider(mode: .lazy) { [unowned self] in
            _ = try await self.first.getService()
            return Connection(Settings())
        }
    }
}

@Suite("Recording of async gets")
struct AsyncRecordingTests {
    @Test("A validation including async providers draws what their makings get, async or not, and times them")
    func validationDrawsAsyncGets() async throws {
        let report = try await withAsyncTimeLimit { await ServiceValidator.validateIncludingAsync(building: Backend.make) }
        #expect(report.made == ["settings", "connection", "repository", "report"])
        #expect(report.failures.map(\.path) == ["failing"])
        let graph = report.graph
        #expect(graph.nodes.map(\.name) == ["settings", "connection", "repository", "report", "failing"])
        #expect(graph.nodes.map(\.mode) == [.lazy, .atOne, .weak, .many, .lazy])
        #expect(graph.nodes.map { graph.detail(of: $0) } == [
            "Settings (lazy)", "Connection (atOne, async)", "Repository (weak, async)", "Report (many, async)",
            "Repository (lazy, async)",
        ])
        #expect(graph.description == """
            connection -> settings
            repository -> connection
            report -> settings
            report -> repository
            failing -> connection
            """)
        #expect((graph.nodes[4].failure?.error as? Unreachable) != nil)
        #expect(graph.nodes[4].failedItself)
        // The atOne connection was made as the container was built, in a task of its own.
        #expect(report.timings.map(\.path).sorted() == ["connection", "failing", "report", "repository", "settings"])
        #expect(report.description.contains("Dependencies:\n  connection -> settings\n"))
    }

    @Test("A loop of async makings is drawn as a cycle; an edge to it from outside is not on it")
    func asyncLoopIsACycle() async throws {
        let loop = AsyncLoop()
        let report = try await withAsyncTimeLimit { await ServiceValidator.validateIncludingAsync(loop) }
        #expect(report.failures.map(\.path) == ["outer", "first", "second"])
        #expect(report.failures.allSatisfy { $0.error.isDependencyCycle })
        #expect(report.graph.description == "outer -> first\nfirst -> second (cycle)\nsecond -> first (cycle)")
    }

    @Test("A synchronous validation of the same container draws its synchronous providers only")
    func synchronousValidationSkipsThem() {
        let report = ServiceValidator.validate(building: Backend.make)
        #expect(report.graph.description == "settings (no dependency recorded)")
        #expect(report.skipped.map(\.path) == ["connection", "repository", "report", "failing"])
    }

    @Test("The time an async making waits for another is that one's, not its own")
    func ownTimeLeavesOutTheWait() async throws {
        let report = try await withAsyncTimeLimit { await ServiceValidator.validateIncludingAsync(building: SlowDependency.make) }
        #expect(report.graph.description == "quick -> slow")
        let times = Dictionary(uniqueKeysWithValues: report.timings.map { ($0.path, $0.duration) })
        #expect(try #require(times["slow"]) >= .milliseconds(200))
        #expect(try #require(times["quick"]) < .milliseconds(100))
        #expect(report.timings.map(\.path) == ["slow", "quick"])
    }

    @Test("The time an async making waits for a synchronous get is not its own either")
    func ownTimeLeavesOutSynchronousGets() async throws {
        let report = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(building: {
                // `many`: made again by the async making, after the synchronous part made it once.
                let slow = ServiceProvider(mode: .many) { () -> Settings in
                    Thread.sleep(forTimeInterval: 0.2)
                    return Settings()
                }
                return (slow: slow, quick: ServiceAsyncProvider(mode: .lazy) { Connection(try slow.getService()) })
            })
        }
        #expect(report.graph.description == "quick -> slow")
        let times = Dictionary(uniqueKeysWithValues: report.timings.map { ($0.path, $0.duration) })
        #expect(try #require(times["slow"]) >= .milliseconds(400))
        #expect(try #require(times["quick"]) < .milliseconds(100))
    }

    @Test("A main-actor service made before is a dependency of the async making that reads it")
    func mainActorReadIsADependency() async throws {
        struct Screens {
            let consumer: ServiceAsyncProvider<Connection>
            let settings: ServiceMainActorProvider<Settings>
        }
        let report = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(building: {
                let settings = ServiceMainActorProvider(mode: .lazy) { Settings() }
                let consumer = ServiceAsyncProvider(mode: .lazy) {
                    Connection(try await MainActor.run { try settings.getService() })
                }
                return Screens(consumer: consumer, settings: settings)
            })
        }
        // Made last to first: `settings` is made before `consumer` reads it.
        #expect(report.made == ["consumer", "settings"])
        #expect(report.graph.description == "consumer -> settings")
        #expect(report.graph.nodes.map { report.graph.detail(of: $0) } == ["Connection (lazy, async)", "Settings (lazy, main actor)"])
    }

    @Test("A synchronous validation draws a main-actor provider that a synchronous making asked for at its path")
    @MainActor
    func mainActorAskedBySynchronousMaking() {
        struct Screens {
            let model: ServiceMainActorProvider<Settings>
            let user: ServiceProvider<Connection>
        }
        let report = ServiceValidator.validate(building: {
            let model = ServiceMainActorProvider(mode: .lazy) { Settings() }
            return Screens(model: model, user: ServiceProvider(mode: .lazy) { Connection(try MainActor.assumeIsolated { try model.getService() }) })
        })
        #expect(report.made == ["user"])
        #expect(report.skipped.map(\.path) == ["model"])
        #expect(report.graph.description == "user -> model")
        #expect(report.graph.nodes.map(\.name) == ["model", "user"])
    }

    @Test("A validation records the gets of its own task only: the gets of another task meanwhile are not its")
    func validationIsItsTasksOnly() async throws {
        let outside = ServiceAsyncProvider(mode: .many) { Settings() }
        let making = AsyncGate()
        let trafficDone = AsyncGate()
        // Gets of another task while the validation's making runs.
        let traffic = Task {
            await making.wait()
            for _ in 0..<200 { _ = try? await outside.getService() }
            trafficDone.open()
        }
        let report = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(building: {
                let settings = ServiceAsyncProvider(mode: .lazy) { () async -> Settings in
                    making.open()
                    await trafficDone.wait()
                    return Settings()
                }
                return (settings: settings, connection: ServiceAsyncProvider(mode: .lazy) { Connection(try await settings.getService()) })
            })
        }
        await traffic.value
        #expect(report.graph.description == "connection -> settings")
        #expect(report.graph.nodes.count == 2)
    }

    @Test("A recorder draws an app's async gets, from any task, and the makings' failures")
    func recorderDrawsAsyncGets() async {
        await #expect(processExitsWith: .success) {
            let services = Backend.make()
            let recorder = ServiceGraphRecorder()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        _ = try? await services.report.getService()
                        _ = try? await services.failing.getService()
                    }
                }
            }
            recorder.stop()
            let graph = recorder.graph(of: services)
            // The atOne connection was made before the recorder ran: its making is not drawn.
            #expect(graph.description == """
                repository -> connection
                report -> settings
                report -> repository
                failing -> connection
                """)
            #expect(graph.nodes.last?.failure != nil)
            // Gets after the stop are not recorded.
            let later = ServiceGraphRecorder()
            later.stop()
            _ = try? await services.report.getService()
            #expect(later.graph(of: services).edges.isEmpty)
        }
    }

    @Test("A task a making starts records its gets as the making's")
    func startedTaskIsTheMakings() async throws {
        let report = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(building: {
                let settings = ServiceAsyncProvider(mode: .lazy) { Settings() }
                let connection = ServiceAsyncProvider(mode: .lazy) { () async throws -> Connection in
                    let started = Task { try await settings.getService() }
                    return Connection(try await started.value)
                }
                return (settings: settings, connection: connection)
            })
        }
        #expect(report.isValid)
        #expect(report.graph.description == "connection -> settings")
    }
}
