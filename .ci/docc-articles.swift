// Writes the guides of docs/ into the DocC catalogs as articles, so that each guide has one source
// (docs/<name>.md) and reads the same on a repository page and in the documentation.
//
//     swift .ci/docc-articles.swift            writes the articles into every catalog of Sources/
//     swift .ci/docc-articles.swift --check    fails, naming each file, when a catalog's articles
//                                              are not what docs/ gives (.ci/build-docs and
//                                              DocsTests run it)
//
// Article `<name>` is docs/<name>.md with its links between guides turned into DocC links:
// `[text](other.md)` becomes `[text](doc:other)`, and a heading anchor (`other.md#some-heading`,
// `#some-heading`) becomes the fragment DocC gives that heading. Web links stay as they are, and
// so do links to the images of docs/ (`.svg`, `.png`), which are copied into every catalog. Any
// other relative link (to a source file, to the README) has no page in the documentation, so it
// stops the script with the guide, the line and the link. docs/README.md, the index of docs/ on
// a repository page, is not an article: each landing page lists the guides itself.
//
// The articles are committed, so that a catalog is complete in a fresh clone (for Xcode, or docc
// run by hand). They are generated rather than linked: a symbolic link would give docc the
// guides as written, whose links are repository links (`core.md`), not DocC links. Each article
// ends with a comment that names its guide; the images of a catalog are all copies of docs/'s.
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

/// The comment that ends every article: an HTML comment, which DocC does not show (at the
/// top it would hide the title).
func generatedNote(_ guide: String) -> String {
    "<!-- Generated from docs/\(guide).md by .ci/docc-articles.swift: edit docs/\(guide).md, "
        + "then run `swift .ci/docc-articles.swift`. -->"
}

let generatedNotePrefix = "<!-- Generated from docs/"

/// The catalogs of the package: every `*.docc` directory under Sources/, sorted.
func catalogs(under sources: URL) throws -> [URL] {
    guard let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
        throw LinkError(description: "cannot list \(sources.path)")
    }
    var found: [URL] = []
    for case let url as URL in walk where url.pathExtension == "docc" {
        found.append(url)
        walk.skipDescendants()
    }
    return found.sorted { $0.path < $1.path }
}

/// What differs between a catalog and what docs/ gives, as `(file, what)`; with `write`, each
/// difference is also fixed.
func sync(catalog: URL, articles: [String: Data], images: [String: Data], write: Bool) throws -> [(String, String)] {
    let manager = FileManager.default
    var differences: [(String, String)] = []
    let expected = articles.merging(images) { first, _ in first }
    for (name, content) in expected.sorted(by: { $0.key < $1.key }) {
        let file = catalog.appendingPathComponent(name)
        let current = manager.contents(atPath: file.path)
        guard current != content else { continue }
        // A file of the catalog's own (its landing page) that a guide or an image of docs/ is
        // named like is never written over.
        if let current, name.hasSuffix(".md"), !String(decoding: current, as: UTF8.self).contains(generatedNotePrefix) {
            throw LinkError(description: "docs/\(name) has the name of \(file.path), which is not an article written from docs/: rename the guide")
        }
        differences.append((file.path, current == nil ? "is missing" : "is not what docs/ gives"))
        if write { try content.write(to: file) }
    }
    // What is left of guides and images that docs/ no longer has.
    for name in try manager.contentsOfDirectory(atPath: catalog.path).sorted() where expected[name] == nil {
        let file = catalog.appendingPathComponent(name)
        let isImage = imageExtensions.contains(where: name.hasSuffix)
        let isArticle = name.hasSuffix(".md")
            && String(decoding: manager.contents(atPath: file.path) ?? Data(), as: UTF8.self).contains(generatedNotePrefix)
        guard isImage || isArticle else { continue }
        differences.append((file.path, "comes from no file of docs/"))
        if write { try manager.removeItem(at: file) }
    }
    return differences
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.isEmpty || arguments == ["--check"] else {
    FileHandle.standardError.write(Data("usage: swift .ci/docc-articles.swift [--check]\n".utf8))
    exit(2)
}
let check = arguments == ["--check"]
// The repository: this script is .ci/docc-articles.swift in it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let docs = root.appendingPathComponent("docs")
do {
    let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).sorted()
    var guides: [String: Guide] = [:]
    for file in names where file.hasSuffix(".md") && file != "README.md" {
        let text = try String(contentsOf: docs.appendingPathComponent(file), encoding: .utf8)
        let name = String(file.dropLast(3))
        guides[name] = Guide(name: name, lines: text.components(separatedBy: "\n"))
    }
    var articles: [String: Data] = [:]
    for guide in guides.values {
        var text = try article(from: guide, guides: guides)
        if !text.hasSuffix("\n") { text += "\n" }
        articles[guide.name + ".md"] = Data((text + "\n" + generatedNote(guide.name) + "\n").utf8)
    }
    var images: [String: Data] = [:]
    for name in names where imageExtensions.contains(where: name.hasSuffix) {
        images[name] = try Data(contentsOf: docs.appendingPathComponent(name))
    }
    let found = try catalogs(under: root.appendingPathComponent("Sources"))
    guard !found.isEmpty else {
        throw LinkError(description: "no DocC catalog (*.docc) under \(root.appendingPathComponent("Sources").path)")
    }
    // Every catalog is compared first, so that a refused file stops the script before it has
    // written anything.
    var differences: [(String, String)] = []
    for catalog in found {
        differences += try sync(catalog: catalog, articles: articles, images: images, write: false)
    }
    if !check {
        for catalog in found {
            _ = try sync(catalog: catalog, articles: articles, images: images, write: true)
        }
    }
    if check, !differences.isEmpty {
        var message = "error: the articles of the DocC catalogs are not what docs/ gives:\n"
        for (file, what) in differences {
            let relative = file.hasPrefix(root.path + "/") ? String(file.dropFirst(root.path.count + 1)) : file
            message += "  \(relative) \(what)\n"
        }
        message += "The guides are written in docs/ only. Run `swift .ci/docc-articles.swift` to write the "
            + "articles again, and commit them.\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(1)
    }
    if !check {
        print("\(differences.count) file(s) of \(found.count) catalogs written or removed")
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
