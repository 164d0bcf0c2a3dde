/// Injects a provider itself (rather than its service) from a container registered in
/// ``ServiceInjectResolver``.
///
/// ```swift
/// struct Dependencies {
///     @ServiceProviderInject(\Services.userService) var userServiceProvider
/// }
/// let service = Dependencies().userServiceProvider.getServiceOrFatal()
/// ```
///
/// The provider is injected when the wrapper is made if the container is registered, else
/// right after it is registered. A first read with no container registered stops the program,
/// naming this declaration's file and line.
@propertyWrapper
public struct ServiceProviderInject<Container, Provider> {
    /// The provider when it was injected as the wrapper was made, else the injection's cell.
    @usableFromInline let storage: InjectStorage<Provider>

    /// The storage of a wrapper that injects from the current registry as soon as the container
    /// is registered: specialized for its types, but not inlined into its owner. It takes
    /// `keyPath` and `convert` over (`consuming`), which the cell keeps.
    @inlinable @inline(never)
    static func waiting<Source>(
        for keyPath: consuming KeyPath<Container, Source>,
        file: StaticString,
        line: UInt,
        convert: consuming @escaping (Source) -> Provider
    ) -> InjectStorage<Provider> {
        let site = InjectSite(wrapper: .serviceProviderInject, file: file, line: line, reads: Source.self)
        let registry = ServiceInjectResolver.registry
        return InjectStorage(waitingFor: Container.self, in: registry, site: site, lazy: false) { box, _ in
            // The cell's `box` boxed it as an `InjectBox<Container>`.
            convert((box as! InjectBox<Container>).value[keyPath: keyPath])
        }
    }

    /// Injects `convert` applied to the value at `keyPath` in the registered `Container`.
    ///
    /// ```swift
    /// @ServiceProviderInject(
    ///     \Services.secondService, convert: { $0.convert(params: .init(value: "Fixed")) }
    /// )
    /// var fixedSecondServiceProvider  // ServiceProvider<SecondService>
    /// ```
    ///
    /// The building block of the other initializers, for libraries that inject their own
    /// wrappers of providers (the Objective-C style bridge injects its `ServiceProviderObjC`
    /// this way). The key path is taken as written (`@autoclosure`), as by `@ServiceInject`:
    /// with the container registered, no key path object is made.
    @inlinable
    public init<Source>(
        _ keyPath: @autoclosure () -> KeyPath<Container, Source>,
        file: StaticString = #fileID,
        line: UInt = #line,
        convert: @escaping (Source) -> Provider
    ) {
        // Specialized in the owner's initializer: with the container registered, the provider is
        // injected here, without a cell.
        if let box = ServiceInjectResolver.newest(Container.self) {
            storage = InjectStorage(injected: convert(box.value[keyPath: keyPath()]))
        } else {
            storage = Self.waiting(for: keyPath(), file: file, line: line, convert: convert)
        }
    }

    /// Injects the provider at `keyPath`, as the type its field is declared with (a
    /// `ServiceSafeProvider` stays one).
    ///
    /// ```swift
    /// @ServiceProviderInject(\Services.userService) var userServiceProvider
    /// ```
    @inlinable
    public init<Service>(
        _ keyPath: @autoclosure () -> KeyPath<Container, Provider>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Provider: ServiceProvider<Service> {
        self.init(keyPath(), file: file, line: line) { $0 }
    }

    /// Injects the optional provider at `keyPath`.
    ///
    /// ```swift
    /// @ServiceProviderInject(\Services.analytics)
    /// var analyticsProvider  // ServiceProvider<Analytics>?
    /// ```
    @inlinable
    public init<Service, Wrapped: ServiceProvider<Service>>(
        _ keyPath: @autoclosure () -> KeyPath<Container, Wrapped?>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Provider == Wrapped? {
        self.init(keyPath(), file: file, line: line) { $0 }
    }

    /// Injects the params provider at `keyPath`, as the type its field is declared with (a
    /// `ServiceParamsSafeProvider` stays one).
    ///
    /// ```swift
    /// @ServiceProviderInject(\Services.secondService) var secondServiceProvider
    /// ```
    @inlinable
    public init<Service, Params>(
        _ keyPath: @autoclosure () -> KeyPath<Container, Provider>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Provider: ServiceParamsProvider<Service, Params> {
        self.init(keyPath(), file: file, line: line) { $0 }
    }

    /// Injects the optional params provider at `keyPath`.
    ///
    /// ```swift
    /// @ServiceProviderInject(\Services.thirdService) var thirdServiceProvider
    /// ```
    @inlinable
    public init<Service, Params, Wrapped: ServiceParamsProvider<Service, Params>>(
        _ keyPath: @autoclosure () -> KeyPath<Container, Wrapped?>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Provider == Wrapped? {
        self.init(keyPath(), file: file, line: line) { $0 }
    }

    /// Injects the async provider at `keyPath`: its gets are awaited.
    ///
    /// ```swift
    /// struct ReportScreen {
    ///     @ServiceProviderInject(\Services.database) var databaseProvider
    ///     func load() async throws { _ = try await databaseProvider.getService() }
    /// }
    /// ```
    @inlinable
    public init<Service>(
        _ keyPath: @autoclosure () -> KeyPath<Container, ServiceAsyncProvider<Service>>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Provider == ServiceAsyncProvider<Service> {
        self.init(keyPath(), file: file, line: line) { $0 }
    }

    /// Injects the async params provider at `keyPath`: its gets are awaited.
    ///
    /// ```swift
    /// struct ReportScreen {
    ///     @ServiceProviderInject(\Services.reports) var reportsProvider
    ///     func load() async throws { _ = try await reportsProvider.getService(params: "May") }
    /// }
    /// ```
    @inlinable
    public init<Service, Params>(
        _ keyPath: @autoclosure () -> KeyPath<Container, ServiceAsyncParamsProvider<Service, Params>>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Provider == ServiceAsyncParamsProvider<Service, Params> {
        self.init(keyPath(), file: file, line: line) { $0 }
    }

    /// Injects the main-actor provider at `keyPath`: its gets run on the main actor.
    ///
    /// ```swift
    /// @MainActor struct MainScreen {
    ///     @ServiceProviderInject(\Services.theme) var themeProvider
    ///     func show() throws { _ = try themeProvider.getService() }
    /// }
    /// ```
    @inlinable
    public init<Service>(
        _ keyPath: @autoclosure () -> KeyPath<Container, ServiceMainActorProvider<Service>>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Provider == ServiceMainActorProvider<Service> {
        self.init(keyPath(), file: file, line: line) { $0 }
    }

    /// The injected provider.
    ///
    /// ```swift
    /// @ServiceProviderInject(\Services.userService) var userServiceProvider
    /// let service = try userServiceProvider.getService()  // a get of the injected provider, as its mode says
    /// ```
    @inlinable
    public var wrappedValue: Provider {
        storage.value
    }

    /// The injection state: `isReady` and `setReadyHandler(_:)`.
    ///
    /// ```swift
    /// @ServiceProviderInject(\Services.userService) var userServiceProvider
    /// print($userServiceProvider.isReady)  // true once a Services is registered
    /// ```
    public var projectedValue: InjectState<Provider> {
        storage.state
    }
}

extension ServiceProviderInject: Sendable where Provider: Sendable {}
