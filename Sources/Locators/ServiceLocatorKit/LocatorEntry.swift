/// A service stored in a locator. Immutable; the typed subclasses keep the providers.
///
/// A get checks `serviceTypeID` (and `paramsTypeID`) against the requested types and then
/// downcasts without a dynamic cast: no `Any` round trip on the typed paths.
package class LocatorEntry: @unchecked Sendable {
    // Immutable.
    package let serviceType: Any.Type
    package let serviceTypeID: ObjectIdentifier
    package let paramsType: Any.Type?
    package let paramsTypeID: ObjectIdentifier?

    init(serviceType: Any.Type, paramsType: Any.Type?) {
        self.serviceType = serviceType
        self.serviceTypeID = ObjectIdentifier(serviceType)
        self.paramsType = paramsType
        self.paramsTypeID = paramsType.map(ObjectIdentifier.init)
    }

    /// The service as `Any`, for callers that know its type only at run time; `nil` params means
    /// none.
    package func anyService(key: ServiceLocatorKeyID, params: Any?) -> Result<Any, any Error> {
        preconditionFailure("LocatorEntry is abstract")
    }
}

/// A stored `Service` service, got without params through `provider`.
package class ServiceEntry<Service>: LocatorEntry, @unchecked Sendable {
    // Immutable. `nil` for a params service whose params are not optional.
    package let provider: ServiceProvider<Service>?

    /// An entry of a plain provider.
    package init(provider: ServiceProvider<Service>) {
        self.provider = provider
        super.init(serviceType: Service.self, paramsType: nil)
    }

    init(provider: ServiceProvider<Service>?, paramsType: Any.Type) {
        self.provider = provider
        super.init(serviceType: Service.self, paramsType: paramsType)
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

/// A stored params service. Its `provider` (for gets without params) is the params provider
/// converted with `nil` params when `Params` is optional.
package final class ParamsServiceEntry<Service, Params>: ServiceEntry<Service>, @unchecked Sendable {
    // Immutable.
    package let paramsProvider: ServiceParamsProvider<Service, Params>

    package init(paramsProvider: ServiceParamsProvider<Service, Params>) {
        self.paramsProvider = paramsProvider
        let noParams = Self.cast(nil)
        super.init(provider: noParams.map { paramsProvider.convert(params: $0) }, paramsType: Params.self)
    }

    override package func service(key: ServiceLocatorKeyID, untypedParams params: Any) -> Result<Service, any Error> {
        guard let typed = Self.cast(params) else {
            return .failure(
                ServiceLocatorError.wrongParams(
                    key: key, service: Service.self, expected: Params.self, received: type(of: params)
                )
            )
        }
        return paramsProvider.getServiceAsResult(params: typed).mapError { $0 }
    }

    /// `params` as `Params`; a missing value stands for `nil` of an optional `Params`.
    static func cast(_ params: Any?) -> Params? {
        if let params {
            return params as? Params
        }
        return Optional<Any>.none as Any as? Params
    }
}
