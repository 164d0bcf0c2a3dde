// A stand-in of swift-service-lifecycle's `UnixSignals`: the signals the example names. The
// stand-in `ServiceGroup` does not trap them.

/// A Unix signal that a service group can shut down on.
public struct UnixSignal: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) {
        self.name = name
    }

    public var description: String { name }

    /// Sent by the terminal on Ctrl-C.
    public static let sigint = Self("SIGINT")
    /// Sent to stop a process: what a container runtime or a service manager sends first.
    public static let sigterm = Self("SIGTERM")
}
