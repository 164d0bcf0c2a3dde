/// Injects a service made by a params provider of a container registered in
/// ``ServiceInjectResolver``, with params given in the attribute or later with
/// `$property.setParameters(_:lazyInject:)`.
///
/// ```swift
/// struct Dependencies {
///     @ServiceParamsInject(\Services.firstService, params: .init(value: "Default")) var firstService
///     @ServiceParamsInject(\Services.secondService, lazyInject: true) var secondService
///
///     init(secondValue: String) {
///         $secondService.setParameters(.init(value: secondValue))
///     }
/// }
/// ```
///
/// Until params are given the service is not injected; a first read without params, or with no
/// container registered, stops the program naming this declaration's file and line. Otherwise
/// it behaves as `@ServiceInject`.
@propertyWrapper
public struct ServiceParamsInject<Container, Service, Params> {
    @usableFromInline let early: Service?
    @usableFromInline let cell: InjectCell<Service>
    // The same cell for reads, which need not retain it: `cell` keeps it alive as long as the
    // wrapper is.
    @usableFromInline let reader: UnretainedReference<InjectCell<Service>>

    // Specialized for its types in the owner's initializer, as the wrapper's first read and
    // `setParameters` are, but not inlined into it.
    @inlinable @inline(never)
    init(
        params: Params?,
        hasParams: Bool,
        lazyInject: Bool,
        file: StaticString,
        line: UInt,
        make: @escaping (Container, Params, InjectSite) -> Service
    ) {
        let site = InjectSite(wrapper: .serviceParamsInject, file: file, line: line)
        let cell = InjectCell<Service>(
            Container.self,
            box: InjectBox<Container>.boxing,
            in: ServiceInjectResolver.registry,
            site: site,
            paramsType: Params.self,
            lazyInject: lazyInject
        ) { box, cell in
            // The cell's `box` boxed it as an `InjectBox<Container>`; only `setParameters`
            // gives params, as a `Params`, and the cell injects only once they are given.
            make((box as! InjectBox<Container>).value, cell.givenParams as! Params, cell.site)
        }
        self.cell = cell
        self.reader = UnretainedReference(cell)
        if hasParams, let params {
            self.early = cell.setParameters(params, lazyInject: nil, call: site)
        } else {
            self.early = nil
        }
    }

    /// Injects the service made with `params` by the provider at `keyPath` in the registered
    /// `Container`.
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.firstService, params: .init(value: "Default"))
    /// var firstService
    /// ```
    @inlinable
    public init<Provider: ServiceParamsProvider<Service, Params>>(
        _ keyPath: KeyPath<Container, Provider>,
        params: Params,
        lazyInject: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(params: params, hasParams: true, lazyInject: lazyInject, file: file, line: line, make: Self.making(keyPath))
    }

    /// Injects the service of the provider at `keyPath` once params are given with
    /// `$property.setParameters(_:lazyInject:)`.
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.secondService) var secondService
    /// // later: $secondService.setParameters(.init(value: "Custom"))
    /// ```
    @inlinable
    public init<Provider: ServiceParamsProvider<Service, Params>>(
        _ keyPath: KeyPath<Container, Provider>,
        lazyInject: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(params: nil, hasParams: false, lazyInject: lazyInject, file: file, line: line, make: Self.making(keyPath))
    }

    /// Injects the service made with `params` by the optional provider at `keyPath`: `nil` when
    /// the container has no provider there.
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.thirdService, params: .init(value: "Default"))
    /// var thirdService  // ThirdService?
    /// ```
    @inlinable
    public init<Wrapped, Provider: ServiceParamsProvider<Wrapped, Params>>(
        _ keyPath: KeyPath<Container, Provider?>,
        params: Params,
        lazyInject: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Service == Wrapped? {
        self.init(params: params, hasParams: true, lazyInject: lazyInject, file: file, line: line, make: Self.making(keyPath))
    }

    /// Injects the service of the optional provider at `keyPath` once params are given: `nil`
    /// when the container has no provider there.
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.thirdService) var thirdService  // ThirdService?
    /// // later: $thirdService.setParameters(.init(value: "Custom"))
    /// ```
    @inlinable
    public init<Wrapped, Provider: ServiceParamsProvider<Wrapped, Params>>(
        _ keyPath: KeyPath<Container, Provider?>,
        lazyInject: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Service == Wrapped? {
        self.init(params: nil, hasParams: false, lazyInject: lazyInject, file: file, line: line, make: Self.making(keyPath))
    }

    /// Makes the service with the provider at `keyPath`.
    @inlinable
    static func making<Provider: ServiceParamsProvider<Service, Params>>(_ keyPath: KeyPath<Container, Provider>)
        -> (Container, Params, InjectSite) -> Service
    {
        { ServiceInjectProviding.service($0[keyPath: keyPath], params: $1, site: $2) }
    }

    /// Makes the service with the optional provider at `keyPath`: `nil` when there is none.
    @inlinable
    static func making<Wrapped, Provider: ServiceParamsProvider<Wrapped, Params>>(
        _ keyPath: KeyPath<Container, Provider?>
    ) -> (Container, Params, InjectSite) -> Service where Service == Wrapped? {
        { container, params, site in
            container[keyPath: keyPath].map { ServiceInjectProviding.service($0, params: params, site: site) }
        }
    }

    /// The injected service.
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.firstService, params: .init(value: "Default")) var firstService
    /// let service = firstService  // made by the provider with the params "Default"
    /// ```
    @inlinable
    public var wrappedValue: Service {
        if let early { return early }
        return InjectCell.value(of: reader)
    }

    /// The injection state and `setParameters(_:lazyInject:)`.
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.secondService, lazyInject: true) var secondService
    /// $secondService.setParameters(.init(value: "Custom"))  // made with them at the first read
    /// ```
    public var projectedValue: ParamsInjectState<Service, Params> {
        ParamsInjectState(cell: cell)
    }
}

extension ServiceParamsInject: Sendable where Service: Sendable, Params: Sendable {}
