// swift-tools-version: 6.0
// A command-line tool that depends on this repository by path and gets its services in the
// top-level code of its main.swift, the simplest way to write one. `.ci/top-level-release`
// builds it optimized, as the tool would ship, and runs it.
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
        )
    ]
)
