/// A service that holds something to give back when its lifetime ends: a connection, a file,
/// a buffer to flush. A ``ServiceScope`` awaits `close()` of each such service it made when it
/// closes.
///
/// ```swift
/// import Synchronization
///
/// final class RequestLog: ClosableService {
///     private let lines = Mutex<[String]>([])
///
///     func add(_ line: String) { lines.withLock { $0.append(line) } }
///
///     func close() async throws {
///         let lines = lines.withLock { $0 }
///         try await LogStore.shared.append(lines)
///     }
/// }
/// ```
///
/// `close()` is called once for each object, after every service made later in the scope was
/// closed: the services this one needs are still open while it closes. A service that is a value
/// (a struct) has no identity: each provider that hands a copy on has it closed, so make a
/// service that must close once a class. It should return within the scope's
/// time limit, or at least stop when its task is cancelled; an error it throws is reported,
/// and the other services still close. It should suspend while it waits, never block its
/// thread: the time limit is kept on the threads that run tasks, as many as the machine has
/// cores, so closes that block them all hold the close past its limit (run blocking work on a
/// thread of its own, as the server guide shows).
public protocol ClosableService: Sendable {
    /// Gives back what the service holds. Called once for each object (a value, for each
    /// provider that hands it on).
    func close() async throws
}
