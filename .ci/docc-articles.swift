// Writes the guides of docs/ into the DocC catalogs as articles, so that each guide has one source
// (docs/<name>.md) and reads the same on a repository page and in the documentation.
//
//     swift .ci/docc-articles.swift            writes the articles into the catalogs of Sources/
//     swift .ci/docc-articles.swift --check    fails, naming each file, when a catalog's articles
//                                              are not what docs/ gives (.ci/build-docs and
//                                              DocsTests run it)
//
// Each guide is an article of one catalog only, the catalog of the product it documents:
// `catalogOfGuide` below says which, and a guide of docs/ missing from it stops the script (a new
// guide needs its place decided). A catalog holds only its own guides; an article of another
// guide found in it is removed (reported by --check).
//
// Article `<name>` is docs/<name>.md with its links between guides rewritten:
// - to a guide of the same catalog, `[text](other.md)` becomes the DocC link `[text](doc:other)`,
//   and a heading anchor (`other.md#some-heading`, `#some-heading`) becomes the fragment DocC
//   gives that heading;
// - to a guide of another catalog, the link becomes plain text naming where the guide is:
//   `[the testing guide](testing.md)` becomes `the testing guide (in the documentation of
//   `ServiceInjectsTesting`)`, and with an anchor `the testing guide (section *Some heading*, in
//   the documentation of `ServiceInjectsTesting`)`. Each catalog is built into an archive of its
//   own, and docc resolves `doc:` links within one archive only, so a link across catalogs
//   would be a broken link. Such a link must be written on one line, and reads best when its
//   text names the guide and it stands outside parentheses.
// Web links stay as they are, and so do links to the images of docs/ (`.svg`, `.png`), which are
// copied into the catalog of each guide that shows them. Any other relative link (to a source
// file, to the README) has no page in the documentation, so it stops the script with the guide,
// the line and the link. docs/README.md, the index of docs/ on a repository page, is not an
// article.
//
// A catalog's landing page (`<Module>.md`) is written by hand. It must list each of its own guides
// on a line `- <doc:name>` (its Topics), and must not link a guide of another catalog with
// `doc:`; the script checks both, in both modes.
//
// The articles are committed, so that a catalog is complete in a fresh clone (for Xcode, or docc
// run by hand). They are generated rather than linked: a symbolic link would give docc the
// guides as written, whose links are repository links (`core.md`), not DocC links. Each article
// ends with a comment that names its guide; the images of a catalog are copies of docs/'s.
import Foundation

struct Guide {
    let name: String
    /// The module whose catalog holds the guide's article.
    let catalog: String
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

/// The catalog of each guide of docs/, named by its module: the product the guide documents. The
/// guides about the whole package (diagnostics, migration, benchmarks) are ServiceContainerKit's,
/// the product every other one is built on; the locators guide, about both locators, is
/// ServiceLocatorKit's, so ServiceEasyLocatorKit's catalog holds no guide.
let catalogOfGuide: [String: String] = [
    "core": "ServiceContainerKit",
    "concurrency": "ServiceContainerKit",
    "diagnostics": "ServiceContainerKit",
    "server": "ServiceContainerKit",
    "migration": "ServiceContainerKit",
    "benchmarks": "ServiceContainerKit",
    "injects": "ServiceInjects",
    "testing": "ServiceInjectsTesting",
    "locators": "ServiceLocatorKit",
    "objc-bridge": "ServiceContainerKitObjC",
]

/// The images of docs/ that guides may show, copied into the catalogs of the guides that show them.
let imageExtensions = [".svg", ".png"]

/// What a link of a guide becomes in its article.
enum Rewrite {
    /// The link stays a link, to this destination.
    case link(String)
    /// The link becomes its text followed by this, in plain text.
    case plainText(String)
}

/// How a link to `destination` in guide `from` is written in its article.
func rewrite(_ destination: String, from: Guide, guides: [String: Guide]) throws -> Rewrite {
    if destination.hasPrefix("https://") || destination.hasPrefix("http://") || destination.hasPrefix("mailto:") {
        return .link(destination)
    }
    if imageExtensions.contains(where: destination.hasSuffix), !destination.contains("/") {
        return .link(destination)
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
    var heading: String?
    if let anchor {
        guard let found = target.headings.first(where: { repositoryAnchor($0) == anchor }) else {
            throw LinkError(description: "links to '\(destination)', but \(target.name).md has no heading with that anchor")
        }
        heading = found
    }
    guard target.catalog == from.catalog else {
        let section = heading.map { "section *\($0)*, " } ?? ""
        return .plainText(" (\(section)in the documentation of `\(target.catalog)`)")
    }
    return .link("doc:\(target.name)" + (heading.map { "#" + doccFragment($0) } ?? ""))
}

/// The guide with its links rewritten, and the images it shows.
func article(from guide: Guide, guides: [String: Guide]) throws -> (text: String, images: Set<String>) {
    let link = try Regex(#"\]\(([^)\s]+)\)"#)
    var inFence = false
    var output: [String] = []
    var images: Set<String> = []
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
                switch try rewrite(destination, from: guide, guides: guides) {
                case .link(let target):
                    if imageExtensions.contains(where: target.hasSuffix), !target.contains(":") { images.insert(target) }
                    converted += "](" + target + ")"
                case .plainText(let suffix):
                    converted = try unlinked(converted, destination: destination) + suffix
                }
            } catch let error as LinkError {
                throw LinkError(description: "docs/\(guide.name).md:\(index + 1): \(error.description)")
            }
            rest = rest[match.range.upperBound...]
        }
        output.append(converted + rest)
    }
    return (output.joined(separator: "\n"), images)
}

/// `text`, which ends with the text of a link (`... [link text`), without the link's opening
/// bracket: the link text becomes plain text.
func unlinked(_ text: String, destination: String) throws -> String {
    var depth = 0
    var index = text.endIndex
    while index > text.startIndex {
        index = text.index(before: index)
        if text[index] == "]" {
            depth += 1
        } else if text[index] == "[" {
            if depth > 0 {
                depth -= 1
                continue
            }
            if index > text.startIndex, text[text.index(before: index)] == "!" { break }
            return String(text[..<index]) + text[text.index(after: index)...]
        }
    }
    throw LinkError(description: "links to '\(destination)', a guide of another catalog, which becomes plain text: write the whole link on one line, and not as an image")
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

/// `url` relative to the repository, for messages.
func relative(_ url: URL) -> String {
    url.path.hasPrefix(root.path + "/") ? String(url.path.dropFirst(root.path.count + 1)) : url.path
}

/// The module a catalog documents: `<Module>.docc`.
func module(of catalog: URL) -> String {
    catalog.deletingPathExtension().lastPathComponent
}

/// What is wrong with the landing page of `catalog` (`<Module>.md`): a guide of its own that it
/// does not list as `- <doc:name>`, or a `doc:` link to a guide of another catalog.
func landingPageProblems(catalog: URL, guides: [String: Guide]) throws -> [String] {
    let file = catalog.appendingPathComponent(module(of: catalog) + ".md")
    let page = relative(file)
    guard let data = FileManager.default.contents(atPath: file.path) else {
        return ["\(page) is missing: every catalog has a landing page"]
    }
    let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
    var problems: [String] = []
    for guide in guides.values.sorted(by: { $0.name < $1.name }) where guide.catalog == module(of: catalog) {
        if !lines.contains(where: { $0.trimmingCharacters(in: .whitespaces) == "- <doc:\(guide.name)>" }) {
            problems.append("\(page) does not list its guide \(guide.name) as a line `- <doc:\(guide.name)>`")
        }
    }
    let docLink = try Regex(#"doc:([A-Za-z0-9_-]+)"#)
    for (index, line) in lines.enumerated() {
        for match in line.matches(of: docLink) {
            guard let name = match.output[1].substring.map(String.init), let guide = guides[name],
                  guide.catalog != module(of: catalog) else { continue }
            problems.append(
                "\(page):\(index + 1): links to \(name) with doc:, but that guide is in the catalog of "
                    + "\(guide.catalog): name it in plain text"
            )
        }
    }
    return problems
}

/// What differs between a catalog and what docs/ gives it, as `(file, what)`; with `write`, each
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
    // Articles and images that are not, or no longer, this catalog's.
    for name in try manager.contentsOfDirectory(atPath: catalog.path).sorted() where expected[name] == nil {
        let file = catalog.appendingPathComponent(name)
        let isImage = imageExtensions.contains(where: name.hasSuffix)
        let isArticle = name.hasSuffix(".md")
            && String(decoding: manager.contents(atPath: file.path) ?? Data(), as: UTF8.self).contains(generatedNotePrefix)
        guard isImage || isArticle else { continue }
        differences.append((file.path, isImage ? "is shown by no guide of this catalog" : "is not the article of a guide of this catalog"))
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
    let found = try catalogs(under: root.appendingPathComponent("Sources"))
    guard !found.isEmpty else {
        throw LinkError(description: "no DocC catalog (*.docc) under \(root.appendingPathComponent("Sources").path)")
    }
    let modules = Set(found.map(module(of:)))
    let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).sorted()
    var guides: [String: Guide] = [:]
    for file in names where file.hasSuffix(".md") && file != "README.md" {
        let name = String(file.dropLast(3))
        guard let catalog = catalogOfGuide[name] else {
            throw LinkError(description: "docs/\(file) is in no catalog: add it to `catalogOfGuide` in .ci/docc-articles.swift")
        }
        guard modules.contains(catalog) else {
            throw LinkError(description: "docs/\(file) goes to the catalog of \(catalog), but Sources/ has no \(catalog).docc")
        }
        let text = try String(contentsOf: docs.appendingPathComponent(file), encoding: .utf8)
        guides[name] = Guide(name: name, catalog: catalog, lines: text.components(separatedBy: "\n"))
    }
    for name in catalogOfGuide.keys.sorted() where guides[name] == nil {
        throw LinkError(description: "`catalogOfGuide` in .ci/docc-articles.swift names \(name), which docs/ does not have")
    }
    // The articles and images of each catalog, by module.
    var articles: [String: [String: Data]] = [:]
    var images: [String: [String: Data]] = [:]
    for guide in guides.values.sorted(by: { $0.name < $1.name }) {
        var (text, shown) = try article(from: guide, guides: guides)
        if !text.hasSuffix("\n") { text += "\n" }
        articles[guide.catalog, default: [:]][guide.name + ".md"] = Data((text + "\n" + generatedNote(guide.name) + "\n").utf8)
        for image in shown {
            guard let data = FileManager.default.contents(atPath: docs.appendingPathComponent(image).path) else {
                throw LinkError(description: "docs/\(guide.name).md shows \(image), which docs/ does not have")
            }
            images[guide.catalog, default: [:]][image] = data
        }
    }
    var problems: [String] = []
    for catalog in found {
        problems += try landingPageProblems(catalog: catalog, guides: guides)
    }
    guard problems.isEmpty else {
        throw LinkError(description: "the landing pages do not fit their guides:\n  " + problems.joined(separator: "\n  "))
    }
    // Every catalog is compared first, so that a refused file stops the script before it has
    // written anything.
    var differences: [(String, String)] = []
    for catalog in found {
        let module = module(of: catalog)
        differences += try sync(catalog: catalog, articles: articles[module] ?? [:], images: images[module] ?? [:], write: false)
    }
    if !check {
        for catalog in found {
            let module = module(of: catalog)
            _ = try sync(catalog: catalog, articles: articles[module] ?? [:], images: images[module] ?? [:], write: true)
        }
    }
    if check, !differences.isEmpty {
        var message = "error: the articles of the DocC catalogs are not what docs/ gives:\n"
        for (file, what) in differences {
            message += "  \(relative(URL(fileURLWithPath: file))) \(what)\n"
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
