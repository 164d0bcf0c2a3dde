import Logging

/// Runs services together and shuts them down gracefully, the last one listed first.
public actor ServiceGroup: Sendable {
    private let configuration: ServiceGroupConfiguration
    private let shutdownRequests: AsyncStream<Void>
    private let shutdownRequester: AsyncStream<Void>.Continuation
    private var hasRun = false

    public init(configuration: ServiceGroupConfiguration) {
        self.configuration = configuration
        (shutdownRequests, shutdownRequester) = AsyncStream.makeStream(of: Void.self)
    }

    /// Starts the graceful shutdown of a running group, and returns without waiting for it.
    public func triggerGracefulShutdown() async {
        shutdownRequester.yield()
        shutdownRequester.finish()
    }

    /// Runs every service, each in a child task, until a graceful shutdown, which reaches the
    /// services in reverse order of the list, each once the one after it has returned. A
    /// service that returns or throws before the shutdown cancels the others.
    ///
    /// - Throws: the first error a service threw, `ServiceGroupError.serviceFinishedUnexpectedly`
    ///   when one returned before the shutdown, or `ServiceGroupError.alreadyRunning` on a
    ///   second call.
    public func run(file: String = #file, line: Int = #line) async throws {
        guard !hasRun else { throw ServiceGroupError.alreadyRunning(file: file, line: line) }
        hasRun = true
        let services = configuration.services
        let logger = configuration.logger
        let triggers = services.map { _ in GracefulShutdownTrigger() }
        let requests = shutdownRequests

        let error = await withTaskGroup(of: Event.self, returning: (any Error)?.self) { group in
            for (index, service) in services.enumerated() {
                let trigger = triggers[index]
                group.addTask {
                    await GracefulShutdownTrigger.$current.withValue(trigger) {
                        do {
                            try await service.run()
                            return .ended(index, nil)
                        } catch {
                            return .ended(index, error)
                        }
                    }
                }
            }
            group.addTask {
                for await _ in requests {
                    return .shutdownRequested
                }
                return .shutdownRequested
            }

            var running = Set(services.indices)
            // Until the shutdown is asked for, or a service ends on its own.
            while let event = await group.next() {
                guard case .ended(let index, let error) = event else { break }
                logger.error("\(services[index]) ended before the graceful shutdown: the group is cancelled")
                group.cancelAll()
                await group.waitForAll()
                return error ?? ServiceGroupError.serviceFinishedUnexpectedly()
            }

            var firstError: (any Error)?
            for index in services.indices.reversed() {
                triggers[index].trigger()
                while running.contains(index), let event = await group.next() {
                    guard case .ended(let ended, let error) = event else { continue }
                    running.remove(ended)
                    if firstError == nil {
                        firstError = error ?? (ended == index ? nil : ServiceGroupError.serviceFinishedUnexpectedly())
                    }
                }
            }
            return firstError
        }
        if let error {
            throw error
        }
    }

    private enum Event: Sendable {
        case ended(Int, (any Error)?)
        case shutdownRequested
    }
}

/// The errors of a service group.
public struct ServiceGroupError: Error, Hashable, Sendable, CustomStringConvertible {
    private let message: String

    /// `run()` was called on a group that is running or has run.
    public static func alreadyRunning(file: String = #fileID, line: Int = #line) -> Self {
        Self(message: "the service group is already running (\(file):\(line))")
    }

    /// A service returned from `run()` before the graceful shutdown.
    public static func serviceFinishedUnexpectedly(file: String = #fileID, line: Int = #line) -> Self {
        Self(message: "a service returned before the graceful shutdown (\(file):\(line))")
    }

    public var description: String { message }
}
