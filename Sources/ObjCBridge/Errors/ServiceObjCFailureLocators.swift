import Foundation

extension ServiceObjCFailure {
    /// The failure of a locator get that threw `error`; `service` is the type asked for, when
    /// known.
    ///
    /// A missing service, or one of another type under the key, is `serviceNotFound`; params
    /// the stored service does not take are `wrongParams`; a provider's failure stays an obtain
    /// failure.
    @usableFromInline
    static func locator(_ error: any Error, service: Any.Type?) -> ServiceObjCFailure {
        if let obtainError = error as? ServiceObtainError {
            return .obtain(obtainError)
        }
        guard let locatorError = error as? ServiceLocatorError else {
            return .other(error, code: .obtainFailure, service: service)
        }
        switch locatorError {
        case .serviceNotFound:
            return .other(locatorError, code: .serviceNotFound, service: service)
        case .wrongParams:
            return .other(locatorError, code: .wrongParams, service: service)
        default:
            return .other(locatorError, code: .obtainFailure, service: service)
        }
    }
}

extension ServiceObjCFailure {
    /// This failure with the hint a locator adds to an error handed to the caller
    /// (`LocatorStorage.explained(_:)`): for the gets with an error pointer. Those without one
    /// drop the error, and skip the scan it costs.
    func explained(by storage: LocatorStorage) -> ServiceObjCFailure {
        guard case .other(let error as ServiceLocatorError, let code, let service) = self else { return self }
        return .other(storage.explained(error), code: code, service: service)
    }
}
