import Foundation

/// A ```swift block of a markdown file, and what its marker asks of it.
struct DocBlock: Equatable, Sendable {
    /// What the check does with a block.
    enum Check: Equatable, Sendable {
        /// Compiled with the other blocks of its file, in order, as one `main.swift`.
        case compile
        /// `<!-- doc-check: skip REASON -->`: not compiled (a fragment shown on purpose).
        case skip
        /// `<!-- doc-check: alone REASON -->`: compiled on its own, not with the other blocks (an
        /// alternative to code shown before it, say).
        case alone
        /// `<!-- doc-check: fails "TEXT" -->`: compiled on its own; it must fail with an error
        /// whose message contains TEXT.
        case fails(String)
        /// `<!-- doc-check: stand-in MODULE REASON -->`: compiled on its own, with a stand-in of
        /// MODULE (a package the guides cannot depend on) to import: `StandInModules`.
        case standIn(String)
        /// `<!-- doc-check: main-actor REASON -->`: compiled on its own, in a module whose default
        /// isolation is the main actor (`-default-isolation MainActor`, as
        /// `.defaultIsolation(MainActor.self)` sets it).
        case mainActor
    }

    /// The line of the markdown file that holds the block's first line of code (1-based).
    let line: Int
    let code: String
    let check: Check
}

/// A mistake in the markers or fences of a markdown file.
struct DocMarkupError: Error, Equatable, CustomStringConvertible {
    let line: Int
    let message: String

    var description: String { "line \(line): \(message)" }
}

/// Reads the ```swift blocks out of markdown, with the markers written just before them.
///
/// A marker is an HTML comment (invisible where the markdown is rendered) on the last non-blank
/// line before a block's opening fence: `<!-- doc-check: skip REASON -->`,
/// `<!-- doc-check: alone REASON -->`, `<!-- doc-check: fails "TEXT" -->`,
/// `<!-- doc-check: stand-in MODULE REASON -->` or `<!-- doc-check: main-actor REASON -->`. A
/// marker that is not followed by a ```swift block, that the reader does not know, or that names
/// a module with no stand-in, is an error, so a typo cannot skip a block silently.
enum DocBlockReader {
    static let markerStart = "<!-- doc-check:"

    static func blocks(in markdown: String) throws(DocMarkupError) -> [DocBlock] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        var blocks: [DocBlock] = []
        var pending: (check: DocBlock.Check, line: Int)?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let fence = Fence(opening: line) {
                var end = index + 1
                while end < lines.count, !fence.isClosed(by: lines[end]) {
                    end += 1
                }
                guard end < lines.count else {
                    throw DocMarkupError(line: index + 1, message: "the code block opened here is never closed")
                }
                if fence.isSwift {
                    let code = lines[(index + 1)..<end].map(fence.dedent).joined(separator: "\n")
                    blocks.append(DocBlock(line: index + 2, code: code, check: pending?.check ?? .compile))
                } else if let pending {
                    throw DocMarkupError(line: pending.line, message: "the marker is not followed by a ```swift block")
                }
                pending = nil
                index = end + 1
                continue
            }
            if trimmed.hasPrefix(markerStart) {
                if let pending {
                    throw DocMarkupError(line: pending.line, message: "the marker is not followed by a ```swift block")
                }
                pending = (try check(ofMarker: trimmed, line: index + 1), index + 1)
            } else if !trimmed.isEmpty, let pending {
                throw DocMarkupError(line: pending.line, message: "the marker is not followed by a ```swift block")
            }
            index += 1
        }
        if let pending {
            throw DocMarkupError(line: pending.line, message: "the marker is not followed by a ```swift block")
        }
        return blocks
    }

    /// The check a marker line asks for.
    static func check(ofMarker text: String, line: Int) throws(DocMarkupError) -> DocBlock.Check {
        guard text.hasSuffix("-->") else {
            throw DocMarkupError(line: line, message: "a doc-check marker must end on its line with -->")
        }
        let body = text.dropFirst(markerStart.count).dropLast(3).trimmingCharacters(in: .whitespaces)
        if body == "skip" || body.hasPrefix("skip ") {
            return .skip
        }
        if body == "alone" || body.hasPrefix("alone ") {
            return .alone
        }
        if body == "main-actor" || body.hasPrefix("main-actor ") {
            return .mainActor
        }
        if body.hasPrefix("stand-in ") {
            let module = body.dropFirst("stand-in ".count).split(separator: " ").first.map(String.init) ?? ""
            guard StandInModules.sources[module] != nil else {
                let known = StandInModules.sources.keys.sorted().joined(separator: ", ")
                throw DocMarkupError(
                    line: line,
                    message: "no stand-in of module '\(module)' (Tests/DocsTests/StandInModules.swift has: \(known))"
                )
            }
            return .standIn(module)
        }
        if body.hasPrefix("fails ") {
            let quoted = body.dropFirst("fails ".count).trimmingCharacters(in: .whitespaces)
            if quoted.count > 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") {
                return .fails(String(quoted.dropFirst().dropLast()))
            }
        }
        throw DocMarkupError(
            line: line,
            message: "unknown doc-check marker '\(body)': use `skip REASON`, `alone REASON`, "
                + "`fails \"ERROR TEXT\"`, `stand-in MODULE REASON` or `main-actor REASON`"
        )
    }

    /// The `main.swift` of `blocks`: their code in order, each block's lines reported by the
    /// compiler as the lines of `path`.
    static func mainSwift(of blocks: [DocBlock], path: String) -> String {
        var source = ""
        for block in blocks {
            source += "#sourceLocation(file: \"\(path)\", line: \(block.line))\n"
            source += block.code + "\n"
        }
        source += "#sourceLocation()\n"
        return source
    }
}

/// An opening code fence (CommonMark: three or more backticks or tildes, maybe indented).
private struct Fence {
    let indent: Int
    let character: Character
    let length: Int
    let isSwift: Bool

    init?(opening line: String) {
        let indent = line.prefix { $0 == " " }.count
        let rest = line.dropFirst(indent)
        guard let first = rest.first, first == "`" || first == "~" else { return nil }
        let length = rest.prefix { $0 == first }.count
        guard length >= 3 else { return nil }
        let info = rest.dropFirst(length).trimmingCharacters(in: .whitespaces)
        if first == "`", info.contains("`") { return nil }
        self.indent = indent
        character = first
        self.length = length
        isSwift = info.split(separator: " ").first?.lowercased() == "swift"
    }

    func isClosed(by line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.count >= length && trimmed.allSatisfy { $0 == character }
    }

    /// `line` without the indentation of the fence, as the reader sees it.
    func dedent(_ line: String) -> String {
        let spaces = min(indent, line.prefix { $0 == " " }.count)
        return String(line.dropFirst(spaces))
    }
}
