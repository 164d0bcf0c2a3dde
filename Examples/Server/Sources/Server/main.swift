// A simulated server: validates its container at start-up, handles a thousand concurrent
// requests, each in a scope of its own, then shuts down as on SIGTERM, the HTTP server first and
// the container after it. It checks each step, and exits with 1 on anything unexpected.
//
//     swift run -c release --package-path Examples/Server
import Logging
import ServiceContainerKit
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let requestCount = 1_000
let logger = Logging.Logger(label: "server")
let started = ContinuousClock.now

/// Prints what went wrong and exits with 1 when `problems` is not empty.
func stop(on problems: [String], _ step: String) {
    guard !problems.isEmpty else { return }
    print("FAILED: \(step)")
    problems.prefix(20).forEach { print("  - \($0)") }
    if problems.count > 20 { print("  ... and \(problems.count - 20) more") }
    exit(1)
}

/// Sends `count` requests to `server` at once, and gives what was wrong with the responses.
func send(_ count: Int, requestsTo server: HTTPServer) async -> [String] {
    await withTaskGroup(of: String?.self) { clients in
        for id in 1...count {
            clients.addTask {
                do {
                    let response = try await server.send(id: id, userID: id % 50)
                    return response.requestID == "request-\(id)" ? nil : "request-\(id) got \(response.requestID)'s response"
                } catch {
                    return "request-\(id) failed: \(error)"
                }
            }
        }
        var problems: [String] = []
        for await problem in clients {
            if let problem { problems.append(problem) }
        }
        return problems
    }
}

/// Counts the scopes whose services did not all close cleanly, or were never closed.
final class ScopeCloseFailures: ProvidersLogger {
    let reports = Mutex<[String]>([])

    func serviceScopeCloseFailure(scope: ServiceScope, report: ServiceCloseReport) {
        reports.withLock { $0.append("\(scope): \(report)") }
    }

    func serviceScopeNotClosed(label: String, services: [Any.Type]) {
        reports.withLock { $0.append("the scope \"\(label)\": released without a close, \(services) never closed") }
    }
}

// 1. Start-up: every provider made once, in a container of the validation's own.
let validation = ServiceValidator.validate(building: { Services(ledger: Ledger()) })
print(validation)
stop(on: validation.isValid ? [] : ["the container is not valid"], "validation")

// 2. The container the server runs with, and the services of its group: the container's first,
// so that it shuts down after the HTTP server.
let scopeCloseFailures = ScopeCloseFailures()
scopeCloseFailures.register()
let ledger = Ledger()
let services = Services(ledger: ledger)
let checks = RequestChecks()
let server = HTTPServer(services: services, checks: checks)
let containerShutdown = ContainerShutdownService(services, timeout: .seconds(5), logger: logger)
let group = ServiceGroup(
    configuration: ServiceGroupConfiguration(
        services: [containerShutdown, server],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger
    )
)

// 3. The requests, all sent at once; once the server holds them all half-way, the shutdown that
// SIGTERM would start.
var groupError: (any Error)?
async let running: Void = group.run()
async let responseProblems = send(requestCount, requestsTo: server)
let pool = services.pool.getServiceAsOptional()
let deadline = ContinuousClock.now + .seconds(10)
while checks.held < requestCount && ContinuousClock.now < deadline {
    try? await Task.sleep(for: .milliseconds(1))
}
logger.info(
    "the server took \(checks.started) requests and holds \(checks.held) half-way: shutting down as on SIGTERM"
)
await group.triggerGracefulShutdown()
do {
    try await running
} catch {
    groupError = error
}
logger.info("the service group stopped: \(checks.mostAtOnce) requests were in flight at most at once")

// 4. The checks.
stop(on: await responseProblems, "the responses")
stop(on: checks.found, "the requests' scopes")
stop(on: scopeCloseFailures.reports.withLock { $0 }, "the closing of the requests' scopes")
var problems: [String] = []
if let groupError { problems.append("the service group threw: \(groupError)") }
for (what, count) in [
    ("request logs made", ledger.requestLogsMade.load(ordering: .relaxed)),
    ("distinct request logs handed out", checks.distinctLogs),
    ("request logs closed", ledger.requestLogsClosed.load(ordering: .relaxed)),
    ("units of work closed", ledger.unitsOfWorkClosed.load(ordering: .relaxed)),
] where count != requestCount {
    problems.append("\(count) \(what), expected \(requestCount)")
}
stop(on: problems, "the scoped services")
print("Each of the \(requestCount) requests had its own RequestLog and UnitOfWork, and its scope closed both.")

guard let report = containerShutdown.outcome.report.withLock({ $0 }) else {
    stop(on: ["the container was not shut down"], "the shutdown")
    exit(1)
}
print("The container's shutdown: \(report)")
if !report.isClean { problems.append("the shutdown was not clean") }
if report.closedCount != 2 { problems.append("\(report.closedCount) services closed, expected 2") }
let order = ledger.singletonCloseOrder
print("Closed in this order: \(order.joined(separator: ", "))")
if order != ["UserRepository", "ConnectionPool"] {
    problems.append("closed in the order \(order), expected the repository before the pool it uses")
}
stop(on: problems, "the container's shutdown")

// 5. After the shutdown, a get fails: nothing is handed out or made again, in a scope either.
let requestLogAfterShutdown = await withServiceScope(label: "late") {
    services.requestLog.getServiceAsResult().map { $0 as AnyObject }
}
for (name, result) in [
    ("users", services.users.getServiceAsResult().map { $0 as AnyObject }),
    ("pool", services.pool.getServiceAsResult().map { $0 as AnyObject }),
    ("requestLog", requestLogAfterShutdown),
] {
    switch result {
    case .success:
        problems.append("services.\(name) still hands out its service")
    case .failure(let error):
        if case .shutDown = error.error as? ServiceFactoryError {
            print("A get of services.\(name) now fails: \(error.error)")
        } else {
            problems.append("services.\(name) failed with \(error.error), expected ServiceFactoryError.shutDown")
        }
    }
}
stop(on: problems, "a get after the shutdown")

let elapsed = (ContinuousClock.now - started).components
let milliseconds = elapsed.seconds * 1_000 + elapsed.attoseconds / 1_000_000_000_000_000
print("OK: \(requestCount) requests, \(pool?.queries ?? 0) queries, then an orderly shutdown, in \(milliseconds) ms")
