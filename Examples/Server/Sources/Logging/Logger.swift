// A stand-in of swift-log's `Logging`: a `Logger` with the signatures of swift-log's, for the log
// calls the example makes. It prints each message on the standard output, after its level and
// label, instead of handing it to a log handler.

/// Writes messages under a label.
public struct Logger: Sendable {
    public typealias Metadata = [String: MetadataValue]

    /// A value of the metadata of a message.
    public enum MetadataValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation,
        CustomStringConvertible
    {
        case string(String)

        public init(stringLiteral value: String) {
            self = .string(value)
        }

        public var description: String {
            switch self {
            case .string(let value): value
            }
        }
    }

    /// A message, made from a string literal or an interpolation.
    public struct Message: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation,
        CustomStringConvertible
    {
        public var description: String

        public init(stringLiteral value: String) {
            description = value
        }
    }

    public let label: String

    public init(label: String) {
        self.label = label
    }

    public func info(
        _ message: @autoclosure () -> Message,
        metadata: @autoclosure () -> Metadata? = nil,
        source: @autoclosure () -> String? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        write("info", message(), metadata())
    }

    public func error(
        _ message: @autoclosure () -> Message,
        metadata: @autoclosure () -> Metadata? = nil,
        source: @autoclosure () -> String? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        write("error", message(), metadata())
    }

    private func write(_ level: String, _ message: Message, _ metadata: Metadata?) {
        let metadata = (metadata ?? [:]).sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        print("\(level) \(label): \(message)\(metadata)")
    }
}
