// The 1.x and 2.x spellings of the provider API, kept so that old code builds (with a
// deprecation warning that names today's spelling). See docs/migration.md.

extension ServiceProvider {
    /// The 2.x throwing get.
    @available(*, deprecated, renamed: "getService()")
    public func tryService() throws -> ServiceType {
        try getService()
    }

    /// The 2.x closure provider made on the first get.
    @available(*, deprecated, message: "use ServiceProvider(mode: .lazy) { ... }")
    public convenience init(lazy factory: @escaping () throws -> ServiceType) {
        self.init(mode: .lazy, factory: factory)
    }

    /// The 2.x closure provider made anew on every get.
    @available(*, deprecated, message: "use ServiceProvider(mode: .many) { ... }")
    public convenience init(manyFactory factory: @escaping () throws -> ServiceType) {
        self.init(mode: .many, factory: factory)
    }

    /// The 1.x closure provider made anew on every get (2.x: `init(manyFactory:)`).
    @available(*, deprecated, message: "use ServiceProvider(mode: .many) { ... }")
    public convenience init(factory: @escaping () throws -> ServiceType) {
        self.init(mode: .many, factory: factory)
    }
}
