// Every ```swift block of README.md and docs/*.md, compiled the way a reader would use it: the
// blocks of one guide pasted in order into one main.swift, against the products of this build.
// How to mark a block that is partial on purpose: docs/README.md.
import Foundation
import Testing

/// The guides whose Swift blocks are checked: README.md and every markdown file in docs/, so a
/// new guide is checked just by being there.
enum Guides {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let all: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// Where an issue about `path` (relative to the package) at `line` and `column` points.
    static func location(_ path: String, line: Int, column: Int = 1) -> SourceLocation {
        SourceLocation(
            fileID: "ServiceContainerKit/\(path)",
            filePath: root.appendingPathComponent(path).path,
            line: line,
            column: column
        )
    }
}

@Suite("Swift blocks of README.md and docs/*.md")
struct DocsCompileTests {
    @Test("The blocks of a guide compile together, one marked `alone`, `stand-in` or `main-actor` by itself; `fails` fails as it says",
          arguments: Guides.all)
    func guideCompiles(path: String) async throws {
        let url = Guides.root.appendingPathComponent(path)
        let blocks: [DocBlock]
        do {
            blocks = try DocBlockReader.blocks(in: String(contentsOf: url, encoding: .utf8))
        } catch let error as DocMarkupError {
            Issue.record("\(path):\(error)", sourceLocation: Guides.location(path, line: error.line))
            return
        }
        let compiler = try SwiftCompiler.current(workingDirectory: Guides.root)

        // The unmarked blocks as one main.swift, then each `alone`, `stand-in` or `main-actor`
        // block as a main.swift of its own.
        let together = blocks.filter { $0.check == .compile }
        let units = (together.isEmpty ? [] : [together]) + blocks.filter { block in
            if case .standIn = block.check { return true }
            return block.check == .alone || block.check == .mainActor
        }.map { [$0] }
        for unit in units {
            var standIn: String?
            if case .standIn(let module) = unit[0].check { standIn = module }
            let source = DocBlockReader.mainSwift(of: unit, path: path)
            let module = standIn
            let mainActorByDefault = unit[0].check == .mainActor
            let outcome = try await inProcessSlot {
                try compiler.compile(source, standIn: module, mainActorByDefault: mainActorByDefault)
            }
            if !outcome.succeeded {
                let (line, column) = firstError(in: outcome.output, path: path) ?? (unit[0].line, 1)
                let what = switch unit[0].check {
                case .alone: "the block marked alone"
                case .mainActor: "the block marked main-actor, in a module whose default isolation is the main actor"
                case .standIn(let module): "the block marked stand-in \(module), with the stand-in module"
                default: "one main.swift"
                }
                Issue.record(
                    "\(path) does not compile as \(what):\n\(outcome.output)",
                    sourceLocation: Guides.location(path, line: line, column: column)
                )
            }
        }

        for block in blocks {
            guard case .fails(let expected) = block.check else { continue }
            let source = DocBlockReader.mainSwift(of: [block], path: path)
            let outcome = try await inProcessSlot { try compiler.compile(source) }
            let failsAsSaid = !outcome.succeeded
                && outcome.output.split(separator: "\n").contains { $0.contains("error: ") && $0.contains(expected) }
            if !failsAsSaid {
                let said = outcome.succeeded ? "(no error)" : outcome.output
                Issue.record(
                    Comment(rawValue: "\(path):\(block.line): the block should fail to compile with \"\(expected)\", "
                        + "but the compiler said:\n\(said)"),
                    sourceLocation: Guides.location(path, line: block.line)
                )
            }
        }
    }

    @Test("README.md and every guide in docs/ are checked")
    func guidesAreFound() {
        for path in [
            "README.md", "docs/core.md", "docs/injects.md", "docs/locators.md", "docs/objc-bridge.md", "docs/migration.md",
            "docs/diagnostics.md",
        ] {
            #expect(Guides.all.contains(path))
        }
    }

    @Test("A block that does not compile fails the check, naming its file and line")
    func brokenBlockFails() async throws {
        // The second block sees the first (as in one main.swift), but misuses it.
        let markdown = """
            # A guide

            ```swift
            let number = 1
            ```

            ```swift
            let text: String = number
            ```
            """
        let outcome = try await compileGuide(markdown, path: "docs/broken.md")
        #expect(!outcome.succeeded)
        #expect(outcome.output.contains(
            "docs/broken.md:8:20: error: cannot convert value of type 'Int' to specified type 'String'"
        ))
        #expect(firstError(in: outcome.output, path: "docs/broken.md")! == (8, 20))
    }

    @Test("A block that compiles with a warning fails: the guides build without warnings, as the package does")
    func warningFails() async throws {
        let markdown = """
            # A guide

            ```swift
            func answer() -> Int { 42 }
            func ask() async -> Int { await answer() }
            ```
            """
        let outcome = try await compileGuide(markdown, path: "docs/warning.md")
        #expect(!outcome.succeeded)
        #expect(outcome.output.contains(
            "docs/warning.md:5:27: error: no 'async' operations occur within 'await' expression"
        ), "\(outcome.output)")
    }

    /// Compiles the blocks of `markdown` as the check compiles a guide at `path`.
    func compileGuide(_ markdown: String, path: String) async throws -> SwiftCompiler.Outcome {
        let blocks = try DocBlockReader.blocks(in: markdown)
        let compiler = try SwiftCompiler.current(workingDirectory: Guides.root)
        let source = DocBlockReader.mainSwift(of: blocks, path: path)
        return try await inProcessSlot { try compiler.compile(source) }
    }

    @Test("A safe provider's closure belongs to no actor: one that touches the main actor's state does not compile", arguments: [
        "ServiceSafeProvider<Int>(mode: .many) { Screen.shown += 1; return Screen.shown }",
        "ServiceParamsSafeProvider<Int, Int> { step in Screen.shown += step; return Screen.shown }",
    ])
    func safeProviderClosureIsSending(provider: String) async throws {
        let source = """
            import ServiceContainerKit

            @MainActor enum Screen { static var shown = 0 }

            @MainActor func makeCounter() -> Any {
                \(provider)
            }
            """
        let compiler = try SwiftCompiler.current(workingDirectory: Guides.root)
        let outcome = try await inProcessSlot { try compiler.compile(source) }
        #expect(!outcome.succeeded)
        #expect(outcome.output.contains(
            "error: main actor-isolated static property 'shown' can not be mutated from a nonisolated context"
        ), "\(outcome.output)")
    }

    @Test("A block marked main-actor is compiled with the main actor as its module's default isolation")
    func mainActorModule() async throws {
        // A function of such a module is isolated to the main actor, so it may call one that is.
        let source = """
            @MainActor func render() {}
            func refresh() { render() }
            """
        let compiler = try SwiftCompiler.current(workingDirectory: Guides.root)
        let mainActor = try await inProcessSlot { try compiler.compile(source, mainActorByDefault: true) }
        #expect(mainActor.succeeded, "\(mainActor.output)")
        let plain = try await inProcessSlot { try compiler.compile(source) }
        #expect(!plain.succeeded)
        #expect(plain.output.contains(
            "call to main actor-isolated global function 'render()' in a synchronous nonisolated context"
        ), "\(plain.output)")
    }

    @Test("A block marked stand-in imports the stand-in module, which clashes with ServiceContainerKit as swift-log does")
    func standInModule() async throws {
        let compiler = try SwiftCompiler.current(workingDirectory: Guides.root)
        let qualified = try await inProcessSlot {
            try compiler.compile(
                """
                import Logging
                import ServiceContainerKit

                let log = Logging.Logger(label: "tests")
                log.error("\\(ServiceObtainError.self)", metadata: ["service": "\\(Int.self)"])
                let logger: (any ServiceContainerKit.Logger)? = nil
                """,
                standIn: "Logging"
            )
        }
        #expect(qualified.succeeded, "\(qualified.output)")

        let bare = try await inProcessSlot {
            try compiler.compile(
                "import Logging\nimport ServiceContainerKit\nlet logger: (any Logger)? = nil\n", standIn: "Logging"
            )
        }
        #expect(!bare.succeeded)
        #expect(bare.output.contains("'Logger' is ambiguous for type lookup"), "\(bare.output)")
    }

    @Test("A stand-in that imports other stand-ins is built after them, and a block can import them too")
    func standInWithDependencies() async throws {
        #expect(StandInModules.buildOrder(of: "ServiceLifecycle") == ["Logging", "UnixSignals", "ServiceLifecycle"])
        #expect(StandInModules.buildOrder(of: "Logging") == ["Logging"])
        let compiler = try SwiftCompiler.current(workingDirectory: Guides.root)
        let outcome = try await inProcessSlot {
            try compiler.compile(
                """
                import Logging
                import ServiceLifecycle

                let configuration = ServiceGroupConfiguration(
                    services: [], gracefulShutdownSignals: [.sigterm], logger: Logger(label: "tests")
                )
                """,
                standIn: "ServiceLifecycle"
            )
        }
        #expect(outcome.succeeded, "\(outcome.output)")
    }

    /// The line and column of the first error the compiler reported in `path`.
    func firstError(in output: String, path: String) -> (Int, Int)? {
        for line in output.split(separator: "\n") where line.hasPrefix(path + ":") && line.contains(": error: ") {
            let numbers = line.dropFirst(path.count + 1).split(separator: ":").prefix(2).compactMap { Int($0) }
            if numbers.count == 2 {
                return (numbers[0], numbers[1])
            }
        }
        return nil
    }
}

@Suite("Reading the Swift blocks of markdown")
struct DocBlockReaderTests {
    @Test("Swift blocks are read with the line of their first line of code; other blocks are not")
    func readsSwiftBlocks() throws {
        let markdown = """
            Text.

            ```bash
            swift test
            ```

            ````markdown
            ```swift
            let shown = "inside another block"
            ```
            ````

            1. A step:

               ```swift
               let a = 1
                 let b = 2
               ```
            ```Swift title
            let c = 3
            ```
            """
        let blocks = try DocBlockReader.blocks(in: markdown)
        #expect(blocks == [
            DocBlock(line: 16, code: "let a = 1\n  let b = 2", check: .compile),
            DocBlock(line: 20, code: "let c = 3", check: .compile),
        ])
    }

    @Test("Markers before a block say how it is checked")
    func markers() throws {
        let markdown = """
            <!-- doc-check: skip a fragment of Package.swift -->
            ```swift
            .product(name: "ServiceInjects", package: "ServiceContainerKit"),
            ```
            <!-- doc-check: fails "missing argument for parameter 'key'" -->

            ```swift
            locator.addService(provider: provider)
            ```
            <!-- doc-check: alone -->
            ```swift
            let alternative = 1
            ```
            <!-- doc-check: stand-in Logging needs the swift-log package -->
            ```swift
            import Logging
            ```
            <!-- doc-check: main-actor an app module -->
            ```swift
            let app = 1
            ```
            """
        let blocks = try DocBlockReader.blocks(in: markdown)
        #expect(blocks.map(\.check) == [
            .skip, .fails("missing argument for parameter 'key'"), .alone, .standIn("Logging"), .mainActor,
        ])
        #expect(blocks.map(\.line) == [3, 8, 12, 16, 20])
    }

    @Test("A marker the reader does not know, or one without its block, is an error", arguments: [
        ("<!-- doc-check: skipped -->\n```swift\nlet a = 1\n```", 1, "unknown doc-check marker"),
        ("<!-- doc-check: fails missing quotes -->\n```swift\nlet a = 1\n```", 1, "unknown doc-check marker"),
        ("<!-- doc-check: stand-in -->\n```swift\nlet a = 1\n```", 1, "unknown doc-check marker"),
        ("<!-- doc-check: stand-in Loging swift-log -->\n```swift\nlet a = 1\n```", 1, "no stand-in of module 'Loging'"),
        ("<!-- doc-check: skip\n-->\n```swift\nlet a = 1\n```", 1, "must end on its line"),
        ("<!-- doc-check: skip -->\nSome text.\n```swift\nlet a = 1\n```", 1, "not followed by a ```swift block"),
        ("<!-- doc-check: skip -->\n```bash\nswift test\n```", 1, "not followed by a ```swift block"),
        ("<!-- doc-check: skip -->\n<!-- doc-check: skip -->\n```swift\nlet a = 1\n```", 1, "not followed"),
        ("Text\n<!-- doc-check: skip -->", 2, "not followed by a ```swift block"),
        ("```swift\nlet a = 1\n", 1, "never closed"),
    ])
    func markupErrors(markdown: String, line: Int, message: String) {
        let error = #expect(throws: DocMarkupError.self) { try DocBlockReader.blocks(in: markdown) }
        #expect(error?.line == line)
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("The main.swift of a guide maps each block to its lines in the guide")
    func mainSwift() {
        let source = DocBlockReader.mainSwift(
            of: [DocBlock(line: 4, code: "let a = 1", check: .compile), DocBlock(line: 9, code: "print(a)", check: .compile)],
            path: "docs/guide.md"
        )
        #expect(source == """
            #sourceLocation(file: "docs/guide.md", line: 4)
            let a = 1
            #sourceLocation(file: "docs/guide.md", line: 9)
            print(a)
            #sourceLocation()

            """)
    }
}
