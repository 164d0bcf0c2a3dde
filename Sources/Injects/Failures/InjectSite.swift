/// Which wrapper (or call) an inject site is, named in crash messages: one byte, where its name
/// as a `StaticString` took three words, stored at every injection.
@usableFromInline
enum InjectWrapper: String, Sendable, CustomStringConvertible {
    case serviceInject = "ServiceInject"
    case serviceParamsInject = "ServiceParamsInject"
    case serviceProviderInject = "ServiceProviderInject"
    case entityInject = "EntityInject"
    case setParameters = "setParameters"

    @usableFromInline
    var description: String { rawValue }
}

/// Where a property wrapper was declared: crash messages and `fatalError` point there.
@usableFromInline
struct InjectSite: Sendable, CustomStringConvertible {
    let wrapper: InjectWrapper
    let file: StaticString
    let line: UInt
    /// What the wrapper reads from the container, when it is not the value it gives: the
    /// provider that a `@ServiceProviderInject` converts (into an Objective-C style wrapper, say),
    /// which names the service where the wrapper's value may not.
    let reads: Any.Type?

    @usableFromInline
    init(wrapper: InjectWrapper, file: StaticString, line: UInt, reads: Any.Type? = nil) {
        self.wrapper = wrapper
        self.file = file
        self.line = line
        self.reads = reads
    }

    @usableFromInline
    var description: String { "@\(wrapper) at \(file):\(line)" }
}
