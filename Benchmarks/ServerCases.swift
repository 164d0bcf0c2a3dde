import Foundation
import ServiceContainerKit
import Synchronization

/// The cases of the server lifetimes: shutting a container down.
///
/// A shutdown turns the slow path of every get of the process on for good, so these cases run
/// after every other one (`main.swift` lists them last).
enum ServerCases {
    static var all: [BenchmarkCase] {
        [scopedGet, requestScope, shutdown]
    }

    /// What a request keeps by hand, as a scope does: the services made for it, by type.
    final class RequestContext {
        var services: [ObjectIdentifier: AnyObject] = [:]
    }

    /// A request context written by hand that is reached the way a scope is: bound to the
    /// request's task as a task-local value, its services kept by type under a lock. Private
    /// state, so that the compiler sees every access and checks none at run time, as an app's
    /// own would be.
    final class LockedRequestContext: @unchecked Sendable {  // `services` is read and written under `lock`
        private let lock = NSLock()
        private var services: [ObjectIdentifier: AnyObject]

        @TaskLocal static var current: LockedRequestContext?

        init(_ services: [ObjectIdentifier: AnyObject]) {
            self.services = services
        }

        /// The service of type `Service`, kept for this request.
        func service<Service: AnyObject>(_ type: Service.Type) -> Service {
            lock.lock()
            defer { lock.unlock() }
            return services[ObjectIdentifier(type)] as! Service
        }
    }

    /// A get of a scoped service already made in the current scope, against the same service
    /// found by hand: the request's context read from its task-local value, and the service by
    /// type under the context's lock.
    static var scopedGet: BenchmarkCase {
        BenchmarkCase(
            "core/scoped get (made)",
            baseline: "task-local context, NSLock, dictionary",
            target: nil,
            instructions: .ratio(0.9)
        ) {
            let provider = ServiceProvider(mode: .scoped) { BenchService(number: 1) }
            let scope = ServiceScope(label: "benchmark")
            let made = scope.run { try! provider.getService() }
            let context = LockedRequestContext([ObjectIdentifier(BenchService.self): made])
            return .init(
                subject: { iterations in
                    scope.run {
                        for _ in 0..<iterations { keep(try! provider.getService()) }
                    }
                },
                baseline: { iterations in
                    LockedRequestContext.$current.withValue(context) {
                        for _ in 0..<iterations {
                            keep(LockedRequestContext.current!.service(BenchService.self))
                        }
                    }
                },
                probe: {
                    scope.run { try! provider.getService() === made ? nil : "a get in the scope gave another service" }
                }
            )
        }
    }

    /// A request in a scope of its own that gets its one scoped service twice (made on the
    /// first get), against a context made per request by hand that makes the service on the
    /// first ask and keeps it by type.
    static var requestScope: BenchmarkCase {
        BenchmarkCase(
            "core/request scope, 1 scoped service got twice",
            baseline: "request context by hand, dictionary by type",
            target: nil,
            instructions: .ratio(3.0)
        ) {
            let provider = ServiceProvider(mode: .scoped) { BenchService(number: 1) }
            let key = ObjectIdentifier(BenchService.self)
            let handMade: (RequestContext) -> BenchService = { context in
                if let made = context.services[key] { return made as! BenchService }
                let made = BenchService(number: 1)
                context.services[key] = made
                return made
            }
            return .init(
                subject: { iterations in
                    for _ in 0..<iterations {
                        ServiceScope().run {
                            keep(try! provider.getService())
                            keep(try! provider.getService())
                        }
                    }
                },
                baseline: { iterations in
                    for _ in 0..<iterations {
                        let context = RequestContext()
                        keep(handMade(context))
                        keep(handMade(context))
                    }
                },
                probe: {
                    ServiceScope().run {
                        let first = try! provider.getService()
                        return first === (try! provider.getService()) ? nil : "two gets in one scope gave two services"
                    }
                }
            )
        }
    }

    static let services = 1_000

    /// A service whose `close()` counts its calls: the least a close can do.
    final class Closable: ClosableService {
        let closes: Counter

        init(closes: Counter) {
            self.closes = closes
        }

        func close() async throws {
            closes.add()
        }
    }

    /// Counts the closes of a round.
    final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// The containers the next timed call shuts down, made before it.
    final class Pending: Sendable {
        let value = Mutex<[Container]>([])
    }

    /// A container of 1,000 `lazy` providers of closable services, each made.
    struct Container: Sendable {
        let providers: [ServiceProvider<Closable>]

        init(closes: Counter) {
            providers = (0..<ServerCases.services).map { _ in
                ServiceProvider(mode: .lazy) { Closable(closes: closes) }
            }
            for provider in providers {
                _ = try! provider.getService()
            }
        }
    }

    /// Shutting down a container of 1,000 made closable services, against what it has to do:
    /// one walk of the container, as the validator's, plus awaiting the same 1,000 `close()`
    /// calls by hand twice (the target is the walk plus at most twice the closes).
    static var shutdown: BenchmarkCase {
        BenchmarkCase(
            "core/shutdown, 1,000 made closable services",
            baseline: "validator's walk + 2 x 1,000 closes by hand",
            target: 1.0,
            runsOnOtherThreads: true
        ) {
            let closes = Counter()
            let containers = Pending()
            let prepare: (Int) -> Void = { iterations in
                let made = (0..<iterations).map { _ in Container(closes: closes) }
                containers.value.withLock { $0 = made }
            }
            let take = { containers.value.withLock { $0 } }
            return .init(
                subject: { _ in
                    let containers = take()
                    AsyncCases.runInTask {
                        for container in containers {
                            _ = await ServiceShutdown.close(container)
                        }
                    }
                },
                baseline: { _ in
                    let containers = take()
                    AsyncCases.runInTask {
                        for container in containers {
                            _ = ServiceValidator.validate(container)
                            for _ in 0..<2 {
                                for provider in container.providers {
                                    try? await provider.getServiceAsOptional()?.close()
                                }
                            }
                        }
                    }
                },
                setUpSubject: prepare,
                setUpBaseline: prepare,
                probe: {
                    let before = closes.count
                    let container = Container(closes: closes)
                    AsyncCases.runInTask {
                        let report = await ServiceShutdown.close(container)
                        precondition(report.closedCount == ServerCases.services && report.isClean)
                    }
                    let closed = closes.count - before
                    return closed == ServerCases.services ? nil : "\(closed) closes for \(ServerCases.services) services"
                }
            )
        }
    }
}
