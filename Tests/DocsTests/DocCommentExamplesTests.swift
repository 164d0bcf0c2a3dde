// Every ```swift block of a `///` doc comment in the products' sources, type-checked against the
// products of this build, as the guides' blocks are (DocsCompileTests). The examples are
// fragments: they use names (`locator`, `provider`, `Services`, ...) that a module's context,
// Tests/DocsTests/DocCommentContexts/<Module>.swift, declares. How to add one: docs/README.md.
import Foundation
import Testing

/// A product module whose doc comments are checked, and its sources.
enum DocCommentModule: String, CaseIterable, Sendable {
    case serviceContainerKit = "ServiceContainerKit"
    case serviceInjects = "ServiceInjects"
    case serviceInjectsTesting = "ServiceInjectsTesting"
    case serviceLocatorKit = "ServiceLocatorKit"
    case serviceEasyLocatorKit = "ServiceEasyLocatorKit"
    case serviceContainerKitObjC = "ServiceContainerKitObjC"

    /// The module's source folder, relative to the package.
    var folder: String {
        switch self {
        case .serviceContainerKit: "Sources/Core"
        case .serviceInjects: "Sources/Injects"
        case .serviceInjectsTesting: "Sources/InjectsTesting"
        case .serviceLocatorKit: "Sources/Locators/ServiceLocatorKit"
        case .serviceEasyLocatorKit: "Sources/Locators/ServiceEasyLocatorKit"
        case .serviceContainerKitObjC: "Sources/ObjCBridge"
        }
    }

    /// The names the module's examples use, relative to the package.
    var context: String { "Tests/DocsTests/DocCommentContexts/\(rawValue).swift" }

    /// The module's `.swift` files (not those of its `.docc` catalog), relative to the package, sorted.
    var sources: [String] {
        let root = Guides.root.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") && !$0.contains(".docc/") }.sorted().map { "\(folder)/\($0)" }
    }
}

/// A ```swift block of a `///` doc comment.
struct DocCommentExample: Equatable, Sendable {
    /// The source file, relative to the package.
    let path: String
    /// The line of the file that holds the block's first line of code (1-based).
    let line: Int
    let code: String

    /// The example declares what only a file may hold (an `extension`, a `protocol`, an
    /// `import`, `@main`, a `@Test` or `@Suite`, a global isolated to a global actor), so it is
    /// placed at file scope, not in a function.
    var isFileScope: Bool {
        code.split(separator: "\n").contains { line in
            let text = line.drop { $0 == " " }
            return text.starts(with: "import ") || text.starts(with: "@main") || text.starts(with: "@Test")
                || text.starts(with: "@Suite")
                || text.wholeMatch(of: #/(@\w+(\(.*\))?\s+)*((public|package|internal|fileprivate|private|nonisolated)\s+)*(extension|protocol)\s.*/#) != nil
                || line.prefixMatch(of: #/@\w*Actor\s+(let|var)\s/#) != nil
        }
    }
}

enum DocCommentReader {
    /// The ```swift blocks of the `///` comments of `text`, the source file at `path`: each line
    /// without its `///` and the one space after it. A block still open where its comment ends
    /// is an error, at the line of its fence.
    static func examples(in text: String, path: String) throws(DocMarkupError) -> [DocCommentExample] {
        var examples: [DocCommentExample] = []
        var open: (line: Int, code: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("///") else {
                if let open {
                    throw DocMarkupError(line: open.line - 1, message: "the ```swift block opened here is never closed")
                }
                continue
            }
            var content = trimmed.dropFirst(3)
            if content.first == " " {
                content = content.dropFirst()
            }
            let fence = content.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if fence == "```" {
                    examples.append(DocCommentExample(path: path, line: block.line, code: block.code.joined(separator: "\n")))
                    open = nil
                } else {
                    block.code.append(String(content))
                    open = block
                }
            } else if fence.hasPrefix("```") {
                let info = fence.dropFirst(3).split(separator: " ").first?.lowercased()
                if info == "swift" {
                    open = (index + 2, [])
                } else if info != nil {
                    throw DocMarkupError(
                        line: index + 1,
                        message: "a code block of a doc comment must be ```swift: the check compiles each one"
                    )
                }
            }
        }
        if let open {
            throw DocMarkupError(line: open.line - 1, message: "the ```swift block opened here is never closed")
        }
        return examples
    }

    /// The one `main.swift` that checks `examples`: `context` (the text of the file at
    /// `contextPath`), then each example, at file scope or as the body of a function of its
    /// own, each line reported by the compiler as the line of its doc comment.
    static func mainSwift(of examples: [DocCommentExample], context: String, contextPath: String) -> String {
        var source = "#sourceLocation(file: \"\(contextPath)\", line: 1)\n\(context)\n#sourceLocation()\n"
        for (number, example) in examples.enumerated() {
            let located = "#sourceLocation(file: \"\(example.path)\", line: \(example.line))\n\(example.code)\n#sourceLocation()\n"
            if example.isFileScope {
                source += located
            } else {
                source += "@MainActor func example\(number + 1)() async throws { do {\n\(located)} }\n"
            }
        }
        return source
    }
}

/// One diagnostic of the compiler: its first line, the notes and source lines after it.
struct CompilerDiagnostic: Sendable {
    let path: String?
    let line: Int
    let column: Int
    let isError: Bool
    let text: String

    /// A warning that only says a name or a result is not used, or a `var` not mutated: an
    /// example shows `let settings = try provider.getService()` and stops there, and that is fine.
    var isAboutUnusedName: Bool {
        let message = text.prefix { $0 != "\n" }
        return !isError && ["[#no-usage]", "never mutated", "but never read"].contains { message.contains($0) }
    }

    /// The errors and warnings of `output`, in the compact `file:line:column: error: ...` style.
    static func all(in output: String) -> [CompilerDiagnostic] {
        let header = #/(?<path>[^:\n]+):(?<line>\d+):(?<column>\d+): (?<kind>error|warning): .*/#
        let pathless = #/<unknown>:0: (?<kind>error|warning): .*/#
        var found: [CompilerDiagnostic] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if let match = line.wholeMatch(of: header) {
                found.append(CompilerDiagnostic(
                    path: String(match.path), line: Int(match.line) ?? 1, column: Int(match.column) ?? 1,
                    isError: match.kind == "error", text: String(line)
                ))
            } else if let match = line.wholeMatch(of: pathless) {
                found.append(CompilerDiagnostic(path: nil, line: 1, column: 1, isError: match.kind == "error", text: String(line)))
            } else if let last = found.popLast() {
                found.append(CompilerDiagnostic(
                    path: last.path, line: last.line, column: last.column, isError: last.isError,
                    text: last.text + "\n" + line
                ))
            }
        }
        return found
    }
}

@Suite("Swift blocks of the doc comments")
struct DocCommentExamplesTests {
    // The file is compiled as a file of an app's module (`-parse-as-library`, not a main.swift,
    // whose globals would all be the main actor's), in this package (`-package-name`), so that
    // the examples of the package's own primitives see them. Only type-checked: about a second
    // per module. The compiler cannot leave out only the warnings about unused names (they are in
    // no diagnostic group that -Wwarning could keep), so the file is compiled without
    // -warnings-as-errors and the test fails on every warning but those itself.
    @Test("The examples of a module's doc comments type-check, with its context and without warnings",
          arguments: DocCommentModule.allCases)
    func examplesCompile(module: DocCommentModule) async throws {
        var examples: [DocCommentExample] = []
        for path in module.sources {
            let text = try String(contentsOf: Guides.root.appendingPathComponent(path), encoding: .utf8)
            do {
                examples += try DocCommentReader.examples(in: text, path: path)
            } catch {
                Issue.record("\(path):\(error)", sourceLocation: Guides.location(path, line: error.line))
            }
        }
        #expect(!examples.isEmpty, "no ```swift block in the doc comments of \(module.folder)")
        let context = try String(contentsOf: Guides.root.appendingPathComponent(module.context), encoding: .utf8)
        let source = DocCommentReader.mainSwift(of: examples, context: context, contextPath: module.context)
        let compiler = try SwiftCompiler.current(workingDirectory: Guides.root)
        let outcome = try await inProcessSlot {
            try compiler.compile(
                source, typecheckOnly: true, warningsAsErrors: false, asLibrary: true, packageName: Self.packageName
            )
        }
        let failures = CompilerDiagnostic.all(in: outcome.output).filter { !$0.isAboutUnusedName }
        for failure in failures {
            if let path = failure.path {
                Issue.record(Comment(rawValue: failure.text), sourceLocation: Guides.location(path, line: failure.line, column: failure.column))
            } else {
                Issue.record(Comment(rawValue: failure.text))
            }
        }
        if !outcome.succeeded && !failures.contains(where: \.isError) {
            Issue.record("the examples of \(module.folder) do not compile:\n\(outcome.output)")
        }
    }

    @Test("The ```swift blocks of `///` comments are read with the line of their first line of code")
    func readsExamples() throws {
        let text = """
            /// Text.
            ///
            /// ```swift
            /// let a = 1
            ///   let b = 2
            /// ```
            func f() {}
                /// ```swift
                ///extension Int {}
                /// ```
            /// ```swift
            /// @MainActor let shared = 1
            /// ```
            """
        let examples = try DocCommentReader.examples(in: text, path: "Sources/Core/F.swift")
        #expect(examples == [
            DocCommentExample(path: "Sources/Core/F.swift", line: 4, code: "let a = 1\n  let b = 2"),
            DocCommentExample(path: "Sources/Core/F.swift", line: 9, code: "extension Int {}"),
            DocCommentExample(path: "Sources/Core/F.swift", line: 12, code: "@MainActor let shared = 1"),
        ])
        #expect(examples.map(\.isFileScope) == [false, true, true])
        let error = #expect(throws: DocMarkupError.self) {
            try DocCommentReader.examples(in: "/// ```swift\n/// let a = 1\nfunc f() {}", path: "F.swift")
        }
        #expect(error?.line == 1)
    }

    /// The name SwiftPM gives the package in its build (`-package-name`): its identity (the
    /// lowercased name of its folder, without a `.git` suffix) as a C identifier, every
    /// character that cannot be in one replaced by `_`, and `_` before a leading digit.
    static let packageName = identifier(of: Guides.root.lastPathComponent)

    static func identifier(of folder: String) -> String {
        var identity = folder.lowercased()
        if identity.hasSuffix(".git") {
            identity.removeLast(4)
        }
        let mangled = String(identity.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        return mangled.first?.isNumber == true ? "_" + mangled : mangled
    }

    @Test("The package name is the folder's, as SwiftPM makes an identifier of it", arguments: [
        ("main", "main"), ("ci-clone", "ci_clone"), ("ServiceContainerKit", "servicecontainerkit"),
        ("sck.git", "sck"), ("1st.copy", "_1st_copy"),
    ])
    func packageNameOfFolder(folder: String, name: String) {
        #expect(Self.identifier(of: folder) == name)
    }
}
