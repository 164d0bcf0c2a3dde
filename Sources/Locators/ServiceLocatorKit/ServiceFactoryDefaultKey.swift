extension ServiceFactory {
    /// The easy key of this factory's service, for `ServiceLocator.addService(key:factory:)`.
    ///
    /// A factory may declare its own `defaultKey` of a custom key type instead.
    public static var defaultKey: ServiceLocatorEasyKey<ServiceType> { ServiceLocatorEasyKey() }
}

extension ServiceParamsFactory {
    /// The easy params key of this factory's service, for `ServiceLocator.addService(key:factory:)`.
    public static var defaultKey: ServiceLocatorParamsEasyKey<ServiceType, ParamsType> {
        ServiceLocatorParamsEasyKey()
    }
}
