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

    @Test("A validation including async providers leaves recording off when it ends, also when its builder throws")
    func validationEndsItsRecording() async {
        // In a process of its own: a validation running beside it would keep recording on.
        await #expect(processExitsWith: .success) {
            struct BuildFailed: Error {}
            try #require(!GetRecording.isOn)
            await #expect(throws: BuildFailed.self) {
                try await ServiceValidator.validateIncludingAsync(building: { () throws -> Backend in throw BuildFailed() })
            }
            #expect(!GetRecording.isOn)
            let report = await ServiceValidator.validateIncludingAsync(building: Backend.make)
            #expect(report.failures.map(\.path) == ["failing"])
            #expect(!GetRecording.isOn)
        }
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

    @Test("Gets a making waits for side by side count once: its own time is what is left, never less than zero")
    func sideBySideWaitsCountOnce() async throws {
        let report = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(building: {
                let slowSettings = ServiceAsyncProvider(mode: .lazy) { () async throws -> Settings in
                    try await Task.sleep(for: .milliseconds(200))
                    return Settings()
                }
                let slowConnection = ServiceAsyncProvider(mode: .many) { () async throws -> Connection in
                    try await Task.sleep(for: .milliseconds(200))
                    return Connection(Settings())
                }
                let both = ServiceAsyncProvider(mode: .lazy) { () async throws -> Report in
                    async let settings = slowSettings.getService()
                    async let connection = slowConnection.getService()
                    let repository = Repository(try await connection)
                    let made = Report(repository, try await settings)
                    try await Task.sleep(for: .milliseconds(100))
                    return made
                }
                return (slowSettings: slowSettings, slowConnection: slowConnection, both: both)
            })
        }
        #expect(report.graph.description == "both -> slowSettings\nboth -> slowConnection")
        // Its own 100 ms are left: the two waits taken off one by one would leave nothing.
        let own = try #require(Dictionary(uniqueKeysWithValues: report.timings.map { ($0.path, $0.duration) })["both"])
        #expect(own >= .milliseconds(100))
    }

    @Test("Waits that overlap count as the time during which one runs, however long they take")
    func overlappingWaitsCountOnce() {
        let recording = TaskRecording(log: nil, node: nil)
        let start = ContinuousClock.now
        recording.beginWait()
        recording.beginWait()
        Thread.sleep(forTimeInterval: 0.05)
        recording.endWait()
        recording.endWait()
        let elapsed = start.duration(to: .now)
        let waited = recording.end()
        #expect(waited >= .milliseconds(50))
        #expect(waited <= elapsed)  // each wait counted would be twice the sleep, more than elapsed
        #expect(recording.log == nil)
    }

    @Test("A wait that begins inside another counts from the first one's start; waits one after another add up")
    func waitsAddUp() {
        let nested = TaskRecording(log: nil, node: nil)
        nested.beginWait()
        Thread.sleep(forTimeInterval: 0.05)
        nested.beginWait()  // 50 ms into the first
        Thread.sleep(forTimeInterval: 0.05)
        nested.endWait()
        nested.endWait()
        #expect(nested.end() >= .milliseconds(100))

        let oneAfterAnother = TaskRecording(log: nil, node: nil)
        for _ in 0..<2 {
            oneAfterAnother.beginWait()
            Thread.sleep(forTimeInterval: 0.05)
            oneAfterAnother.endWait()
        }
        #expect(oneAfterAnother.end() >= .milliseconds(100))
    }

    @Test("An ended recording lets go of its log, though a task that outlives it still holds the recording")
    func endedRecordingLetsGoOfItsLog() {
        var log: GetLog? = GetLog()
        weak let released = log
        let recording = TaskRecording(log: log, node: nil)
        log = nil
        #expect(released != nil)
        _ = recording.end()
        #expect(released == nil)
        #expect(recording.log == nil)
    }

    @Test("A plain validation records no async making, not even one that starts as the container is built", .offThePool)
    func plainValidationLeavesAsyncMakingsOut() throws {
        // The atOne making is a task of the concurrency pool, which the suite's first seconds keep
        // busy on a machine of two cores (11.9 and 12.6 s for this test in CI, over 10 s once):
        // the limit catches a hang, not a slow start.
        let report = try withTimeLimit(seconds: 60) {
            ServiceValidator.validate(building: {
                let got = DispatchSemaphore(value: 0)
                let settings = ServiceProvider(mode: .lazy) { Settings() }
                let connection = ServiceAsyncProvider(mode: .atOne) { () -> Connection in
                    defer { got.signal() }
                    return Connection(try settings.getService())
                }
                got.wait()  // the atOne making asked for settings while the validation records
                return (settings: settings, connection: connection)
            })
        }
        #expect(report.graph.description == "settings (no dependency recorded)")
        #expect(report.graph.nodes.count == 1)
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

    @Test("A task a making starts records for it only while the making runs; a later recorder sees its gets as no one's")
    func startedTaskOutlivesTheValidation() async {
        await #expect(processExitsWith: .success) {
            let gate = AsyncGate()
            let done = AsyncGate()
            let metrics = ServiceProvider(mode: .many) { Settings() }
            let pool = ServiceAsyncProvider(mode: .lazy) { () -> Connection in
                Task {
                    await gate.wait()
                    _ = try? metrics.getService()
                    done.open()
                }
                return Connection(Settings())
            }
            let services = (metrics: metrics, pool: pool)
            let report = await ServiceValidator.validateIncludingAsync(services)
            #expect(report.isValid)
            #expect(report.graph.description == "metrics (no dependency recorded)\npool (no dependency recorded)")
            let recorder = ServiceGraphRecorder()
            gate.open()
            await done.wait()
            recorder.stop()
            // The get reached the recorder, not the validation that ended, and no making asked.
            #expect(recorder.graph(of: services).description == "metrics (no dependency recorded)\npool (no dependency recorded)")
            #expect(recorder.graph(of: services).nodes.count == 2)
            #expect(recorder.graph().nodes.map(\.name) == ["Settings"])
        }
    }

    @Test("A get cancelled while it waits is not a failure of the making it waited for")
    func cancelledWaitIsNoFailure() async {
        await #expect(processExitsWith: .success) {
            let started = AsyncGate()
            let pool = ServiceAsyncProvider(mode: .lazy) { () async throws -> Settings in
                started.open()
                try await Task.sleep(for: .milliseconds(200))
                return Settings()
            }
            let recorder = ServiceGraphRecorder()
            let kept = Task { try await pool.getService() }
            await started.wait()
            let cancelled = Task { try await pool.getService() }
            try? await Task.sleep(for: .milliseconds(20))
            cancelled.cancel()
            #expect((try? await cancelled.value) == nil)
            _ = try? await kept.value
            recorder.stop()
            let graph = recorder.graph(of: (pool: pool, other: pool))
            #expect(graph.nodes.map(\.name) == ["pool"])
            #expect(graph.nodes.first?.failure == nil)
        }
    }

    @Test("The gets of a task that a logger starts are the logger's, not those of the making that runs")
    func loggerTaskIsNotTheMakings() async {
        await #expect(processExitsWith: .success) {
            final class AuditingLogger: ProvidersLogger {
                let audit: ServiceProvider<Settings>
                let done = AsyncGate()
                init(audit: ServiceProvider<Settings>) { self.audit = audit }
                func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
                    let (audit, done) = (audit, done)
                    Task {
                        _ = try? audit.getService()
                        done.open()
                    }
                }
            }
            let audit = ServiceProvider(mode: .many) { Settings() }
            let logger = AuditingLogger(audit: audit)
            let broken = ServiceProvider<Connection>(mode: .lazy) { throw Unreachable() }
            // Its making goes on until the logger's task has got its service.
            let payments = ServiceAsyncProvider<Connection>(mode: .lazy) {
                _ = try? broken.getService()
                await logger.done.wait()
                throw Unreachable()
            }
            logger.register()
            let recorder = ServiceGraphRecorder()
            _ = try? await payments.getService()
            recorder.stop()
            logger.unregister()
            let graph = recorder.graph(of: (audit: audit, broken: broken, payments: payments))
            #expect(graph.description == "payments -> broken\naudit (no dependency recorded)")
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

    @Test("A task the builder starts records for the validation only while it runs; once it is over, a recorder sees its gets")
    func buildersTaskOutlivesTheValidation() async {
        await #expect(processExitsWith: .success) {
            let gate = AsyncGate()
            let done = AsyncGate()
            let metrics = ServiceProvider(mode: .many) { Settings() }
            let report = await ServiceValidator.validateIncludingAsync(building: {
                Task {
                    await gate.wait()
                    _ = try? metrics.getService()
                    done.open()
                }
                return (metrics: metrics, pool: ServiceAsyncProvider(mode: .lazy) { Connection(Settings()) })
            })
            #expect(report.isValid)
            let recorder = ServiceGraphRecorder()
            gate.open()
            await done.wait()
            recorder.stop()
            #expect(recorder.graph().nodes.map(\.name) == ["Settings"])
        }
    }

    @Test("A synchronous validation that an async making runs records its own gets, none as the making's")
    func synchronousValidationInAnAsyncMaking() async throws {
        struct Inner {
            let settings: ServiceProvider<Settings>
            let connection: ServiceProvider<Connection>
        }
        let settings = ServiceProvider(mode: .lazy) { Settings() }
        let inner = Inner(settings: settings, connection: ServiceProvider(mode: .lazy) { Connection(try settings.getService()) })
        let innerReport = Locked<ServiceValidationReport?>(nil)
        let outer = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(building: {
                (checker: ServiceAsyncProvider(mode: .lazy) { () -> Repository in
                    let report = ServiceValidator.validate(inner)
                    innerReport.withLock { $0 = report }
                    return Repository(Connection(Settings()))
                }, other: ServiceProvider(mode: .lazy) { Settings() })
            })
        }
        #expect(outer.isValid)
        let report = try #require(innerReport.withLock { $0 })
        #expect(report.made == ["settings", "connection"])
        #expect(report.graph.nodes.map(\.name) == ["settings", "connection"])
        #expect(report.graph.description == "connection -> settings")
    }

    @Test("A CancellationError a making throws in a task that was not cancelled is a failure of that making")
    func thrownCancellationIsAFailure() async throws {
        struct Front {
            let user: ServiceAsyncProvider<Connection>
        }
        let report = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(building: {
                let hidden = ServiceAsyncProvider<Settings>(mode: .lazy) { throw CancellationError() }
                return Front(user: ServiceAsyncProvider(mode: .lazy) { () async -> Connection in
                    _ = try? await hidden.getService()
                    return Connection(Settings())
                })
            })
        }
        #expect(report.isValid)
        #expect(report.graph.description == "user -> Settings")
        #expect(report.graph.nodes.last?.failure?.error is CancellationError)
    }

    @Test("An async provider outside the container is one node: what asked for it and what its making asked for meet there")
    func asyncProviderOutsideTheContainer() async throws {
        struct Front {
            let settings: ServiceProvider<Settings>
            let report: ServiceAsyncProvider<Report>
        }
        let report = try await withAsyncTimeLimit {
            await ServiceValidator.validateIncludingAsync(building: {
                let settings = ServiceProvider(mode: .lazy) { Settings() }
                let repository = ServiceAsyncProvider(mode: .lazy) { Repository(Connection(try settings.getService())) }
                return Front(
                    settings: settings,
                    report: ServiceAsyncProvider(mode: .lazy) { Report(try await repository.getService(), try settings.getService()) }
                )
            })
        }
        #expect(report.isValid)
        #expect(report.graph.nodes.map(\.name) == ["settings", "report", "Repository"])
        #expect(report.graph.description == "report -> settings\nreport -> Repository\nRepository -> settings")
    }

    @Test("An async making that reads a synchronous singleton through an async provider of it depends on that provider")
    func readThroughAnAsyncProviderOfASynchronousOne() async throws {
        struct Wrapping {
            let settings: ServiceAsyncProvider<Settings>
            let connection: ServiceAsyncProvider<Connection>
        }
        let settings = ServiceAsyncProvider(ServiceProvider(mode: .atOne) { Settings() })
        let services = Wrapping(settings: settings, connection: ServiceAsyncProvider(mode: .lazy) { Connection(try await settings.getService()) })
        let report = try await withAsyncTimeLimit { await ServiceValidator.validateIncludingAsync(services) }
        #expect(report.made == ["settings", "connection"])
        #expect(report.graph.description == "connection -> settings")
    }
}
