// swift-tools-version: 6.2
import PackageDescription

let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

let package = Package(
    name: "ServiceContainerKit",
    // The stdlib `Synchronization` module (the atomics behind the lock-free fast paths) needs
    // these Apple releases; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ServiceContainerKit", targets: ["ServiceContainerKit"]),
        .library(name: "ServiceInjects", targets: ["ServiceInjects"]),
        .library(name: "ServiceInjectsTesting", targets: ["ServiceInjectsTesting"]),
        .library(name: "ServiceLocatorKit", targets: ["ServiceLocatorKit"]),
        .library(name: "ServiceEasyLocatorKit", targets: ["ServiceEasyLocatorKit"]),
        .library(name: "ServiceContainerKitObjC", targets: ["ServiceContainerKitObjC"]),
        .executable(name: "ServiceContainerKitBenchmarks", targets: ["ServiceContainerKitBenchmarks"]),
    ],
    traits: [
        // Off by default: without ThreadSanitizer it costs every lock a few instructions (docs/testing.md).
        .trait(
            name: "ThreadSanitizerAnnotations",
            description: """
                Tells ThreadSanitizer the ordering that the package's locks give, which it does not see \
                in an optimized build on Linux. For the builds you run with --sanitize=thread.
                """
        )
    ],
    targets: [
        .target(
            name: "ServiceContainerKit",
            dependencies: ["CServiceContainerKit"],
            path: "Sources/Core",
            swiftSettings: settings
        ),
        // The four globals a get or a making reads (the count of running validations and
        // recorders, the thread's context, whether a scope or a scoped provider was ever made,
        // the count of singleton makings that chains of tasks name), in C so that a get inlined
        // into an app reads each with one load, and the ThreadSanitizer annotations of the
        // trait `ThreadSanitizerAnnotations` (see its header).
        .target(name: "CServiceContainerKit", path: "Sources/CServiceContainerKit"),
        .target(
            name: "ServiceInjects",
            dependencies: ["ServiceContainerKit"],
            path: "Sources/Injects",
            swiftSettings: settings
        ),
        // For test targets only: the `.isolatedInjectRegistries` trait. The one product module
        // that imports the toolchain's `Testing` (`TestSupport`, below, is in no product).
        .target(
            name: "ServiceInjectsTesting",
            dependencies: ["ServiceInjects"],
            path: "Sources/InjectsTesting",
            swiftSettings: settings
        ),
        .target(
            name: "ServiceLocatorKit",
            dependencies: ["ServiceContainerKit"],
            path: "Sources/Locators/ServiceLocatorKit",
            swiftSettings: settings
        ),
        .target(
            name: "ServiceEasyLocatorKit",
            dependencies: ["ServiceContainerKit", "ServiceLocatorKit"],
            path: "Sources/Locators/ServiceEasyLocatorKit",
            swiftSettings: settings
        ),
        .target(
            name: "ServiceContainerKitObjC",
            dependencies: ["ServiceContainerKit", "ServiceInjects", "ServiceLocatorKit", "ServiceEasyLocatorKit"],
            path: "Sources/ObjCBridge",
            swiftSettings: settings
        ),
        .executableTarget(
            name: "ServiceContainerKitBenchmarks",
            dependencies: [
                "ServiceContainerKit", "ServiceInjects", "ServiceLocatorKit", "ServiceEasyLocatorKit",
                "ServiceContainerKitObjC", .target(name: "CMalloc", condition: .when(platforms: [.linux])),
            ],
            path: "Benchmarks",
            exclude: ["CMalloc"],
            swiftSettings: settings
        ),
        // Validates the README's container and prints its report and graph, for
        // docs/diagnostics.md (.ci/render-graph draws the graph from it).
        .executableTarget(
            name: "DiagnosticsExample",
            dependencies: ["ServiceContainerKit"],
            path: "Examples/DiagnosticsExample",
            swiftSettings: settings
        ),
        // The C allocator's statistics, for the benchmark's count of heap bytes.
        .systemLibrary(name: "CMalloc", path: "Benchmarks/CMalloc"),
        // Time limits for the tests that could hang, shared by the test targets; in no product;
        // the heap in use, for the tests that check that memory stays flat; and the trait that
        // runs a test that blocks its thread outside the concurrency pool.
        .target(
            name: "TestSupport",
            dependencies: [.target(name: "CMalloc", condition: .when(platforms: [.linux]))],
            path: "Tests/TestSupport",
            swiftSettings: settings
        ),
        .testTarget(
            name: "ServiceContainerKitTests",
            dependencies: ["ServiceContainerKit", "TestSupport"],
            path: "Tests/ServiceContainerKitTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "ServiceInjectsTests",
            dependencies: ["ServiceInjects", "TestSupport"],
            path: "Tests/ServiceInjectsTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "ServiceInjectsTestingTests",
            dependencies: ["ServiceInjectsTesting"],
            path: "Tests/ServiceInjectsTestingTests",
            swiftSettings: settings
        ),
        // The services, factories and refusal log that the tests of both locator products use.
        .target(
            name: "LocatorTestSupport",
            dependencies: ["ServiceLocatorKit"],
            path: "Tests/LocatorTestSupport",
            swiftSettings: settings
        ),
        .testTarget(
            name: "ServiceLocatorKitTests",
            dependencies: ["ServiceLocatorKit", "LocatorTestSupport", "TestSupport"],
            path: "Tests/ServiceLocatorKitTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "ServiceEasyLocatorKitTests",
            dependencies: ["ServiceEasyLocatorKit", "LocatorTestSupport", "TestSupport"],
            path: "Tests/ServiceEasyLocatorKitTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "MigrationTests",
            dependencies: ["ServiceLocatorKit", "ServiceEasyLocatorKit", "TestSupport"],
            path: "Tests/MigrationTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "ServiceContainerKitObjCTests",
            dependencies: ["ServiceContainerKitObjC", "TestSupport"],
            path: "Tests/ServiceContainerKitObjCTests",
            swiftSettings: settings
        ),
        // Compiles every ```swift block of README.md, docs/*.md and the products' doc comments
        // against the products, and checks docs/diagnostics.md's graph against
        // DiagnosticsExample's output; the dependencies make sure the build has their modules and
        // that program before the tests run. DocCommentContexts holds the names the doc comments'
        // examples use, read by the test, not compiled into it.
        .testTarget(
            name: "DocsTests",
            dependencies: [
                "ServiceContainerKit", "ServiceInjects", "ServiceInjectsTesting", "ServiceLocatorKit",
                "ServiceEasyLocatorKit", "ServiceContainerKitObjC", "DiagnosticsExample", "TestSupport",
            ],
            path: "Tests/DocsTests",
            exclude: ["DocCommentContexts"],
            swiftSettings: settings
        ),
    ]
)
