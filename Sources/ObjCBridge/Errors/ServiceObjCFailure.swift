import Foundation

/// Why a wrapper could not hand out a service; turned into an `NSError` only when asked for,
/// so a successful get builds nothing.
@usableFromInline
enum ServiceObjCFailure: Error {
    /// The provider failed.
    case obtain(ServiceObtainError)
    /// The service is not an `NSObject`.
    case notNSObject(ServiceNotNSObjectError)
    /// Another error (a locator's), with its code decided by whoever caught it, and the service
    /// type asked for when it is known.
    case other(any Error, code: ServiceObjCErrorCode, service: Any.Type?)

    /// The service is handed out as an `NSObject`, or refused when it is not one (see `refuse`).
    /// `serviceType` is the type asked for, named in the report and the error.
    @inlinable
    static func object<Service>(_ service: Service, as serviceType: Any.Type) throws(ServiceObjCFailure) -> NSObject {
        // Both checks are decided where `Service` is known (a class is never an optional, and
        // asking it first spares a class the look-up of a conformance): an optional service is
        // cast out of line, any other one where it is. The out-of-line function also makes the
        // refusal: were `service` used again here after its call, the optimizer would keep it
        // alive across the cast, and a class service's get would retain and release it once more.
        if !(Service.self is AnyClass), Service.self is any OptionalValue.Type {
            return try optionalObject(service, as: serviceType)
        }
        if let object = service as? NSObject {
            return object
        }
        throw refuse(service, as: serviceType)
    }

    /// The object of an optional service, or its refusal: cast from `Any` in code compiled
    /// once, never in code specialized for the service type. swiftc -O (Swift 6.3)
    /// compiles a generic `as? NSObject` specialized to an optional of an `NSObject` subclass
    /// into a call of `swift_dynamicCastClass` that crashes on a `nil` optional (as it does for
    /// the cast in `ServiceHolder.load()`), and sees through a conversion to `Any` written where
    /// it inlines.
    @usableFromInline @inline(never)
    static func optionalObject(_ service: Any, as serviceType: Any.Type) throws(ServiceObjCFailure) -> NSObject {
        if let object = service as? NSObject {
            return object
        }
        throw refuse(service, as: serviceType)
    }

    /// The refusal of `service`, named by what it holds: the value inside an optional, or `nil`.
    /// A refused type is reported to the `ProvidersLogger`s; a `nil` is not, since its type is
    /// handed out whenever it holds an object.
    @usableFromInline
    static func refuse<Service>(_ service: Service, as serviceType: Any.Type) -> ServiceObjCFailure {
        let value = service as Any
        guard let held = unwrappedValue(value) else {
            return .notNSObject(ServiceNotNSObjectError(service: serviceType, obtainedType: type(of: value), isNil: true))
        }
        LogRecorder.record(ProvidersLogger.self) { $0.serviceProviderObjCNotSupport(type: serviceType) }
        return .notNSObject(ServiceNotNSObjectError(service: serviceType, obtainedType: type(of: held)))
    }

    /// The code of the `NSError`.
    var code: ServiceObjCErrorCode {
        switch self {
        case .obtain(let error):
            // Only the caller's own params are "wrong params"; a dependency made with wrong
            // params is a failure of the service asked for.
            return error.isWrongParams && !error.isNested ? .wrongParams : .obtainFailure
        case .notNSObject:
            return .notNSObject
        case .other(_, let code, _):
            return code
        }
    }

    /// The message of the error: the Swift error's message, naming the service.
    var message: String {
        switch self {
        case .obtain(let error): return error.fatalMessage
        case .notNSObject(let error): return error.description
        case .other(let error, _, _): return (error as? LocalizedError)?.errorDescription ?? String(describing: error)
        }
    }

    /// The object `body` gets, or `nil` with the failure written to `error`: the
    /// `...AndReturnError:` / `...error:` form of every get. `error` is set to `nil` on success.
    static func returning(_ error: ServiceErrorPointer, _ body: () throws(ServiceObjCFailure) -> NSObject) -> Any? {
        do {
            let service = try body()
            error?.pointee = nil
            return service
        } catch let failure {
            error?.pointee = failure.nsError
            return nil
        }
    }

    /// Stops the program with the message at the caller's `file` and `line`, for the `OrFatal`
    /// gets.
    func stop(file: StaticString, line: UInt) -> Never {
        fatalError(message, file: file, line: line)
    }

    /// The `NSError` an Objective-C style caller receives.
    var nsError: NSError {
        switch self {
        case .obtain(let error):
            let requested = error.pathServices.first ?? error.service
            return ServiceObjCError.make(code: code, service: requested, underlying: error, message: message)
        case .notNSObject(let error):
            return ServiceObjCError.make(code: code, service: error.service, underlying: error, message: message)
        case .other(let error, _, let service):
            return ServiceObjCError.make(code: code, service: service, underlying: error, message: message)
        }
    }
}
