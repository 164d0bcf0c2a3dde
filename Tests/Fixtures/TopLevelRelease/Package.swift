// swift-tools-version: 6.0
// Command-line tools that depend on this repository by path and run in the top-level code of
// their main.swift, the simplest way to write one: `Tool` gets its services there, and
// `FirstInjectTool` runs `RunLoop.main` to have its first-inject entities removed.
// `.ci/top-level-release` builds them optimized, as a tool would ship, and runs them.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, so the `package:` of the product is the
// name of the checkout's directory, whatever it is.
let checkout = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("../../..")
    .standardizedFileURL

let package = Package(
    name: "TopLevelRelease",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: checkout.path)
    ],
    targets: [
        .executableTarget(
            name: "Tool",
            dependencies: [.product(name: "ServiceContainerKit", package: checkout.lastPathComponent)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "FirstInjectTool",
            dependencies: [.product(name: "ServiceInjects", package: checkout.lastPathComponent)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
