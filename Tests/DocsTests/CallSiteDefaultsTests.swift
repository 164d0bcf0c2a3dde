import Foundation
import Testing

@Suite("The call sites that messages name")
struct CallSiteDefaultsTests {
    // In Swift 6 language mode `#file` is `#fileID`, so no message test could tell them apart:
    // only a client built in Swift 5 mode, whose `#file` is the full path of the file on the
    // machine that built it, would. The sources are read instead.
    @Test("A file parameter defaults to #fileID (App/File.swift), never to #file", arguments: DocCommentModule.allCases)
    func fileDefaultsToFileID(module: DocCommentModule) throws {
        var found: [String] = []
        for path in module.sources {
            let text = try String(contentsOf: Guides.root.appendingPathComponent(path), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("= #file,") || line.contains("= #file)") || line.hasSuffix("= #file") {
                found.append("\(path):\(index + 1)")
            }
        }
        #expect(found == [])
    }
}
