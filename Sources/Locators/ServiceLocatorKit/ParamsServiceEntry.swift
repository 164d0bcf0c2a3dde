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
