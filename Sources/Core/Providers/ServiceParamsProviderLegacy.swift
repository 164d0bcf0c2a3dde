extension ServiceParamsProvider {
    /// The 2.x throwing get with params.
    @available(*, deprecated, renamed: "getService(params:)")
    public func tryService(params: ParamsType) throws -> ServiceType {
        try getService(params: params)
    }
}
