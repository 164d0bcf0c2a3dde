// docs/diagnostics.md shows the validation of the README's container: its report, its graph as
// DOT (drawn to docs/diagnostics-graph.svg by .ci/render-graph) and as Mermaid. These tests run
// the program that prints them, DiagnosticsExample, and check that the guide shows what it prints.
import Foundation
import Testing
import TestSupport

@Suite("docs/diagnostics.md against DiagnosticsExample")
struct DiagnosticsExampleTests {
    /// What `DiagnosticsExample` prints with `arguments`.
    func exampleOutput(_ arguments: [String]) throws -> String {
        let modules = try #require(SwiftCompiler.productModules(), "run the tests with `swift test`")
        // The build's products directory holds `Modules` and the executables.
        let directory = modules.lastPathComponent == "Modules" ? modules.deletingLastPathComponent() : modules
        let process = Process()
        process.executableURL = directory.appendingPathComponent("DiagnosticsExample")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    func guide(_ path: String) throws -> String {
        try String(contentsOf: Guides.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("docs/diagnostics-graph.dot is the DOT source the example prints (.ci/render-graph writes it)", .offThePool)
    func dotSource() throws {
        #expect(try exampleOutput(["dot"]) == guide("docs/diagnostics-graph.dot"))
    }

    @Test("docs/diagnostics-graph.svg is Graphviz's drawing of the committed DOT source")
    func svgDrawsTheDotSource() throws {
        let dot = try guide("docs/diagnostics-graph.dot")
        let svg = try guide("docs/diagnostics-graph.svg")
        // Graphviz titles each node and edge with its DOT name, and writes each line of a label
        // as a text element.
        let node = try Regex(#"^ *(n\d+) \[label="([^"]*)""#)
        let edge = try Regex(#"^ *(n\d+) -> (n\d+);"#)
        func drawn(_ fragment: String) -> Bool { svg.contains(fragment) }
        var titles = 1  // the graph's own
        for line in dot.split(separator: "\n").map(String.init) {
            if let match = line.firstMatch(of: node), let name = match[1].substring, let label = match[2].substring {
                titles += 1
                #expect(drawn("<title>\(name)</title>"), "node \(name) is not drawn")
                for text in label.components(separatedBy: "\\n") {
                    #expect(drawn(">\(Self.xmlEscaped(text))</text>"), "label line \"\(text)\" is not drawn")
                }
            } else if let match = line.firstMatch(of: edge), let from = match[1].substring, let to = match[2].substring {
                titles += 1
                #expect(drawn("<title>\(from)&#45;&gt;\(to)</title>"), "edge \(from) -> \(to) is not drawn")
            }
        }
        #expect(titles > 1)
        let drawnTitles = svg.components(separatedBy: "<title>").count - 1
        #expect(drawnTitles == titles, "the drawing has nodes or edges the DOT source lacks: run .ci/render-graph")
    }

    static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    @Test("The guide's Mermaid block is the flowchart the example prints", .offThePool)
    func mermaidBlock() throws {
        let flowchart = try exampleOutput(["mermaid"])
        #expect(flowchart.hasPrefix("flowchart LR\n"))
        #expect(try guide("docs/diagnostics.md").contains("```mermaid\n" + flowchart + "```\n"))
    }

    @Test("The guide shows the example's report, line for line but for the times and its module's name", .offThePool)
    func report() throws {
        let printed = try exampleOutput([]).replacingOccurrences(of: "DiagnosticsExample.", with: "App.")
        #expect(printed.hasPrefix("Valid: 4 providers made, 0 failed, 1 skipped\n"))
        let guide = try guide("docs/diagnostics.md")
        let shown = try #require(
            guide.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "```").first
        )
        #expect(try Self.withoutTimes(printed) == Self.withoutTimes(shown))
    }

    /// The lines of a report without their times; the lines that had one (the creation times,
    /// whose order the times decide) sorted.
    static func withoutTimes(_ report: String) throws -> [String] {
        let time = try Regex(#" +\d+\.\d{3} ms$"#)
        let lines = report.split(separator: "\n").map(String.init)
        let timed = lines.filter { $0.contains(time) }.map { $0.replacing(time, with: "") }.sorted()
        return lines.filter { !$0.contains(time) } + timed
    }

    @Test("The example's container is the README's, word for word")
    func readmeContainer() throws {
        let blocks = try DocBlockReader.blocks(in: guide("README.md")).map(\.code)
        let example = try String(
            contentsOf: Guides.root.appendingPathComponent("Examples/DiagnosticsExample/ReadmeServices.swift"),
            encoding: .utf8
        )
        let factories = try #require(blocks.first { $0.contains("struct SettingsFactory") })
        let container = try #require(blocks.first { $0.contains("struct Services {") })
        #expect(example.contains(factories))
        #expect(example.contains(container))
        // The guide repeats it, so that its blocks compile on their own.
        let guideBlocks = try DocBlockReader.blocks(in: guide("docs/diagnostics.md")).map(\.code)
        #expect(guideBlocks.first == factories + "\n\n" + container)
    }
}
