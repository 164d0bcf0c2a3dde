// swift-tools-version: 6.2
// A tool that depends on this repository by path, with its trait `ThreadSanitizerAnnotations`,
// and gets services from several threads at once: `.ci/release-thread-sanitizer` builds it
// optimized and under ThreadSanitizer, as a user's release build under `--sanitize=thread` is,
// and fails on any report.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, so the `package:` of the products is the
// name of the checkout's directory, whatever it is.
let checkout = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("../../..")
    .standardizedFileURL

let package = Package(
    name: "ReleaseThreadSanitizer",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: checkout.path, traits: ["ThreadSanitizerAnnotations"])
    ],
    targets: [
        .executableTarget(
            name: "Contention",
            dependencies: [
                .product(name: "ServiceContainerKit", package: checkout.lastPathComponent),
                .product(name: "ServiceLocatorKit", package: checkout.lastPathComponent),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
