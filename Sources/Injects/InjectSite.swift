/// Where a property wrapper was declared: crash messages and `fatalError` point there.
@usableFromInline
struct InjectSite: Sendable, CustomStringConvertible {
    let wrapper: StaticString
    let file: StaticString
    let line: UInt

    @usableFromInline
    init(wrapper: StaticString, file: StaticString, line: UInt) {
        self.wrapper = wrapper
        self.file = file
        self.line = line
    }

    @usableFromInline
    var description: String { "@\(wrapper) at \(file):\(line)" }
}
