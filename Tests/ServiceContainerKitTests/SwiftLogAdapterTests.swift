// The swift-log adapter of docs/core.md ("Forwarding to swift-log"), compiled as it is written
// there against a stand-in of the part of swift-log's API it uses. The package has no
// dependencies, so the stand-in replaces `import Logging`; it declares the same names
// (`Logging.Logger`, `init(label:)`, `error(_:metadata:)`, `warning(_:metadata:)`,
// `Logger.Message` and `Logger.MetadataValue` made from string interpolations) and records what
// it is asked to log.
import Synchronization
import Testing

import ServiceContainerKit

// MARK: - Stand-in for swift-log's `Logging` module

enum Logging {
    struct Logger: Sendable {
        typealias Metadata = [String: MetadataValue]

        enum MetadataValue: Equatable, Sendable, ExpressibleByStringInterpolation {
            case string(String)

            init(stringLiteral value: String) {
                self = .string(value)
            }
        }

        struct Message: Equatable, Sendable, ExpressibleByStringInterpolation {
            let text: String

            init(stringLiteral value: String) {
                text = value
            }
        }

        enum Level: Sendable {
            case warning, error
        }

        /// One call of `error` or `warning`.
        struct Entry: Equatable, Sendable {
            let label: String
            let level: Level
            let message: String
            let metadata: Metadata?
        }

        /// Everything logged through the stand-in, in order.
        static let entries = Mutex<[Entry]>([])

        let label: String

        init(label: String) {
            self.label = label
        }

        func error(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
            record(.error, message(), metadata())
        }

        func warning(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
            record(.warning, message(), metadata())
        }

        private func record(_ level: Level, _ message: Message, _ metadata: Metadata?) {
            let entry = Entry(label: label, level: level, message: message.text, metadata: metadata)
            Self.entries.withLock { $0.append(entry) }
        }

        /// The entries logged under `label` about `service` (other tests fail services in
        /// parallel, and a registered adapter hears of them too).
        static func entries(label: String, service: String) -> [Entry] {
            entries.withLock { all in
                all.filter { $0.label == label && $0.metadata?["service"] == .string(service) }
            }
        }
    }
}

// MARK: - docs/core.md: the adapter, as written there

/// Forwards the events of service providers to swift-log.
final class SwiftLogProvidersLogger: ProvidersLogger {
    private let log: Logging.Logger

    init(label: String = "ServiceContainerKit") {
        log = Logging.Logger(label: label)
    }

    func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
        log.error("\(error.fatalMessage)", metadata: ["service": "\(type)"])
    }

    func serviceProviderObjCNotSupport(type: Any.Type) {
        log.warning(
            "\(type) is not an NSObject, so an Objective-C style wrapper cannot hand it out",
            metadata: ["service": "\(type)"]
        )
    }
}

// MARK: - Tests

final class SwiftLogDirectProbe {}
final class SwiftLogRegisteredProbe {}
final class SwiftLogObjCProbe {}

@Suite("docs/core.md: forwarding to swift-log")
struct SwiftLogAdapterTests {
    @Test("A factory failure becomes an error with the fatal message and the service")
    func makeFailure() throws {
        let failing = ServiceProvider<SwiftLogDirectProbe>(mode: .lazy) { throw TestError(code: 3) }
        let error = try #require(#expect(throws: ServiceObtainError.self) { try failing.getService() })
        let adapter = SwiftLogProvidersLogger(label: "tests.swift-log.direct")

        adapter.serviceProviderMakeFailure(type: SwiftLogDirectProbe.self, error: error)

        #expect(
            Logging.Logger.entries(label: "tests.swift-log.direct", service: "SwiftLogDirectProbe") == [
                .init(
                    label: "tests.swift-log.direct",
                    level: .error,
                    message: "Failed to obtain service ServiceContainerKitTests.SwiftLogDirectProbe with error: "
                        + "TestError(code: 3)",
                    metadata: ["service": "SwiftLogDirectProbe"]
                )
            ]
        )
    }

    @Test("Registered with register(), the adapter hears of a failure once")
    func registered() {
        let adapter = SwiftLogProvidersLogger(label: "tests.swift-log.registered")
        adapter.register()
        defer { adapter.unregister() }
        // Named by its module, as a file that also imports swift-log must.
        let asLogger: any ServiceContainerKit.Logger = adapter
        #expect(asLogger.queue == nil)

        let failing = ServiceProvider<SwiftLogRegisteredProbe>(mode: .lazy) { throw TestError(code: 4) }
        #expect(failing.getServiceAsOptional() == nil)

        let entries = Logging.Logger.entries(label: "tests.swift-log.registered", service: "SwiftLogRegisteredProbe")
        #expect(entries.map(\.level) == [.error])
        #expect(entries.map(\.message) == [
            "Failed to obtain service ServiceContainerKitTests.SwiftLogRegisteredProbe with error: TestError(code: 4)"
        ])
    }

    @Test("A service refused by an Objective-C style wrapper becomes a warning")
    func objcNotSupported() {
        SwiftLogProvidersLogger(label: "tests.swift-log.objc").serviceProviderObjCNotSupport(type: SwiftLogObjCProbe.self)

        #expect(
            Logging.Logger.entries(label: "tests.swift-log.objc", service: "SwiftLogObjCProbe") == [
                .init(
                    label: "tests.swift-log.objc",
                    level: .warning,
                    message: "SwiftLogObjCProbe is not an NSObject, so an Objective-C style wrapper cannot hand it out",
                    metadata: ["service": "SwiftLogObjCProbe"]
                )
            ]
        )
    }

    @Test("The default label names the package")
    func defaultLabel() {
        SwiftLogProvidersLogger().serviceProviderObjCNotSupport(type: SwiftLogObjCProbe.self)
        #expect(Logging.Logger.entries(label: "ServiceContainerKit", service: "SwiftLogObjCProbe").count == 1)
    }
}
