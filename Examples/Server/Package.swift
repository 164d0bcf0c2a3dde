// swift-tools-version: 6.2
import PackageDescription

// A simulated server on ServiceContainerKit: its own package, so that the root package's build
// and tests never see it. `Logging`, `UnixSignals` and `ServiceLifecycle` are small local
// stand-ins of the modules of swift-log and swift-service-lifecycle, with the same names and
// signatures for what the example uses, so that the `Server` target is written against the real
// API.
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "ServerExample",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        // Named: a path dependency is otherwise known by the name of its directory, which is
        // whatever the clone was called.
        .package(name: "ServiceContainerKit", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "Server",
            dependencies: [
                .product(name: "ServiceContainerKit", package: "ServiceContainerKit"), "ServiceLifecycle", "Logging",
            ],
            swiftSettings: settings
        ),
        .target(name: "ServiceLifecycle", dependencies: ["Logging", "UnixSignals"], swiftSettings: settings),
        .target(name: "UnixSignals", swiftSettings: settings),
        .target(name: "Logging", swiftSettings: settings),
    ]
)
