import Foundation

/// What ``ServiceValidator`` found: every failure with its property path, what it skipped, how
/// long each provider's factory ran, and the dependency graph.
///
/// ```swift
/// let report = ServiceValidator.validate(building: Services.makeDefault)
/// for failure in report.failures {
///     print(failure.path, failure.error.pathServices)
/// }
/// print(report.timings.first?.path ?? "no factory ran")  // the slowest factory, made or failed
/// ```
///
/// Its `description` is the whole report as readable text.
public struct ServiceValidationReport: Sendable, CustomStringConvertible {
    /// A provider whose service could not be had.
    ///
    /// ```swift
    /// for failure in report.failures {
    ///     print(failure.path, failure.error.service)  // network.api App.APIClient
    /// }
    /// ```
    public struct Failure: Sendable {
        /// The property path of the provider in the container (`network.api`, `locator[Key]`).
        ///
        /// ```swift
        /// let apiFailed = report.failures.contains { $0.path == "network.api" }
        /// ```
        public let path: String
        /// Why: the failed service, the path of services to it, and the cause.
        ///
        /// ```swift
        /// for failure in report.failures where !failure.error.isNested {
        ///     print(failure.path, failure.error.error)  // network.token missingToken: its own factory threw
        /// }
        /// ```
        public let error: ServiceObtainError
    }

    /// A provider the validator did not make, and why.
    ///
    /// ```swift
    /// for skipped in report.skipped {
    ///     print(skipped.path, skipped.reason)  // search needs params of type Swift.String: ...
    /// }
    /// ```
    public struct Skipped: Sendable {
        /// The property path of the provider in the container.
        ///
        /// ```swift
        /// let unchecked = report.skipped.map(\.path)  // ["log"]: a params provider, not made
        /// ```
        public let path: String
        /// The type of its service.
        ///
        /// ```swift
        /// let skippedTypes = report.skipped.map { String(describing: $0.serviceType) }  // ["SubsystemLog"]
        /// ```
        public let serviceType: Any.Type
        /// Why it was not made: it needs params, the optional provider is `nil`, it is an async
        /// or main-actor provider, or a `lazy var` that was never read.
        ///
        /// ```swift
        /// print(report.skipped.first?.reason ?? "nothing skipped")  // "needs params of type Swift.String: ..."
        /// ```
        public let reason: String
        /// Whether there was no provider to make: an optional one that is `nil`.
        let isAbsent: Bool

        init(path: String, serviceType: Any.Type, reason: String, isAbsent: Bool = false) {
            self.path = path
            self.serviceType = serviceType
            self.reason = reason
            self.isAbsent = isAbsent
        }
    }

    /// The time a provider's factory ran while it was validated, whether it made the service or
    /// failed: a factory that gives up after a timeout is a slow start too.
    ///
    /// ```swift
    /// for timing in report.timings.prefix(3) {
    ///     print(timing.path, timing.duration)  // settings 0.000336 seconds
    /// }
    /// ```
    public struct Timing: Sendable {
        /// The property path of the provider in the container.
        ///
        /// ```swift
        /// let slowest = report.timings.first?.path  // "settings": the timings are sorted slowest first
        /// ```
        public let path: String
        /// The type of its service.
        ///
        /// ```swift
        /// if let timing = report.timings.first(where: { $0.serviceType == Settings.self }) {
        ///     print(timing.path, timing.duration)  // settings 0.000336 seconds
        /// }
        /// ```
        public let serviceType: Any.Type
        /// The time in its makings, without the time of the services they asked for (those
        /// have timings of their own).
        ///
        /// ```swift
        /// let inFactories = report.timings.reduce(Duration.zero) { $0 + $1.duration }  // no making counted twice
        /// ```
        public let duration: Duration
    }

    /// The type of the value that was validated.
    ///
    /// ```swift
    /// print(report.containerType)  // Services
    /// ```
    public let containerType: Any.Type
    /// The paths of the providers whose service was made (or was there) without an error.
    ///
    /// ```swift
    /// print(report.made)  // ["settings", "connectionPool", "reportJob", "httpLog"], in the order of the container
    /// ```
    public let made: [String]
    /// Every provider whose service could not be had, in the order of the container.
    ///
    /// ```swift
    /// print(report.failures.map(\.path))  // ["network.token", "network.api"]
    /// ```
    public let failures: [Failure]
    /// The providers that were not made: params providers, `nil` optional providers, async and
    /// main-actor providers.
    ///
    /// ```swift
    /// let absent = report.skipped.filter { $0.reason.hasPrefix("nil") }.map(\.path)  // ["audit"]: nil optional providers
    /// ```
    public let skipped: [Skipped]
    /// The providers whose factory ran during the validation (or, with `validate(building:)`,
    /// while the container was built), slowest first: those that made their service and those
    /// that failed (which are in `failures` too).
    ///
    /// ```swift
    /// for timing in report.timings where timing.duration > .milliseconds(100) {
    ///     print("slow start:", timing.path, timing.duration)
    /// }
    /// ```
    public let timings: [Timing]
    /// What each provider's making asked for.
    ///
    /// ```swift
    /// print(report.graph.edges.count)  // 3: connectionPool -> settings, reportJob -> connectionPool, httpLog -> log
    /// ```
    public let graph: ServiceGraph
    /// How the validation that made this report takes a builder: the advice of a report of a
    /// value that holds no provider.
    var buildingCall = "validate(building:)"

    /// Whether every provider could give its service. A value in which the validator found no
    /// provider at all (not even a skipped one) is not valid either: it is not a container, or
    /// not the one meant. Nor is one whose every provider was skipped, which was not checked:
    /// only `nil` optional providers, with nothing to make, leave a container valid unmade.
    ///
    /// ```swift
    /// let report = ServiceValidator.validate(building: Services.makeDefault)
    /// precondition(report.isValid, report.description)
    /// ```
    public var isValid: Bool { failures.isEmpty && !isEmpty && !checkedNothing }

    /// Whether the validator found no provider in the value, made, failed or skipped.
    var isEmpty: Bool { made.isEmpty && failures.isEmpty && skipped.isEmpty }

    /// Whether it found providers but made none of them: every one was skipped, for a reason
    /// other than being `nil`.
    var checkedNothing: Bool { made.isEmpty && failures.isEmpty && skipped.contains { !$0.isAbsent } }

    /// The report as text: a summary line, then the failures, the skipped providers, the
    /// creation times and the dependencies, each under a heading when there are any.
    ///
    /// ```swift
    /// print(report)  // "Valid: 4 providers made, 0 failed, 1 skipped", then each list under its heading
    /// ```
    public var description: String {
        var lines = [
            "\(isValid ? "Valid" : "Invalid"): \(Self.count(made.count, "provider")) made, "
                + "\(failures.count) failed, \(skipped.count) skipped"
        ]
        if isEmpty {
            lines.append(
                "No provider found in a value of type \(TypeName.of(containerType)): pass a container "
                    + "(a struct or class of providers, or a locator), or the function that builds it as "
                    + buildingCall
            )
        } else if checkedNothing {
            lines.append("Nothing checked: every provider found was skipped, for the reason given with it")
        }
        if !failures.isEmpty {
            lines.append("Failures:")
            lines += failures.map { "  \($0.path): \($0.error.fatalMessage)" }
        }
        if !skipped.isEmpty {
            lines.append("Skipped:")
            lines += skipped.map { "  \($0.path) (\(TypeName.of($0.serviceType))): \($0.reason)" }
        }
        if !timings.isEmpty {
            lines.append("Creation times, slowest first:")
            let names = timings.map { "\($0.path) (\(TypeName.of($0.serviceType)))" }
            let width = names.map(\.count).max() ?? 0
            for (name, timing) in zip(names, timings) {
                let padding = String(repeating: " ", count: width - name.count)
                lines.append("  \(name)\(padding)  \(Self.milliseconds(timing.duration))")
            }
        }
        if !graph.edges.isEmpty {
            lines.append("Dependencies:")
            lines += graph.edgeLines.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// `duration` in milliseconds with three decimals: `0.042 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return String(format: "%.3f ms", value)
    }
}
