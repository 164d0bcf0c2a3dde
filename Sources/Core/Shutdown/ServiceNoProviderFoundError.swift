/// The failure of a shutdown given a value in which it found no provider: nothing was shut down.
///
/// Passing the function that builds the container instead of the container is the usual cause;
/// ``ServiceShutdown/close(_:timeout:)`` reports it as the one failure of its report, so that a
/// server that checks `isClean` sees it.
///
/// ```swift
/// let report = await ServiceShutdown.close(Services.makeDefault)  // the builder, not its container
/// if let failure = report.failures.first, failure.error is ServiceNoProviderFoundError {
///     print(failure)  // "() -> App.Services: no provider found in a value of this type; ..."
/// }
/// ```
public struct ServiceNoProviderFoundError: Error, Sendable, CustomStringConvertible {
    /// The type of the value in which no provider was found.
    ///
    /// ```swift
    /// let report = await ServiceShutdown.close(Services.makeDefault)
    /// let walked = (report.failures.first?.error as? ServiceNoProviderFoundError)?.valueType  // () -> Services
    /// ```
    public let valueType: Any.Type

    init(valueType: Any.Type) {
        self.valueType = valueType
    }

    /// What went wrong and what to pass instead.
    ///
    /// ```swift
    /// let report = await ServiceShutdown.close(Services.makeDefault)
    /// print(report.failures.first?.error ?? "")  // "no provider found in a value of this type; ..."
    /// ```
    public var description: String {
        "no provider found in a value of this type; nothing was shut down: pass the container (a struct or class of "
            + "providers, or a locator), not the function that builds it"
    }
}
