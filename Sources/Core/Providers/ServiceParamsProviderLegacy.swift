extension ServiceParamsProvider {
    /// The 2.x throwing get with params.
    ///
    /// ```swift
    /// let service = try provider.getService(params: .init(number: 1))  // was: tryService(params:)
    /// ```
    @available(*, deprecated, renamed: "getService(params:)")
    public func tryService(params: ParamsType) throws -> ServiceType {
        try getService(params: params)
    }
}
