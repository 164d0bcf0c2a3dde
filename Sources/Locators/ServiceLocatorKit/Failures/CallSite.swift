/// The caller's file and line (`#fileID`, `#line`), named by the assertion of a refused change.
package struct CallSite: Sendable {
    package let file: StaticString
    package let line: UInt

    package init(file: StaticString, line: UInt) {
        self.file = file
        self.line = line
    }
}
