import Logging
import ServiceContainerKit
import ServiceLifecycle
import Synchronization

/// Shuts a container down when its service group shuts down gracefully: after every service
/// listed after it in the group. The service of docs/server.md, which also keeps its report for
/// the checks.
struct ContainerShutdownService<Container: Sendable>: Service {
    let container: Container
    let timeout: Duration
    let logger: Logging.Logger
    let outcome = Outcome()

    init(_ container: Container, timeout: Duration = .seconds(10), logger: Logging.Logger) {
        self.container = container
        self.timeout = timeout
        self.logger = logger
    }

    func run() async throws {
        // Returns on the group's graceful shutdown; a cancelled group ends the wait too (with a
        // CancellationError), and the container is still closed.
        try? await gracefulShutdown()
        let report = await ServiceShutdown.close(container, timeout: timeout)
        if !report.isClean {
            logger.error("the container did not close cleanly: \(report)")
        }
        outcome.report.withLock { $0 = report }
    }

    /// The report of the shutdown, once it is done.
    final class Outcome: Sendable {
        let report = Mutex<ServiceCloseReport?>(nil)
    }
}
