// The 2.0.1 unlabeled spellings of the easy locator, kept so that old code builds (with a
// deprecation warning that names today's spelling). See docs/migration.md.

extension ServiceEasyLocator {
    /// The 2.0.1 spelling of `getService(serviceType:)`: `locator.getService(FirstService.self)`.
    ///
    /// ```swift
    /// let first = locator.getService(serviceType: FirstService.self)
    /// ```
    @available(*, deprecated, renamed: "getService(serviceType:)")
    @inlinable
    public final func getService<Service>(_ serviceType: Service.Type) -> Service? {
        getService(serviceType: serviceType)
    }

    /// The 2.0.1 spelling of `getService(serviceType:params:)`.
    ///
    /// ```swift
    /// let params = SecondServiceParams(number: 1)
    /// // was: locator.getService(SecondService.self, params: params)
    /// let second = locator.getService(serviceType: SecondService.self, params: params)
    /// ```
    @available(*, deprecated, renamed: "getService(serviceType:params:)")
    @inlinable
    public final func getService<Service, Params>(_ serviceType: Service.Type, params: Params) -> Service? {
        getService(serviceType: serviceType, params: params)
    }

    /// The 2.0.1 spelling of `tryService(serviceType:)`: `try locator.tryService(FirstService.self)`.
    ///
    /// ```swift
    /// let first = try locator.tryService(serviceType: FirstService.self)
    /// ```
    @available(*, deprecated, renamed: "tryService(serviceType:)")
    @inlinable
    public final func tryService<Service>(_ serviceType: Service.Type) throws -> Service {
        try tryService(serviceType: serviceType)
    }

    /// The 2.0.1 spelling of `tryService(serviceType:params:)`.
    ///
    /// ```swift
    /// let params = SecondServiceParams(number: 1)
    /// // was: try locator.tryService(SecondService.self, params: params)
    /// let second = try locator.tryService(serviceType: SecondService.self, params: params)
    /// ```
    @available(*, deprecated, renamed: "tryService(serviceType:params:)")
    @inlinable
    public final func tryService<Service, Params>(_ serviceType: Service.Type, params: Params) throws -> Service {
        try tryService(serviceType: serviceType, params: params)
    }

    /// The 2.0.1 spelling of `removeService(serviceType:)`: `locator.removeService(FirstService.self)`.
    ///
    /// ```swift
    /// locator.removeService(serviceType: FirstService.self)
    /// ```
    @available(*, deprecated, renamed: "removeService(serviceType:)")
    @discardableResult
    public final func removeService<Service>(
        _ serviceType: Service.Type,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        removeService(serviceType: serviceType, file: file, line: line)
    }
}
