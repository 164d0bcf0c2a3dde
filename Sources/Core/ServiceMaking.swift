/// Calls a factory and turns whatever it throws into a `ServiceObtainError` for `Service`.
///
/// A `ServiceObtainError` thrown by a nested get gets `Service` added in front of its path; any
/// other error starts a new path and is reported to the registered `ProvidersLogger`s.
@usableFromInline
enum ServiceMaking {
    @inlinable
    static func make<Service>(
        _ service: Service.Type,
        _ factory: () throws -> Service
    ) throws(ServiceObtainError) -> Service {
        do {
            return try factory()
        } catch {
            throw wrap(error, service: Service.self)
        }
    }

    /// `make` as a `Result`.
    @inlinable
    static func result<Service>(
        _ service: Service.Type,
        _ factory: () throws -> Service
    ) -> Result<Service, ServiceObtainError> {
        do throws(ServiceObtainError) {
            return .success(try make(Service.self, factory))
        } catch {
            return .failure(error)
        }
    }

    /// `result` for an async factory.
    static func asyncResult<Service>(
        _ service: Service.Type,
        _ factory: () async throws -> Service
    ) async -> Result<Service, ServiceObtainError> {
        do {
            return .success(try await factory())
        } catch {
            return .failure(wrap(error, service: Service.self))
        }
    }

    @usableFromInline
    static func wrap(_ error: any Error, service: Any.Type) -> ServiceObtainError {
        if let nested = error as? ServiceObtainError {
            return nested.withAddedToPath(service: service)
        }
        let obtainError = ServiceObtainError(service: service, error: error)
        LogRecorder.recorder.providerMakeFailure(type: service, error: obtainError)
        return obtainError
    }
}
