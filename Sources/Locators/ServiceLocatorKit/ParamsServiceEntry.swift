/// A stored params service. Its `provider` (for gets without params) is the params provider
/// converted with `nil` params when `Params` is optional.
package final class ParamsServiceEntry<Service, Params>: ServiceEntry<Service>, @unchecked Sendable {
    // Immutable.
    package let paramsProvider: ServiceParamsProvider<Service, Params>
    private let takesForeignNil = ParamsCast<Params>.takesForeignNil

    package init(paramsProvider: ServiceParamsProvider<Service, Params>) {
        self.paramsProvider = paramsProvider
        let noParams = ParamsCast<Params>.cast(nil)
        super.init(provider: noParams.map { paramsProvider.convert(params: $0) }, paramsType: Params.self)
    }

    override package func service(key: ServiceLocatorKeyID, untypedParams params: Any) -> Result<Service, any Error> {
        guard let typed = ParamsCast<Params>.cast(params, takesForeignNil: takesForeignNil) else {
            return .failure(
                ServiceLocatorError.wrongParams(
                    key: key, service: Service.self, expected: Params.self, received: type(of: params)
                )
            )
        }
        return paramsProvider.getServiceAsResult(params: typed).mapError { $0 }
    }
}
