// swift-tools-version: 6.0
// An app that depends on this repository by path, as the README's install section shows, with
// one executable per product it takes alone. `.ci/run` builds each and checks that it pulls in
// nothing else of the package.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, so the `package:` of the products is
// the name of the checkout's directory, whatever it is.
let checkout = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("../../..")
    .standardizedFileURL

let package = Package(
    name: "SingleProduct",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: checkout.path)
    ],
    targets: [
        .executableTarget(
            name: "LocatorOnly",
            dependencies: [.product(name: "ServiceLocatorKit", package: checkout.lastPathComponent)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "InjectsOnly",
            dependencies: [.product(name: "ServiceInjects", package: checkout.lastPathComponent)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
