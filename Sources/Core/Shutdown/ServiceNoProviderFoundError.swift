/// The failure of a shutdown given a value in which it found no provider: nothing was shut down.
///
/// Passing the function that builds the container instead of the container is the usual cause:
/// passed to ``ServiceShutdown/close(_:timeout:)-(Any,_)`` directly it draws a warning, but not through a
/// generic function of the app's. The shutdown reports it as the one failure of its report, so
/// that a server that checks `isClean` sees it.
///
/// ```swift
/// func stop<Container>(_ container: Container) async -> ServiceCloseReport {
///     await ServiceShutdown.close(container)
/// }
///
/// let report = await stop(Services.makeDefault)  // the builder, not its container
/// if let failure = report.failures.first, failure.error is ServiceNoProviderFoundError {
///     print(failure)  // "() -> App.Services: no provider found in a value of this type; ..."
/// }
/// ```
public struct ServiceNoProviderFoundError: Error, Sendable, CustomStringConvertible {
    /// The type of the value in which no provider was found.
    ///
    /// ```swift
    /// let report = await ServiceShutdown.close(Settings())  // a value, not the container
    /// let walked = (report.failures.first?.error as? ServiceNoProviderFoundError)?.valueType  // Settings
    /// ```
    public let valueType: Any.Type

    init(valueType: Any.Type) {
        self.valueType = valueType
    }

    /// What went wrong and what to pass instead.
    ///
    /// ```swift
    /// let report = await ServiceShutdown.close(Settings())
    /// print(report.failures.first?.error ?? "")  // "no provider found in a value of this type; ..."
    /// ```
    public var description: String {
        let advice = "no provider found in a value of this type; nothing was shut down: pass the container (a struct "
            + "or class of providers, or a locator)"
        return isFunction ? advice + ", not the function that builds it" : advice
    }

    /// Whether `valueType` is a function type, told by its name: a function type's name, and
    /// only such a name, has an arrow at its top level. One inside a generic argument or a tuple
    /// (`Array<() -> Int>`) is between brackets, and one in a raw identifier (`` `a->b` ``)
    /// between backticks.
    var isFunction: Bool {
        var depth = 0
        var isQuoted = false
        var previous: Character = " "
        for character in TypeName.of(valueType) {
            switch character {
            case "`": isQuoted.toggle()
            case _ where isQuoted: break
            case ">" where previous == "-": if depth == 0 { return true }
            case "<", "(", "[": depth += 1
            case ">", ")", "]": depth -= 1
            default: break
            }
            previous = character
        }
        return false
    }
}
