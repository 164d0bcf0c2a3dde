/// Stand-ins of modules of other packages, for the blocks of the guides that import them: the
/// package depends on nothing, so a block marked `<!-- doc-check: stand-in MODULE REASON -->` is
/// compiled against the module built from `sources[MODULE]` instead.
///
/// A stand-in declares only the part of the real API that the guides use, with the real
/// signatures (labels, defaults, `@autoclosure`, `Sendable`), so that a block that compiles
/// against it compiles against the real module too. A stand-in of a module that imports other
/// modules (`ServiceLifecycle` takes swift-log's `Logger`) names them in `dependencies`: they
/// are built first, and a block can import them too.
enum StandInModules {
    /// The source of each stand-in module, by module name.
    static let sources: [String: String] = [
        "Logging": swiftLog,
        "UnixSignals": unixSignals,
        "ServiceLifecycle": serviceLifecycle,
        "Hummingbird": hummingbird,
        "Vapor": vapor,
        "ArgumentParser": argumentParser,
        "GRPCCore": grpcCore,
    ]

    /// The stand-ins each stand-in imports, in the order to build them.
    static let dependencies: [String: [String]] = [
        "ServiceLifecycle": ["Logging", "UnixSignals"]
    ]

    /// `module`'s dependencies, then `module`: what to build, in order, for a block that
    /// imports it.
    static func buildOrder(of module: String) -> [String] {
        var order: [String] = []
        func add(_ module: String) {
            guard !order.contains(module) else { return }
            dependencies[module, default: []].forEach(add)
            order.append(module)
        }
        add(module)
        return order
    }

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

    /// swift-service-lifecycle's `UnixSignals` (2.x), which `ServiceLifecycle` imports for the
    /// signals a group traps: the signals the guides name.
    static let unixSignals = """
        public struct UnixSignal: Hashable, Sendable, CustomStringConvertible {
            private let name: String

            private init(_ name: String) {
                self.name = name
            }

            public var description: String { name }

            public static let sigint = Self("SIGINT")
            public static let sigterm = Self("SIGTERM")
        }
        """

    /// swift-service-lifecycle's `ServiceLifecycle` (2.x): the `Service` protocol, the wait for a
    /// graceful shutdown, and a `ServiceGroup` made from a configuration. The group is an actor;
    /// the configuration takes swift-log's `Logger`.
    static let serviceLifecycle = """
        import Logging
        import UnixSignals

        public protocol Service: Sendable {
            func run() async throws
        }

        public func gracefulShutdown() async throws {}

        public struct ServiceGroupConfiguration: Sendable {
            public init(
                services: [Service],
                gracefulShutdownSignals: [UnixSignal] = [],
                cancellationSignals: [UnixSignal] = [],
                logger: Logger
            ) {}
        }

        public actor ServiceGroup: Sendable {
            public init(configuration: ServiceGroupConfiguration) {}

            public func run(file: String = #file, line: Int = #line) async throws {}
        }
        """

    /// Hummingbird 2's middleware of a router: `RouterMiddleware`, a `MiddlewareProtocol` whose
    /// input is a `Request` and output a `Response`, its `next` a non-escaping closure, and the
    /// request's path (`request.uri.path`).
    static let hummingbird = """
        public struct URI: Sendable {
            public var path: String
        }

        public struct Request: Sendable {
            public let uri: URI
        }

        public struct Response: Sendable {}

        public protocol RequestContext: Sendable {}

        public protocol MiddlewareProtocol<Input, Output, Context>: Sendable {
            associatedtype Input
            associatedtype Output
            associatedtype Context
            typealias Next = (Input, Context) async throws -> Output
            func handle(_ input: Input, context: Context, next: Next) async throws -> Output
        }

        public protocol RouterMiddleware<Context>: MiddlewareProtocol
        where Input == Request, Output == Response {}
        """

    /// Vapor 4's `AsyncMiddleware`, whose `next` is an `AsyncResponder`, and the request's path
    /// (`request.url.path`). The requirements with event-loop futures, which `AsyncMiddleware`
    /// and `AsyncResponder` fulfil themselves, are left out.
    static let vapor = """
        public struct URI: Sendable {
            public var path: String
        }

        public final class Request: Sendable {
            public let url: URI

            init(url: URI) {
                self.url = url
            }
        }

        public final class Response: Sendable {}

        public protocol Responder: Sendable {}

        public protocol AsyncResponder: Responder {
            func respond(to request: Request) async throws -> Response
        }

        public protocol Middleware: Sendable {}

        public protocol AsyncMiddleware: Middleware {
            func respond(to request: Request, chainingTo next: AsyncResponder) async throws -> Response
        }
        """

    /// grpc-swift 2's `GRPCCore`: a `ServerInterceptor`, the streaming request and response it
    /// sees (the response's `accepted` contents, whose `producer` writes the messages after the
    /// interceptor returned), and the method's name in its `ServerContext`.
    static let grpcCore = """
        public struct Metadata: Sendable, Hashable, ExpressibleByDictionaryLiteral {
            public init(dictionaryLiteral elements: (String, String)...) {}
        }

        public struct RPCError: Error, Sendable {}

        public struct MethodDescriptor: Sendable, Hashable {
            public var fullyQualifiedMethod: String { "" }
        }

        public struct ServerContext: Sendable {
            public var descriptor: MethodDescriptor
        }

        public struct RPCWriter<Element: Sendable>: Sendable {}

        public struct StreamingServerRequest<Message: Sendable>: Sendable {}

        public struct StreamingServerResponse<Message: Sendable>: Sendable {
            public struct Contents: Sendable {
                public var metadata: Metadata
                public var producer: @Sendable (RPCWriter<Message>) async throws -> Metadata

                public init(
                    metadata: Metadata,
                    producer: @escaping @Sendable (RPCWriter<Message>) async throws -> Metadata
                ) {
                    self.metadata = metadata
                    self.producer = producer
                }
            }

            public var accepted: Result<Contents, RPCError>

            public init(accepted: Result<Contents, RPCError>) {
                self.accepted = accepted
            }
        }

        public protocol ServerInterceptor: Sendable {
            func intercept<Input: Sendable, Output: Sendable>(
                request: StreamingServerRequest<Input>,
                context: ServerContext,
                next: @Sendable (
                    _ request: StreamingServerRequest<Input>,
                    _ context: ServerContext
                ) async throws -> StreamingServerResponse<Output>
            ) async throws -> StreamingServerResponse<Output>
        }
        """

    /// swift-argument-parser's commands (1.x): a command is `Decodable` and made with `init()`,
    /// an `@Argument` property is `Decodable`, and `main()` parses the command line and runs the
    /// command, synchronously or, for an `AsyncParsableCommand`, awaited.
    static let argumentParser = """
        public protocol ParsableArguments: Decodable, SendableMetatype {
            init()
        }

        public protocol ParsableCommand: ParsableArguments {
            mutating func run() throws
        }

        extension ParsableCommand {
            public mutating func run() throws {}

            public static func main() {}
        }

        public protocol AsyncParsableCommand: ParsableCommand {
            mutating func run() async throws
        }

        extension AsyncParsableCommand {
            public static func main() async {}
        }

        public protocol ExpressibleByArgument: SendableMetatype {
            init?(argument: String)
        }

        extension String: ExpressibleByArgument {
            public init?(argument: String) {
                self = argument
            }
        }

        public struct ArgumentHelp: ExpressibleByStringLiteral, Sendable {
            public init(stringLiteral value: String) {}
        }

        @propertyWrapper
        public struct Argument<Value>: Decodable {
            private var value: Value?

            public init(from decoder: any Decoder) throws {
                value = nil
            }

            // As in the real module: a no-argument `init()` in the type itself, so that
            // `@Argument var name: String` has a default, which picks the one of the extension.
            @available(*, unavailable, message: "a default value must be given")
            public init() {
                fatalError("unavailable")
            }

            public var wrappedValue: Value {
                get { value! }
                set { value = newValue }
            }
        }

        extension Argument where Value: ExpressibleByArgument {
            public init(help: ArgumentHelp? = nil) {
                value = nil
            }
        }
        """
}
