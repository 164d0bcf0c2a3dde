import ServiceContainerKit
import ServiceLifecycle
import Synchronization

/// A request from a simulated client, with the way back to it.
struct Request: Sendable {
    let id: Int
    let userID: Int
    let reply: CheckedContinuation<Response, any Error>
}

/// What the server answers.
struct Response: Sendable {
    let requestID: String
    let userName: String
}

/// A request the server did not take: it was sent after the server stopped taking requests.
struct ServerStopped: Error {}

/// A simulated HTTP server. It handles each request in a child task of its own, in a scope of its
/// own, until the group shuts it down gracefully; then it takes no new request, and returns once
/// it has answered those it took, whose scopes are then closed.
///
/// Each request is held half-way, after it got its scoped services and before it reads through
/// the repository, until the server is told to shut down: the shutdown then finds every request
/// in flight, the case where the order of the shutdown matters. Were the container shut down
/// first, the held requests would read from a closed repository.
struct HTTPServer: Service {
    let services: Services
    let checks: RequestChecks
    private let hold = Hold()
    private let requests: AsyncStream<Request>
    private let inbox: AsyncStream<Request>.Continuation

    init(services: Services, checks: RequestChecks) {
        self.services = services
        self.checks = checks
        (requests, inbox) = AsyncStream.makeStream(of: Request.self)
    }

    /// What a client calls: sends a request and waits for its response.
    func send(id: Int, userID: Int) async throws -> Response {
        try await withCheckedThrowingContinuation { reply in
            if case .terminated = inbox.yield(Request(id: id, userID: userID, reply: reply)) {
                reply.resume(throwing: ServerStopped())
            }
        }
    }

    func run() async throws {
        let inbox = inbox
        await withDiscardingTaskGroup { group in
            group.addTask {
                // On the graceful shutdown (or a cancellation), stop taking requests: the loop
                // below ends once it has taken those already sent.
                try? await gracefulShutdown()
                inbox.finish()
                hold.release()
            }
            for await request in requests {
                group.addTask {
                    do {
                        request.reply.resume(returning: try await handle(request))
                    } catch {
                        request.reply.resume(throwing: error)
                    }
                }
            }
        }  // every request taken has been answered, and its scope closed
    }

    /// Handles one request in its own scope, then checks what the scope made and closed.
    private func handle(_ request: Request) async throws -> Response {
        checks.requestStarted()
        defer { checks.requestEnded() }
        let label = "request-\(request.id)"
        let (response, work, log) = try await withServiceScope(label: label) {
            let work = try services.unitOfWork.getService()
            let log = try services.requestLog.getService()
            // A child task runs in the request's scope too, and gets the same log.
            async let logOfChildTask = services.requestLog.getService()
            await hold.wait(counting: checks)
            let name = try await work.userName(id: request.userID)
            checks.expect(try await logOfChildTask === log, "\(label): a child task got another RequestLog")
            checks.expect(work.log === log, "\(label): its UnitOfWork has another request's RequestLog")
            checks.expect(log.requestID == label, "\(label): got the RequestLog of \(log.requestID)")
            checks.expect(work.closeTick == 0 && log.closeTick == 0, "\(label): a service closed while in use")
            return (Response(requestID: label, userName: name), work, log)
        }  // the scope is closed here: the unit of work, then the log
        checks.logMade(serial: log.serial)
        checks.expect(work.closeTick > 0, "\(label): its UnitOfWork was not closed with the scope")
        checks.expect(log.closeTick > work.closeTick, "\(label): its RequestLog did not close after its UnitOfWork")
        return response
    }
}

/// Where requests wait until it is released, once.
final class Hold: Sendable {
    private struct State {
        var isReleased = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Returns once the hold is released; `checks` counts the requests held.
    func wait(counting checks: RequestChecks) async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let isReleased = state.withLock { state in
                if !state.isReleased { state.waiters.append(waiter) }
                return state.isReleased
            }
            checks.requestHeld()
            if isReleased { waiter.resume() }
        }
    }

    func release() {
        let waiters = state.withLock { state in
            state.isReleased = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// What the requests found wrong, and how many ran at once.
final class RequestChecks: Sendable {
    private let problems = Mutex<[String]>([])
    private let serials = Mutex<Set<Int>>([])
    private let startedCount = Atomic(0)
    private let heldCount = Atomic(0)
    private let inFlightCount = Atomic(0)
    private let mostInFlight = Atomic(0)

    func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
        if !condition {
            let problem = problem()
            problems.withLock { $0.append(problem) }
        }
    }

    func logMade(serial: Int) {
        let isNew = serials.withLock { $0.insert(serial).inserted }
        expect(isNew, "RequestLog \(serial) was handed to two requests")
    }

    func requestStarted() {
        startedCount.add(1, ordering: .relaxed)
        let now = inFlightCount.add(1, ordering: .relaxed).newValue
        mostInFlight.max(now, ordering: .relaxed)
    }

    func requestHeld() {
        heldCount.add(1, ordering: .relaxed)
    }

    func requestEnded() {
        inFlightCount.subtract(1, ordering: .relaxed)
    }

    var found: [String] { problems.withLock { $0 } }
    var distinctLogs: Int { serials.withLock { $0.count } }
    var mostAtOnce: Int { mostInFlight.load(ordering: .relaxed) }
    /// How many requests the server has taken so far.
    var started: Int { startedCount.load(ordering: .relaxed) }
    /// How many requests were held half-way, until the shutdown.
    var held: Int { heldCount.load(ordering: .relaxed) }
}
