extension ServiceInject {
    /// Not available: `@ServiceInject` takes the key path of a provider in the container.
    ///
    /// It turns the compiler's "no exact matches in call to initializer" for a key path to
    /// anything else into a message that says what to write instead:
    ///
    /// ```swift
    /// @ServiceInject(\Services.settings) var settings            // a ServiceProvider: fine
    /// // Refused, each with a message that says what to write instead:
    /// // @ServiceInject(\Services.log) var log                   // a ServiceParamsProvider: use @ServiceParamsInject
    /// // @ServiceInject(\Services.settings) var provider: ServiceProvider<Settings>  // use @ServiceProviderInject
    /// // @ServiceInject(\Services.database) var database     // a ServiceAsyncProvider: use @ServiceProviderInject
    /// ```
    @available(
        *, unavailable,
        message: "@ServiceInject needs the key path of a ServiceProvider (or an optional one) in the container; use @ServiceParamsInject for a ServiceParamsProvider, @ServiceProviderInject to inject the provider itself (as for a ServiceAsyncProvider, a ServiceAsyncParamsProvider or a ServiceMainActorProvider, whose gets are awaited or run on the main actor)"
    )
    public init(
        _ keyPath: KeyPath<Container, Service>,
        lazyInject: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        fatalError("unavailable")
    }
}

extension ServiceParamsInject {
    /// Not available: `@ServiceParamsInject` takes the key path of a params provider in the
    /// container.
    ///
    /// It turns the compiler's "requires that 'ServiceProvider<Settings>' inherit from
    /// 'ServiceParamsProvider<Service, String>'" for the key path of a `ServiceProvider` into a
    /// message that says what to write instead:
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.log, params: "requests") var log  // a ServiceParamsProvider: fine
    /// // Refused, with a message that says what to write instead:
    /// // @ServiceParamsInject(\Services.settings, params: "x") var settings  // a ServiceProvider: use @ServiceInject
    /// ```
    @available(
        *, unavailable,
        message: "@ServiceParamsInject needs the key path of a ServiceParamsProvider (or an optional one) in the container; use @ServiceInject for a ServiceProvider, which takes no params, or @ServiceProviderInject to inject the provider itself"
    )
    public init<Provider: ServiceProvider<Service>>(
        _ keyPath: KeyPath<Container, Provider>,
        params: Params,
        lazyInject: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        fatalError("unavailable")
    }

    /// Not available: the same for the key path of an optional `ServiceProvider`.
    ///
    /// ```swift
    /// // @ServiceParamsInject(\Services.analytics, params: "x") var analytics  // use @ServiceInject
    /// ```
    @available(
        *, unavailable,
        message: "@ServiceParamsInject needs the key path of a ServiceParamsProvider (or an optional one) in the container; use @ServiceInject for a ServiceProvider, which takes no params, or @ServiceProviderInject to inject the provider itself"
    )
    public init<Wrapped, Provider: ServiceProvider<Wrapped>>(
        _ keyPath: KeyPath<Container, Provider?>,
        params: Params,
        lazyInject: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Service == Wrapped? {
        fatalError("unavailable")
    }
}
