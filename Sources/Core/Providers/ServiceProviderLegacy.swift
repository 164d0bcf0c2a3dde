// The 1.x and 2.x spellings of the provider API, kept so that old code builds (with a
// deprecation warning that names today's spelling). See docs/migration.md.

extension ServiceProvider {
    /// The 2.x throwing get.
    ///
    /// ```swift
    /// let settings = try settingsProvider.getService()  // was: try settingsProvider.tryService()
    /// ```
    @available(*, deprecated, renamed: "getService()")
    public func tryService() throws -> ServiceType {
        try getService()
    }

    /// The 2.x closure provider made on the first get.
    ///
    /// ```swift
    /// let settings = ServiceProvider<Settings>(mode: .lazy) { Settings() }
    /// // was: ServiceProvider<Settings>(lazy: { Settings() })
    /// ```
    @available(*, deprecated, message: "use ServiceProvider(mode: .lazy) { ... }")
    public convenience init(lazy factory: @escaping @Sendable () throws -> ServiceType) {
        self.init(mode: .lazy, factory: factory)
    }

    /// The 2.x closure provider made anew on every get.
    ///
    /// ```swift
    /// let builder = ServiceProvider<ReportBuilder>(mode: .many) { ReportBuilder() }
    /// // was: ServiceProvider<ReportBuilder>(manyFactory: { ReportBuilder() })
    /// ```
    @available(*, deprecated, message: "use ServiceProvider(mode: .many) { ... }")
    public convenience init(manyFactory factory: @escaping @Sendable () throws -> ServiceType) {
        self.init(mode: .many, factory: factory)
    }

    /// The 1.x closure provider made anew on every get (2.x: `init(manyFactory:)`).
    ///
    /// ```swift
    /// let builder = ServiceProvider<ReportBuilder>(mode: .many) { ReportBuilder() }
    /// // was: ServiceProvider<ReportBuilder>(factory: { ReportBuilder() })
    /// ```
    @available(*, deprecated, message: "use ServiceProvider(mode: .many) { ... }")
    public convenience init(factory: @escaping @Sendable () throws -> ServiceType) {
        self.init(mode: .many, factory: factory)
    }
}

extension ServiceFactory {
    /// The 1.x/2.x name of `makeService()`, kept for call sites such as
    /// `UserServiceFactory().createService()`. A factory must implement `makeService()`.
    ///
    /// ```swift
    /// let service = try UserServiceFactory().makeService()  // was: createService()
    /// ```
    @available(*, deprecated, renamed: "makeService()")
    public func createService() throws -> ServiceType {
        try makeService()
    }
}

extension ServiceParamsFactory {
    /// The 1.x/2.x name of `makeService(params:)`, kept for call sites. A factory must implement
    /// `makeService(params:)`.
    ///
    /// ```swift
    /// let service = try SecondServiceFactory().makeService(params: .init(number: 1))
    /// // was: createService(params: .init(number: 1))
    /// ```
    @available(*, deprecated, renamed: "makeService(params:)")
    public func createService(params: ParamsType) throws -> ServiceType {
        try makeService(params: params)
    }
}
