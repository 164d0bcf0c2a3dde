/// A stored params service. Its `plainProvider` (for gets without params) is the params provider
/// converted with `nil` params when `Params` is optional.
@usableFromInline
package final class ParamsServiceEntry<Service, Params>: LocatorEntry {
    @usableFromInline package let paramsProvider: ServiceParamsProvider<Service, Params>
    private let plainServiceProvider: ServiceProvider<Service>?
    private let takesForeignNil = ParamsCast<Params>.takesForeignNil

    package init(paramsProvider: ServiceParamsProvider<Service, Params>) {
        self.paramsProvider = paramsProvider
        plainServiceProvider = ParamsCast<Params>.cast(nil).map { paramsProvider.convert(params: $0) }
    }

    package var plainProvider: AnyObject? { plainServiceProvider }

    package var serviceType: Any.Type { Service.self }
    package var paramsType: Any.Type? { Params.self }
    package var storedProvider: AnyObject { paramsProvider }
    package var readyServiceType: Any.Type? { nil }

    package func anyService(key: ServiceLocatorKeyID, params: Any?) -> Result<Any, any Error> {
        service(key: key, untypedParams: params).map { $0 }
    }

    /// The service for params whose type is known only at run time; `nil` means none.
    package func service(key: ServiceLocatorKeyID, untypedParams params: Any?) -> Result<Service, any Error> {
        guard let typed = ParamsCast<Params>.cast(params, takesForeignNil: takesForeignNil) else {
            return .failure(
                ServiceLocatorError.wrongParams(
                    key: key, service: Service.self, expected: Params.self, received: params.map { type(of: $0) }
                )
            )
        }
        return paramsProvider.getServiceAsResult(params: typed).mapError { $0 }
    }
}
