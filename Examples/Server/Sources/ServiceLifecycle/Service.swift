// A stand-in of swift-service-lifecycle's `ServiceLifecycle` (2.x), for what the example uses,
// with the same names and signatures: `Service`, `gracefulShutdown()`,
// `ServiceGroupConfiguration(services:gracefulShutdownSignals:cancellationSignals:logger:)` and
// `ServiceGroup` (`init(configuration:)`, `run()`, `triggerGracefulShutdown()`). It behaves as
// the real group does on the paths the example takes: the services run together, and a graceful
// shutdown reaches them one at a time, the last one listed first, each awaited before the next.
// It traps no signal: the example triggers the shutdown that SIGTERM would.

/// A part of an app that runs until the app stops: an HTTP server, a background job.
public protocol Service: Sendable {
    /// Runs the service; returns when it stopped, after a graceful shutdown.
    func run() async throws
}
