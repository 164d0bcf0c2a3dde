import Foundation

/// The error a provider returns when it cannot give its service.
///
/// It carries the original error and where it happened. Services depend on each other, so the
/// failure may be in a service obtained while making the requested one: `pathServices` lists
/// the services from the requested one (first) to the one whose factory failed (last).
///
/// ```swift
/// do {
///     let service = try secondServiceProvider.getService()
/// } catch {
///     // error.service == FirstService.self
///     // error.pathServices: [SecondService.self, FirstService.self]
///     // error.isNested == true
/// }
/// ```
public struct ServiceObtainError: Error, LocalizedError, CustomStringConvertible {
    /// The service whose making failed.
    ///
    /// ```swift
    /// if error.service == Settings.self {
    ///     print("the settings could not be made")  // the factory of Settings failed, or its get was refused
    /// }
    /// ```
    public let service: Any.Type

    /// The services obtained on the way, from the requested service to `service`.
    ///
    /// ```swift
    /// print(error.pathServices.map { "\($0)" }.joined(separator: " -> "))  // "SecondService -> FirstService"
    /// ```
    public let pathServices: [Any.Type]

    /// The original error: thrown by the factory, a ``ServiceFactoryError``, or a
    /// `CancellationError` for a get whose task was cancelled before the service was ready.
    ///
    /// ```swift
    /// if case SettingsError.missingFile? = error.error as? SettingsError {
    ///     print("create the settings file")  // the factory threw it
    /// }
    /// ```
    public var error: any Error {
        cause is CancelledGet ? CancellationError() : cause
    }

    /// `error`, or a `CancelledGet` for a get whose task was cancelled before the service was
    /// ready: the message tells it from a `CancellationError` that a factory threw, while `error`
    /// gives a `CancellationError` for both. (A marker rather than a flag of its own: a fourth
    /// word in every typed-throws get's error made a cold start cost 11 instructions more a
    /// provider.)
    private let cause: any Error

    /// What `cause` holds for a get whose task was cancelled before the service was ready.
    private struct CancelledGet: Error {}

    /// Makes an error for `service` failing with `error`; the path holds `service` alone.
    ///
    /// ```swift
    /// let error = ServiceObtainError(service: Settings.self, error: SettingsError.missingFile)
    /// // error.service == Settings.self, error.isNested == false
    /// ```
    public init(service: Any.Type, error: any Error) {
        self.init(service: service, pathServices: [service], error: error)
    }

    /// The error of a get of `service` whose task was cancelled before the service was ready:
    /// its `error` is a `CancellationError`, and it is not reported to the loggers (it is not a
    /// failure of the factory).
    static func cancelledGet(_ service: Any.Type) -> ServiceObtainError {
        ServiceObtainError(service: service, pathServices: [service], error: CancelledGet())
    }

    /// The error of a get of `service` that the package refuses for `cause` (a cycle, a missing or
    /// closed scope, a captive dependency, a provider shut down...), reported to the registered
    /// `ProvidersLogger`s where it starts: the gets it passes through only add to its path.
    @usableFromInline
    static func refused(_ service: Any.Type, _ cause: ServiceFactoryError) -> ServiceObtainError {
        ServiceObtainError(service: service, error: cause).reported()
    }

    /// This error, reported to the registered `ProvidersLogger`s: a refusal made while a lock is
    /// held is reported this way once it is released, since a logger with no queue runs in the
    /// call and may take locks of its own.
    @usableFromInline @discardableResult
    func reported() -> ServiceObtainError {
        LogRecorder.recorder.providerMakeFailure(type: service, error: self)
        return self
    }

    private init(service: Any.Type, pathServices: [Any.Type], error: any Error) {
        self.service = service
        self.pathServices = pathServices
        self.cause = error
    }

    /// `true` when the failure happened in a service obtained while making the requested one.
    ///
    /// ```swift
    /// print(error.isNested)  // true for SecondService -> FirstService: a dependency failed
    /// ```
    public var isNested: Bool { pathServices.count > 1 }

    /// `true` when the cause is params of the wrong type (`ServiceFactoryError.wrongParams`).
    ///
    /// ```swift
    /// if case .failure(let refusal) = provider.getServiceAsResult(untypedParams: "one") {
    ///     print(refusal.isWrongParams)  // true: a String is not the SecondServiceParams? the provider takes
    /// }
    /// ```
    public var isWrongParams: Bool {
        if case .wrongParams? = cause as? ServiceFactoryError { return true }
        return false
    }

    /// `true` when the cause is a session of another type than the factory takes
    /// (`ServiceFactoryError.wrongSession`): a service of signed-in users asked for while a guest
    /// session is current, say, also through a service that depends on it.
    ///
    /// ```swift
    /// if case .failure(let error) = cartProvider.getServiceAsResult(), error.isWrongSession {
    ///     print("sign in to see your cart")  // not a failure: nobody is signed in
    /// }
    /// ```
    public var isWrongSession: Bool {
        if case .wrongSession? = cause as? ServiceFactoryError { return true }
        return false
    }

    /// `true` when the cause is a ``ServiceFactoryError`` rather than an error thrown by a factory.
    ///
    /// ```swift
    /// if !error.isFactoryError {
    ///     print("the factory threw:", error.error)  // not a refusal of the library (a cycle, a scope, params...)
    /// }
    /// ```
    public var isFactoryError: Bool { cause is ServiceFactoryError }

    /// `true` when the cause is a dependency cycle (`ServiceFactoryError.dependencyCycle`).
    ///
    /// ```swift
    /// if error.isDependencyCycle {
    ///     print(error.pathServices)  // the services of the cycle, the first one again at the end
    /// }
    /// ```
    public var isDependencyCycle: Bool {
        if case .dependencyCycle? = cause as? ServiceFactoryError { return true }
        return false
    }

    /// The same error as seen from `service`, which was being made when this one was thrown:
    /// `service` is added at the front of `pathServices`.
    ///
    /// ```swift
    /// let seen = error.withAddedToPath(service: ReportBuilder.self)
    /// // seen.pathServices: [ReportBuilder.self, Settings.self]
    /// ```
    public func withAddedToPath(service: Any.Type) -> ServiceObtainError {
        ServiceObtainError(service: self.service, pathServices: [service] + pathServices, error: cause)
    }

    /// A one-line message naming the requested service, the failed one, the cause and the path;
    /// `getServiceOrFatal()` crashes with it.
    ///
    /// ```swift
    /// print(error.fatalMessage)  // "Failed to obtain service App.Settings with error: ..."
    /// ```
    public var fatalMessage: String {
        let requested = pathServices.first ?? service
        var message = "Failed to obtain service \(TypeName.of(requested))"
        let described =
            cause is CancelledGet
            ? "cancelled: the task that asked was cancelled before the service was ready; a making that had started "
                + "goes on for the other gets"
            : Self.describe(cause)
        if causeNamesTheServices {
            message += ": \(described)"
        } else {
            if isNested {
                message += ": its dependency \(TypeName.of(service)) failed"
            }
            message += " with error: \(described)"
        }
        if isNested {
            message += ". Path: " + pathServices.map(TypeName.of).joined(separator: " -> ")
        }
        return message
    }

    /// Whether the cause names the services it is about, so that the message gives it alone: a
    /// cycle ("its dependency" would be the service itself), or a captive dependency, which is
    /// the mistake of the singleton's factory, not a failure of the scoped service it got.
    private var causeNamesTheServices: Bool {
        switch cause as? ServiceFactoryError {
        case .dependencyCycle?, .captiveDependency?: true
        default: false
        }
    }

    /// The same text as `fatalMessage`.
    ///
    /// ```swift
    /// let alertText = error.errorDescription ?? ""  // error.fatalMessage: "Failed to obtain service ..."
    /// ```
    public var errorDescription: String? { fatalMessage }

    /// The same text as `fatalMessage`.
    ///
    /// ```swift
    /// print("\(error)")  // "Failed to obtain service App.SecondService: its dependency App.FirstService failed ..."
    /// ```
    public var description: String { fatalMessage }

    /// `error` in a message: its `errorDescription`, or a `CancellationError` said in words, which
    /// `thrower` ("the factory", or a service's "close()") threw.
    static func describe(_ error: any Error, thrownBy thrower: String = "the factory") -> String {
        if let localized = error as? LocalizedError, let text = localized.errorDescription {
            return text
        }
        if error is CancellationError {
            return "cancelled: \(thrower) threw CancellationError (it threw it itself, or passed on the "
                + "cancellation of the task it ran in or of a task it awaited)"
        }
        return String(describing: error)
    }
}

extension Result where Failure == ServiceObtainError {
    /// The service, or, for a failure, stops the program with the error's `fatalMessage` at `file`
    /// and `line`: what every provider's `getServiceOrFatal` does with its `getServiceAsResult()`.
    ///
    /// ```swift
    /// let settings = settingsProvider.getServiceAsResult().serviceOrFatal(file: #fileID, line: #line)
    /// ```
    @inlinable
    package func serviceOrFatal(file: StaticString, line: UInt) -> Success {
        switch self {
        case .success(let service): service
        case .failure(let error): fatalError(error.fatalMessage, file: file, line: line)
        }
    }

    /// The error of a failure, `nil` for a service: what a validation or a recording keeps of
    /// a get.
    var obtainError: ServiceObtainError? {
        if case .failure(let error) = self { error } else { nil }
    }
}
