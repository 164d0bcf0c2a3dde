/// A stored `Service` service, got without params through `provider`.
package class ServiceEntry<Service>: LocatorEntry, @unchecked Sendable {
    /// The provider of the service without params; `nil` for a params service whose params are
    /// not optional.
    package final var provider: ServiceProvider<Service>? {
        plainProvider.map { unsafeDowncast($0, to: ServiceProvider<Service>.self) }
    }

    /// An entry of a plain provider.
    package init(provider: ServiceProvider<Service>) {
        super.init(serviceType: Service.self, paramsType: nil, plainProvider: provider)
    }

    init(provider: ServiceProvider<Service>?, paramsType: Any.Type) {
        super.init(serviceType: Service.self, paramsType: paramsType, plainProvider: provider)
    }

    /// The service without params.
    final func service(key: ServiceLocatorKeyID) -> Result<Service, any Error> {
        guard let provider else {
            return .failure(
                ServiceLocatorError.wrongParams(key: key, service: Service.self, expected: paramsType, received: nil)
            )
        }
        return provider.getServiceAsResult().mapError { $0 }
    }

    /// The service for params whose type is known only at run time; a plain service refuses
    /// any params.
    package func service(key: ServiceLocatorKeyID, untypedParams params: Any) -> Result<Service, any Error> {
        .failure(
            ServiceLocatorError.wrongParams(
                key: key, service: Service.self, expected: nil, received: type(of: params)
            )
        )
    }

    override package func anyService(key: ServiceLocatorKeyID, params: Any?) -> Result<Any, any Error> {
        guard let params else {
            return service(key: key).map { $0 }
        }
        return service(key: key, untypedParams: params).map { $0 }
    }
}
