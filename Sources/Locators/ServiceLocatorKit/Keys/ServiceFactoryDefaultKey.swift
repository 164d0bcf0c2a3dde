extension ServiceFactory {
    /// The easy key of this factory's service, for `ServiceLocator.addService(key:factory:)`.
    ///
    /// A factory may declare its own `defaultKey` of a custom key type instead.
    ///
    /// ```swift
    /// locator.addService(key: FirstServiceFactory.defaultKey, factory: FirstServiceFactory())
    /// let first = try locator.tryService(key: FirstServiceFactory.defaultKey)  // a FirstService
    /// ```
    public static var defaultKey: ServiceLocatorEasyKey<ServiceType> { ServiceLocatorEasyKey() }
}

extension ServiceParamsFactory {
    /// The easy params key of this factory's service, for `ServiceLocator.addService(key:factory:)`.
    ///
    /// ```swift
    /// let key = SecondServiceFactory.defaultKey  // ServiceLocatorParamsEasyKey<SecondService, SecondServiceParams?>
    /// locator.addService(key: key, factory: SecondServiceFactory())
    /// let second = try locator.tryService(key: key, params: SecondServiceParams(number: 2))
    /// ```
    public static var defaultKey: ServiceLocatorParamsEasyKey<ServiceType, ParamsType> {
        ServiceLocatorParamsEasyKey()
    }
}
