/// Where a property wrapper was declared: crash messages and `fatalError` point there.
struct InjectSite: Sendable, CustomStringConvertible {
    let wrapper: StaticString
    let file: StaticString
    let line: UInt

    var description: String { "@\(wrapper) at \(file):\(line)" }
}
