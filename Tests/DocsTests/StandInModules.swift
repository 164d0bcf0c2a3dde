/// Stand-ins of modules of other packages, for the blocks of the guides that import them: the
/// package depends on nothing, so a block marked `<!-- doc-check: stand-in MODULE REASON -->` is
/// compiled against the module built from `sources[MODULE]` instead.
///
/// A stand-in declares only the part of the real API that the guides use, with the real
/// signatures (labels, defaults, `@autoclosure`, `Sendable`), so that a block that compiles
/// against it compiles against the real module too.
enum StandInModules {
    /// The source of each stand-in module, by module name.
    static let sources: [String: String] = [
        "Logging": swiftLog
    ]

    /// swift-log's `Logging` (1.5 and later): a `Logger` struct, which clashes with
    /// ServiceContainerKit's `Logger` protocol in a file that imports both, its messages and
    /// metadata made from string literals and interpolations, and the log calls of the levels the
    /// guides use.
    static let swiftLog = """
        public struct Logger: Sendable {
            public typealias Metadata = [String: MetadataValue]

            public enum MetadataValue: Sendable, Equatable, ExpressibleByStringLiteral,
                ExpressibleByStringInterpolation
            {
                case string(String)
                case array([MetadataValue])
                case dictionary(Metadata)

                public init(stringLiteral value: String) {
                    self = .string(value)
                }
            }

            public struct Message: Sendable, Equatable, ExpressibleByStringLiteral,
                ExpressibleByStringInterpolation, CustomStringConvertible
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

            public func warning(
                _ message: @autoclosure () -> Message,
                metadata: @autoclosure () -> Metadata? = nil,
                source: @autoclosure () -> String? = nil,
                file: String = #fileID,
                function: String = #function,
                line: UInt = #line
            ) {}

            public func error(
                _ message: @autoclosure () -> Message,
                metadata: @autoclosure () -> Metadata? = nil,
                source: @autoclosure () -> String? = nil,
                file: String = #fileID,
                function: String = #function,
                line: UInt = #line
            ) {}
        }
        """
}
