/// How the package's messages name a type: every error, crash message and report of every
/// product says a service's type through `TypeName.of(_:)`.
package enum TypeName {
    /// The full name of `type` (`String(reflecting:)`, such as `MyApp.RequestLog`), without the
    /// `(unknown context at $…)` that Swift writes into the name of a `private` or local type:
    /// that part is an address, which changes from one run to the next, so a message that names
    /// such a type reads the same in every run and in a test's expectation.
    ///
    /// Only messages use it. A key that must tell two types apart (a locator's store key) keeps
    /// the full name.
    package static func of(_ type: Any.Type) -> String {
        var name = String(reflecting: type)
        while let context = name.firstRange(of: "(unknown context at $") {
            guard let close = name[context.upperBound...].firstIndex(of: ")") else { break }
            var end = name.index(after: close)
            if end < name.endIndex, name[end] == "." {
                end = name.index(after: end)
            }
            name.removeSubrange(context.lowerBound..<end)
        }
        return name
    }
}
