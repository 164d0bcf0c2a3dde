// Writes the guides of docs/ into DocC catalogs as articles, so that each guide has one source
// (docs/<name>.md) and reads the same on a repository page and in the documentation.
//
//     swift .ci/docc-articles.swift <docs-directory> <catalog-directory>...
//
// Article `<name>` is docs/<name>.md with its links between guides turned into DocC links:
// `[text](other.md)` becomes `[text](doc:other)`, and a heading anchor (`other.md#some-heading`,
// `#some-heading`) becomes the fragment DocC gives that heading. Web links stay as they are, and
// so do links to the images of docs/ (`.svg`, `.png`), which are copied into every catalog. Any
// other relative link (to a source file, to the README) has no page in the documentation, so it
// stops the build with the guide, the line and the link.
import Foundation

struct Guide {
    let name: String
    let lines: [String]

    /// The text of each heading (`## Some heading` gives `Some heading`), outside code blocks.
    var headings: [String] {
        var inFence = false
        var result: [String] = []
        for line in lines {
            if line.hasPrefix("```") {
                inFence.toggle()
            } else if !inFence, line.hasPrefix("#") {
                result.append(String(line.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces))
            }
        }
        return result
    }
}

/// The anchor a repository page gives a heading: lower case, spaces to hyphens, and only
/// letters, digits, `-` and `_` kept.
func repositoryAnchor(_ heading: String) -> String {
    var anchor = ""
    for scalar in heading.lowercased().unicodeScalars {
        if scalar == " " {
            anchor.append("-")
        } else if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) {
            anchor.unicodeScalars.append(scalar)
        }
    }
    return anchor
}

/// The fragment DocC gives a heading: runs of spaces and dashes become one `-`, and
/// punctuation other than `-` is dropped.
func doccFragment(_ heading: String) -> String {
    let separators = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "-\u{2013}\u{2014}"))
    var fragment = heading.components(separatedBy: separators).filter { !$0.isEmpty }.joined(separator: "-")
    let dropped = CharacterSet.punctuationCharacters
        .union(CharacterSet(charactersIn: "`"))
        .subtracting(CharacterSet(charactersIn: "-"))
    fragment.unicodeScalars.removeAll { dropped.contains($0) }
    return fragment
}

struct LinkError: Error, CustomStringConvertible {
    let description: String
}

/// `destination` of a link in guide `from`, as a DocC destination.
func doccDestination(_ destination: String, from: Guide, guides: [String: Guide]) throws -> String {
    if destination.hasPrefix("https://") || destination.hasPrefix("http://") || destination.hasPrefix("mailto:") {
        return destination
    }
    if imageExtensions.contains(where: destination.hasSuffix), !destination.contains("/") {
        return destination
    }
    let parts = destination.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let file = String(parts[0])
    let anchor = parts.count > 1 ? String(parts[1]) : nil
    let target: Guide
    if file.isEmpty {
        target = from
    } else if file.hasSuffix(".md"), !file.contains("/"), let guide = guides[String(file.dropLast(3))] {
        target = guide
    } else {
        throw LinkError(description: "links to '\(destination)', which is not a guide in docs/ and has no page in the documentation")
    }
    guard let anchor else { return "doc:\(target.name)" }
    guard let heading = target.headings.first(where: { repositoryAnchor($0) == anchor }) else {
        throw LinkError(description: "links to '\(destination)', but \(target.name).md has no heading with that anchor")
    }
    return "doc:\(target.name)#\(doccFragment(heading))"
}

/// The images of docs/ that guides may show, copied into every catalog.
let imageExtensions = [".svg", ".png"]

/// The guide with its links turned into DocC links.
func article(from guide: Guide, guides: [String: Guide]) throws -> String {
    let link = try Regex(#"\]\(([^)\s]+)\)"#)
    var inFence = false
    var output: [String] = []
    for (index, line) in guide.lines.enumerated() {
        if line.hasPrefix("```") { inFence.toggle() }
        if inFence || line.hasPrefix("```") {
            output.append(line)
            continue
        }
        var converted = ""
        var rest = line[...]
        while let match = rest.firstMatch(of: link) {
            converted += rest[..<match.range.lowerBound]
            let destination = String(rest[match.range].dropFirst(2).dropLast())
            do {
                converted += "](" + (try doccDestination(destination, from: guide, guides: guides)) + ")"
            } catch let error as LinkError {
                throw LinkError(description: "docs/\(guide.name).md:\(index + 1): \(error.description)")
            }
            rest = rest[match.range.upperBound...]
        }
        output.append(converted + rest)
    }
    return output.joined(separator: "\n")
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: swift docc-articles.swift <docs-directory> <catalog-directory>...\n".utf8))
    exit(2)
}
let docs = arguments[0]
let catalogs = arguments.dropFirst()
do {
    let files = try FileManager.default.contentsOfDirectory(atPath: docs).filter { $0.hasSuffix(".md") }.sorted()
    var guides: [String: Guide] = [:]
    for file in files {
        let text = try String(contentsOfFile: docs + "/" + file, encoding: .utf8)
        let name = String(file.dropLast(3))
        guides[name] = Guide(name: name, lines: text.components(separatedBy: "\n"))
    }
    for image in try FileManager.default.contentsOfDirectory(atPath: docs).filter({ name in
        imageExtensions.contains(where: name.hasSuffix)
    }) {
        for catalog in catalogs {
            try FileManager.default.copyItem(atPath: docs + "/" + image, toPath: catalog + "/" + image)
        }
    }
    for guide in guides.values.sorted(by: { $0.name < $1.name }) {
        let text = try article(from: guide, guides: guides)
        for catalog in catalogs {
            let path = catalog + "/" + guide.name + ".md"
            if FileManager.default.fileExists(atPath: path) {
                throw LinkError(description: "\(path) exists already: a catalog must not hold a file named like a guide")
            }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
