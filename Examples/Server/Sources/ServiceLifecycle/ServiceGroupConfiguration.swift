import Logging
import UnixSignals

/// The services of a group, in the order they are listed (graceful shutdown goes the other way),
/// the signals it shuts down on, and its logger.
public struct ServiceGroupConfiguration: Sendable {
    let services: [any Service]
    let gracefulShutdownSignals: [UnixSignal]
    let cancellationSignals: [UnixSignal]
    let logger: Logger

    public init(
        services: [Service],
        gracefulShutdownSignals: [UnixSignal] = [],
        cancellationSignals: [UnixSignal] = [],
        logger: Logger
    ) {
        self.services = services
        self.gracefulShutdownSignals = gracefulShutdownSignals
        self.cancellationSignals = cancellationSignals
        self.logger = logger
    }
}
