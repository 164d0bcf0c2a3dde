import ServiceContainerKit
import Synchronization

/// The server's container: singletons made once for the process (the pool, the repository),
/// and services made once per request, in its scope (the request's log, its unit of work).
struct Services: Sendable {
    let pool: ServiceProvider<ConnectionPool>
    let users: ServiceProvider<UserRepository>
    let requestLog: ServiceProvider<RequestLog>
    let unitOfWork: ServiceProvider<UnitOfWork>

    init(ledger: Ledger) {
        let pool = ServiceProvider<ConnectionPool>(mode: .lazy) { ConnectionPool(ledger: ledger) }
        let users = ServiceProvider<UserRepository>(mode: .lazy) {
            UserRepository(pool: try pool.getService(), ledger: ledger)
        }
        let requestLog = ServiceProvider<RequestLog>(mode: .scoped) {
            RequestLog(requestID: ServiceScope.current?.label ?? "", ledger: ledger)
        }
        self.pool = pool
        self.users = users
        self.requestLog = requestLog
        unitOfWork = ServiceProvider(mode: .scoped) {
            UnitOfWork(users: try users.getService(), log: try requestLog.getService(), ledger: ledger)
        }
    }
}

/// What the services did, for the checks: how many were made and closed, and in which order
/// the singletons closed.
final class Ledger: Sendable {
    /// Counts the closes of every service, to order them.
    private let ticks = Atomic(0)
    let requestLogsMade = Atomic(0)
    let requestLogsClosed = Atomic(0)
    let unitsOfWorkClosed = Atomic(0)
    private let singletonsClosed = Mutex<[String]>([])

    /// The next close's place in the order of all closes.
    func tick() -> Int {
        ticks.add(1, ordering: .relaxed).newValue
    }

    func singletonClosed(_ name: String) {
        singletonsClosed.withLock { $0.append(name) }
    }

    /// The singletons that closed, in the order they closed.
    var singletonCloseOrder: [String] {
        singletonsClosed.withLock { $0 }
    }
}

/// A service that was used after it closed, or closed before what used it.
struct ClosedTooEarly: Error, CustomStringConvertible {
    let description: String
}

/// A simulated pool of database connections: each query takes one for a moment.
final class ConnectionPool: ClosableService {
    private struct State {
        var inUse = 0
        var mostInUse = 0
        var queries = 0
        var isClosed = false
    }

    private let state = Mutex(State())
    private let ledger: Ledger

    init(ledger: Ledger) {
        self.ledger = ledger
    }

    var isClosed: Bool { state.withLock { $0.isClosed } }
    var queries: Int { state.withLock { $0.queries } }
    var mostInUse: Int { state.withLock { $0.mostInUse } }

    func query(_ sql: String) async throws -> [String] {
        try state.withLock { state in
            guard !state.isClosed else { throw ClosedTooEarly(description: "a query on the closed pool: \(sql)") }
            state.inUse += 1
            state.queries += 1
            state.mostInUse = max(state.mostInUse, state.inUse)
        }
        defer { state.withLock { $0.inUse -= 1 } }
        try await Task.sleep(for: .microseconds(200))  // the database's round trip
        return [sql]
    }

    /// Closes the connections; one still in use means a request outlived the server.
    func close() async throws {
        let inUse = state.withLock { state in
            state.isClosed = true
            return state.inUse
        }
        ledger.singletonClosed("ConnectionPool")
        if inUse > 0 {
            throw ClosedTooEarly(description: "\(inUse) connections still in use")
        }
    }
}

/// The users, read through the pool and kept in a cache, which close writes back and drops.
final class UserRepository: ClosableService {
    let pool: ConnectionPool
    private let ledger: Ledger
    /// The users read so far; `nil` once closed.
    private let cache = Mutex<[Int: String]?>([:])

    init(pool: ConnectionPool, ledger: Ledger) {
        self.pool = pool
        self.ledger = ledger
    }

    func user(id: Int) async throws -> String {
        let cached = try cache.withLock { cache in
            guard let cache else { throw ClosedTooEarly(description: "a read of user \(id) from the closed repository") }
            return cache[id]
        }
        if let cached {
            return cached
        }
        let name = try await pool.query("SELECT name FROM users WHERE id = \(id)").first ?? ""
        cache.withLock { $0?[id] = name }
        return name
    }

    /// Writes the cache back through the pool, which must still be open.
    func close() async throws {
        let cached = cache.withLock { $0.take()?.count ?? 0 }
        _ = try await pool.query("-- write back \(cached) cached users")
        ledger.singletonClosed("UserRepository")
    }
}

/// The lines one request logs, written out when its scope closes.
final class RequestLog: ClosableService {
    let requestID: String
    /// Which request log this is, in the order they were made: each request's own.
    let serial: Int
    private let ledger: Ledger
    private let lines = Mutex<[String]>([])
    private let closedAt = Atomic(0)

    init(requestID: String, ledger: Ledger) {
        self.requestID = requestID
        self.ledger = ledger
        serial = ledger.requestLogsMade.add(1, ordering: .relaxed).newValue
    }

    func add(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    /// The place of its close among all closes; 0 while it is open.
    var closeTick: Int { closedAt.load(ordering: .relaxed) }

    func close() async throws {
        _ = lines.withLock { $0 }  // a server would write them out here
        closedAt.store(ledger.tick(), ordering: .relaxed)
        ledger.requestLogsClosed.add(1, ordering: .relaxed)
    }
}

/// The work of one request: reads through the repository, on behalf of the request's log.
final class UnitOfWork: ClosableService {
    let users: UserRepository
    let log: RequestLog
    private let ledger: Ledger
    private let closedAt = Atomic(0)

    init(users: UserRepository, log: RequestLog, ledger: Ledger) {
        self.users = users
        self.log = log
        self.ledger = ledger
    }

    func userName(id: Int) async throws -> String {
        log.add("user \(id)")
        return try await users.user(id: id)
    }

    /// The place of its close among all closes; 0 while it is open.
    var closeTick: Int { closedAt.load(ordering: .relaxed) }

    /// Ends the work, noting it in the log, which must still be open.
    func close() async throws {
        guard log.closeTick == 0 else {
            throw ClosedTooEarly(description: "the log of \(log.requestID) closed before its unit of work")
        }
        log.add("done")
        closedAt.store(ledger.tick(), ordering: .relaxed)
        ledger.unitsOfWorkClosed.add(1, ordering: .relaxed)
    }
}
