// The DocC catalogs (Sources/**/<Module>.docc): their articles are the guides of docs/ as
// .ci/docc-articles.swift writes them, each guide in the catalog of its product only, and the
// examples of their landing pages are examples of the guides, which the compile check compiles.
import Foundation
import Testing

/// The catalogs of the package and their landing pages.
enum Catalogs {
    /// Every `*.docc` directory under Sources/.
    static let all: [URL] = {
        let sources = Guides.root.appendingPathComponent("Sources")
        guard let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        var found: [URL] = []
        for case let url as URL in walk where url.pathExtension == "docc" {
            found.append(url)
            walk.skipDescendants()
        }
        return found.sorted { $0.path < $1.path }
    }()

    /// The landing page of `catalog`: `<Module>.md` in `<Module>.docc`.
    static func landingPage(of catalog: URL) -> URL {
        catalog.appendingPathComponent(catalog.deletingPathExtension().lastPathComponent + ".md")
    }

    /// `url` relative to the repository.
    static func relative(_ url: URL) -> String {
        String(url.path.dropFirst(Guides.root.path.count + 1))
    }
}

@Suite("DocC catalogs")
struct DocCCatalogTests {
    @Test("Every product has a catalog with a landing page")
    func catalogsHaveLandingPages() {
        #expect(Catalogs.all.map { $0.deletingPathExtension().lastPathComponent } == [
            "ServiceContainerKit", "ServiceInjects", "ServiceInjectsTesting", "ServiceEasyLocatorKit",
            "ServiceLocatorKit", "ServiceContainerKitObjC",
        ])
        for catalog in Catalogs.all {
            #expect(FileManager.default.fileExists(atPath: Catalogs.landingPage(of: catalog).path))
        }
    }

    @Test("The committed articles of every catalog are the guides of docs/ as .ci/docc-articles.swift writes them")
    func articlesMatchTheGuides() async throws {
        let outcome = try await inProcessSlot { try runScript(".ci/docc-articles.swift", arguments: ["--check"]) }
        if !outcome.succeeded {
            Issue.record(Comment(rawValue: "swift .ci/docc-articles.swift --check failed:\n\(outcome.output)"))
        }
    }

    @Test("Each guide of docs/ is an article of one catalog only, its product's, with the images it shows")
    func eachGuideIsInOneCatalog() throws {
        var contents: [String: [String]] = [:]
        for catalog in Catalogs.all {
            let landingPage = Catalogs.landingPage(of: catalog).lastPathComponent
            let files = try FileManager.default.contentsOfDirectory(atPath: catalog.path)
            contents[catalog.deletingPathExtension().lastPathComponent] = files.filter { $0 != landingPage }.sorted()
        }
        #expect(contents == [
            "ServiceContainerKit": [
                "benchmarks.md", "concurrency.md", "core.md", "diagnostics-graph.svg", "diagnostics.md", "migration.md",
                "server.md",
            ],
            "ServiceInjects": ["injects.md"],
            "ServiceInjectsTesting": ["testing.md"],
            "ServiceLocatorKit": ["locators.md"],
            "ServiceEasyLocatorKit": [],
            "ServiceContainerKitObjC": ["objc-bridge.md"],
        ])
        let guides = Guides.all.filter { $0.hasPrefix("docs/") && $0 != "docs/README.md" }.map { $0.dropFirst(5) }
        let articles = contents.values.flatMap { $0 }.filter { $0.hasSuffix(".md") }
        #expect(articles.sorted() == guides.map(String.init).sorted())
    }

    @Test("A Swift block of a landing page is a block of a guide, so the guide's check compiles it")
    func landingPageBlocksAreGuideBlocks() throws {
        var guideBlocks: Set<String> = []
        for path in Guides.all {
            let text = try String(contentsOf: Guides.root.appendingPathComponent(path), encoding: .utf8)
            guideBlocks.formUnion(try DocBlockReader.blocks(in: text).map(\.code))
        }
        for catalog in Catalogs.all {
            let page = Catalogs.landingPage(of: catalog)
            let blocks = try DocBlockReader.blocks(in: String(contentsOf: page, encoding: .utf8))
            for block in blocks where !guideBlocks.contains(block.code) {
                Issue.record(Comment(
                    rawValue: "\(Catalogs.relative(page)):\(block.line): this block is not a block of README.md or "
                        + "docs/, so nothing compiles it: copy it from the guide it comes from"
                ))
            }
        }
    }

    /// Runs the Swift script at `path` (relative to the repository) with the toolchain's `swift`.
    func runScript(_ path: String, arguments: [String]) throws -> SwiftCompiler.Outcome {
        #if os(macOS)
        let executable = URL(fileURLWithPath: "/usr/bin/xcrun")
        let leading = ["swift"]
        #else
        let executable = try #require(SwiftCompiler.executableInPath("swift"), "swift is not in PATH")
        let leading: [String] = []
        #endif
        return try runTool(
            executable, arguments: leading + [path] + arguments, in: Guides.root, timeout: SwiftCompiler.timeout
        )
    }
}
