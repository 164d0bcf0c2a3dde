/// A dynamic container of services stored by their type: one service per type.
///
/// ```swift
/// let locator = ServiceEasyLocator()
/// locator.addService(factory: LazyServiceFactory())
/// locator.addService { ThirdService() }
/// locator.setReadOnly()
///
/// let lazy: LazyService = try locator.tryService()
/// let third = locator.getService(serviceType: ThirdService.self)
/// ```
///
/// A service is stored under the type it is added as: add `service as SomeProtocol` to get it
/// by `SomeProtocol.self`. The slot is the type's identity, so a get builds no string and costs
/// the same whatever the number of services. Every service is kept as a `ServiceProvider`. The
/// locator is thread-safe, and a factory may get other services from the same locator. After
/// `setReadOnly()` changes are refused and a get takes no lock. A get that misses asks the
/// `parent` chain.
///
/// Subclass it to give an app a shared instance (see `SharedServiceLocator`).
open class ServiceEasyLocator: StorageBackedLocator, @unchecked Sendable {  // open, which Swift never checks; its let is `Sendable`
    // All state lives in `storage`, which synchronizes itself.
    @usableFromInline package let storage: LocatorStorage

    /// The kind of locator asked for the services this one lacks (`ServiceLocatorProtocol`).
    ///
    /// ```swift
    /// let app = ServiceEasyLocator()
    /// let screen = ServiceEasyLocator(parent: app)  // screen's gets that find nothing ask app
    /// ```
    public typealias ParentLocator = ServiceEasyLocator

    /// A new, empty, writable locator that asks `parent` for the services it lacks.
    ///
    /// ```swift
    /// let app = ServiceEasyLocator()
    /// let screen = ServiceEasyLocator(parent: app)
    /// ```
    public required init(parent: ServiceEasyLocator? = nil) {
        storage = LocatorStorage(parent: parent.map { LocatorParent($0) })
    }

    /// The slot of a `type` service: the type itself.
    @inlinable @inline(__always)
    static func id<Service>(_ type: Service.Type) -> ServiceLocatorKeyID {
        ServiceLocatorKeyID(serviceType: type)
    }

    // MARK: - Adding
    //
    // Every change takes the caller's `file` and `line` (`#fileID` and `#line` by default): the
    // assertion of a change refused by a read-only locator names them.

    /// Stores `provider` under its service type (the recommended way to add a service).
    ///
    /// ```swift
    /// locator.addService(provider: LazyServiceFactory().serviceProvider())
    /// ```
    ///
    /// - Returns: `ServiceLocatorError.readOnly` when the locator is read-only; the assertion of
    ///   the refusal (see `setReadOnly`) names the caller's `file` and `line`.
    @discardableResult
    public final func addService<Service>(
        provider: ServiceProvider<Service>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        storage.add(Self.id(Service.self), entry: provider, owner: self, at: CallSite(file: file, line: line))
    }

    /// Stores the params `provider` under its service type. When its params are optional, the
    /// service can also be got without params.
    ///
    /// ```swift
    /// locator.addService(provider: SecondServiceFactory().serviceProvider())
    /// ```
    @discardableResult
    public final func addService<Service, Params>(
        provider: ServiceParamsProvider<Service, Params>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        let entry = ParamsServiceEntry(paramsProvider: provider)
        return storage.add(Self.id(Service.self), entry: entry, owner: self, at: CallSite(file: file, line: line))
    }

    // A provider or a factory passed without its label also fits `addService(_ service:)`,
    // which would store the provider or the factory itself, under its own type, so that every
    // get of its service misses. Swift never picks an `unavailable` overload while an available
    // one fits, so the overloads below are deprecated instead: being the closer fit, they are
    // picked and warn. Those of a provider and of a `Sendable` factory add what the caller meant,
    // with the label to write. A factory that is not `Sendable` cannot be added as one (the
    // labelled add takes no other), so its overloads store it as `addService(_:)` would and name
    // the safe provider that takes it. A type that is both kinds of factory has an overload of
    // its own, `Sendable` or not, as the two others would be equally close.

    /// Adds `provider` as `addService(provider:)` does; write the label.
    ///
    /// ```swift
    /// locator.addService(provider: profileProvider)  // not addService(profileProvider)
    /// ```
    @available(*, deprecated, renamed: "addService(provider:file:line:)", message: "a provider is added with addService(provider:)")
    @discardableResult
    public final func addService<Service>(
        _ provider: ServiceProvider<Service>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(provider: provider, file: file, line: line)
    }

    /// Adds the params `provider` as `addService(provider:)` does; write the label.
    ///
    /// ```swift
    /// locator.addService(provider: imageProvider)  // not addService(imageProvider)
    /// ```
    @available(*, deprecated, renamed: "addService(provider:file:line:)", message: "a params provider is added with addService(provider:)")
    @discardableResult
    public final func addService<Service, Params>(
        _ provider: ServiceParamsProvider<Service, Params>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(provider: provider, file: file, line: line)
    }

    /// Adds a provider of `factory` as `addService(factory:)` does; write the label.
    ///
    /// ```swift
    /// locator.addService(factory: ProfileFactory())  // not addService(ProfileFactory())
    /// ```
    @available(*, deprecated, renamed: "addService(factory:file:line:)", message: "a factory is added with addService(factory:)")
    @discardableResult
    public final func addService<Factory: ServiceFactory & Sendable>(
        _ factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(factory: factory, file: file, line: line)
    }

    /// Adds a params provider of `factory` as `addService(factory:)` does; write the label.
    ///
    /// ```swift
    /// locator.addService(factory: ImageFactory())  // not addService(ImageFactory())
    /// ```
    @available(*, deprecated, renamed: "addService(factory:file:line:)", message: "a params factory is added with addService(factory:)")
    @discardableResult
    public final func addService<Factory: ServiceParamsFactory & Sendable>(
        _ factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(factory: factory, file: file, line: line)
    }

    /// Stores `factory` itself as a value, as `addService(_:)` stores any value: a type that is
    /// both a plain and a params factory is neither kind of provider until you say which. Make
    /// the provider you mean and add it.
    ///
    /// ```swift
    /// locator.addService(provider: ServiceParamsProvider(factory: BothKindsFactory()))
    /// ```
    @available(*, deprecated, message: "a type that is both a ServiceFactory and a ServiceParamsFactory is stored as a value; add the provider you mean with addService(provider:)")
    @discardableResult
    public final func addService<Factory: ServiceFactory & ServiceParamsFactory & Sendable>(
        _ factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        store(factory, file: file, line: line)
    }

    /// Stores `factory` itself as a value, as `addService(_:)` stores any value: a factory that is
    /// not `Sendable` cannot be made the provider `addService(factory:)` makes, whose factory
    /// runs on any thread. A safe provider serializes its factory's calls, so it takes one.
    ///
    /// ```swift
    /// locator.addService(provider: CountingFactory().serviceSafeProvider())  // not addService(CountingFactory())
    /// ```
    @available(*, deprecated, message: "a factory that is not Sendable is stored as a value, not as its provider; add addService(provider: factory.serviceSafeProvider()), or make it Sendable and add it with addService(factory:)")
    @discardableResult
    public final func addService<Factory: ServiceFactory>(
        _ factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        store(factory, file: file, line: line)
    }

    /// Stores `factory` itself as a value, as `addService(_:)` stores any value: a params factory
    /// that is not `Sendable` cannot be made the provider `addService(factory:)` makes, whose
    /// factory runs on any thread. A safe provider serializes its factory's calls, so it takes
    /// one.
    ///
    /// ```swift
    /// locator.addService(provider: CountingImageFactory().serviceSafeProvider())  // not addService(CountingImageFactory())
    /// ```
    @available(*, deprecated, message: "a params factory that is not Sendable is stored as a value, not as its provider; add addService(provider: factory.serviceSafeProvider()), or make it Sendable and add it with addService(factory:)")
    @discardableResult
    public final func addService<Factory: ServiceParamsFactory>(
        _ factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        store(factory, file: file, line: line)
    }

    /// Stores `factory` itself as a value, as `addService(_:)` stores any value: a type that is
    /// both a plain and a params factory, and not `Sendable`, is no provider until you say which.
    ///
    /// ```swift
    /// locator.addService(provider: ServiceParamsSafeProvider(factory: BothKindsCountingFactory()))
    /// ```
    @available(*, deprecated, message: "a type that is both a ServiceFactory and a ServiceParamsFactory, and not Sendable, is stored as a value; add the safe provider you mean with addService(provider:)")
    @discardableResult
    public final func addService<Factory: ServiceFactory & ServiceParamsFactory>(
        _ factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        store(factory, file: file, line: line)
    }

    /// Stores an existing `service` under the type it is passed as (like an `atOne` factory):
    /// `addService(shared as SharedServicing)` is got by `SharedServicing.self`.
    ///
    /// ```swift
    /// locator.addService(ThirdService())
    /// ```
    @discardableResult
    public final func addService<Service>(
        _ service: Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        store(service, file: file, line: line)
    }

    /// Stores `service` under the type it is passed as: what `addService(_:)` does, whatever
    /// overload was picked. Always inlined: called, it cost every add 19 instructions more
    /// (the yardstick's `build N=1000`, 1,488,614 instructions against 1,507,614).
    @inline(__always)
    private func store<Service>(_ service: Service, file: StaticString, line: UInt) -> Result<Void, ServiceLocatorError> {
        storage.add(Self.id(Service.self), service: service, owner: self, at: CallSite(file: file, line: line))
    }

    /// Stores a provider of `factory` under its service type.
    ///
    /// ```swift
    /// locator.addService(factory: LazyServiceFactory())
    /// ```
    @discardableResult
    public final func addService<Factory: ServiceFactory & Sendable>(
        factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(provider: ServiceProvider(factory: factory), file: file, line: line)
    }

    /// Stores a params provider of `factory` under its service type.
    ///
    /// ```swift
    /// locator.addService(factory: SecondServiceFactory())
    /// ```
    @discardableResult
    public final func addService<Factory: ServiceParamsFactory & Sendable>(
        factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(provider: ServiceParamsProvider(factory: factory), file: file, line: line)
    }

    /// Stores a service made by `factory` on the first get and kept (like a `lazy` factory).
    ///
    /// ```swift
    /// locator.addLazyService { LazyService() }
    /// ```
    @discardableResult
    public final func addLazyService<Service>(
        _ factory: @escaping @Sendable () throws -> Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(provider: ServiceProvider(mode: .lazy, factory: factory), file: file, line: line)
    }

    /// Stores a service made anew by `manyFactory` on every get (like a `many` factory); also
    /// written `addService { ... }`.
    ///
    /// ```swift
    /// locator.addService { ThirdService() }
    /// ```
    @discardableResult
    public final func addService<Service>(
        manyFactory: @escaping @Sendable () throws -> Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(provider: ServiceProvider(mode: .many, factory: manyFactory), file: file, line: line)
    }

    /// Removes the `serviceType` service from this locator (parents are not changed).
    ///
    /// ```swift
    /// locator.removeService(serviceType: ThirdService.self)
    /// ```
    ///
    /// - Returns: `ServiceLocatorError.readOnly` when the locator is read-only (nothing is
    ///   removed; the assertion of the refusal names the caller's `file` and `line`),
    ///   `.serviceNotFound` when no such service was stored, `.storedInParent` when it is not
    ///   stored here but a parent stores it.
    @discardableResult
    public final func removeService<Service>(
        serviceType: Service.Type,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        let site = CallSite(file: file, line: line)
        return storage.remove(Self.id(Service.self), serviceType: Service.self, owner: self, at: site)
    }

    // MARK: - Getting

    /// The service of the inferred type, or `nil` when it is missing or cannot be made.
    ///
    /// ```swift
    /// let third: ThirdService? = locator.getService()
    /// ```
    @inlinable @inline(__always)
    public final func getService<Service>() -> Service? {
        storage.optionalService(Self.id(Service.self), as: Service.self)
    }

    /// The `serviceType` service, or `nil` when it is missing or cannot be made.
    ///
    /// ```swift
    /// let third = locator.getService(serviceType: ThirdService.self)
    /// ```
    @inlinable @inline(__always)
    public final func getService<Service>(serviceType: Service.Type) -> Service? {
        storage.optionalService(Self.id(Service.self), as: Service.self)
    }

    /// The service of the inferred type made from `params`, or `nil` when it cannot be had.
    ///
    /// ```swift
    /// let second: SecondService? = locator.getService(params: SecondServiceParams(number: 1))
    /// ```
    @inlinable
    public final func getService<Service, Params>(params: Params) -> Service? {
        try? storage.service(Self.id(Service.self), as: Service.self, params: params)
    }

    /// The `serviceType` service made from `params`, or `nil` when it cannot be had.
    ///
    /// ```swift
    /// let params = SecondServiceParams(number: 1)
    /// let second = locator.getService(serviceType: SecondService.self, params: params)
    /// ```
    @inlinable
    public final func getService<Service, Params>(serviceType: Service.Type, params: Params) -> Service? {
        try? storage.service(Self.id(Service.self), as: Service.self, params: params)
    }

    /// The service of the inferred type.
    ///
    /// ```swift
    /// let lazy: LazyService = try locator.tryService()
    /// ```
    ///
    /// - Throws: `ServiceLocatorError.serviceNotFound` when it is stored neither here nor in a
    ///   parent, `.wrongParams` when it needs params, or the provider's `ServiceObtainError`
    ///   when its factory fails.
    @inlinable
    public final func tryService<Service>() throws -> Service {
        try storage.explaining { try storage.service(Self.id(Service.self), as: Service.self) }
    }

    /// The `serviceType` service; throws as `tryService()`.
    ///
    /// ```swift
    /// let lazy = try locator.tryService(serviceType: LazyService.self)
    /// ```
    @inlinable
    public final func tryService<Service>(serviceType: Service.Type) throws -> Service {
        try storage.explaining { try storage.service(Self.id(Service.self), as: Service.self) }
    }

    /// The service of the inferred type made from `params`.
    ///
    /// ```swift
    /// let second: SecondService = try locator.tryService(params: SecondServiceParams(number: 1))
    /// ```
    ///
    /// Params of another type than the factory's are cast when they fit (a `String` for
    /// `String?`), and refused with `ServiceLocatorError.wrongParams` when not.
    @inlinable
    public final func tryService<Service, Params>(params: Params) throws -> Service {
        try storage.explaining { try storage.service(Self.id(Service.self), as: Service.self, params: params) }
    }

    /// The `serviceType` service made from `params`; throws as `tryService(params:)`.
    ///
    /// ```swift
    /// let params = SecondServiceParams(number: 1)
    /// let second = try locator.tryService(serviceType: SecondService.self, params: params)
    /// ```
    @inlinable
    public final func tryService<Service, Params>(serviceType: Service.Type, params: Params) throws -> Service {
        try storage.explaining { try storage.service(Self.id(Service.self), as: Service.self, params: params) }
    }

    /// The service of the inferred type, or the error, as a `Result`: a `ServiceLocatorError`,
    /// or the `ServiceObtainError` of a factory that failed (as `tryService` throws them).
    ///
    /// ```swift
    /// let result = locator.getServiceAsResult(serviceType: LazyService.self)
    /// let lazy = try result.get()
    /// ```
    @inlinable
    public final func getServiceAsResult<Service>(serviceType: Service.Type = Service.self) -> Result<Service, any Error> {
        Result { try storage.explaining { try storage.service(Self.id(Service.self), as: Service.self) } }
    }

    /// The provider that gives the service without params (for a params service with optional
    /// params: the one made with `nil` params), or `nil`.
    ///
    /// ```swift
    /// let provider = locator.getServiceProvider(serviceType: LazyService.self)
    /// ```
    @inlinable
    public final func getServiceProvider<Service>(serviceType: Service.Type = Service.self) -> ServiceProvider<Service>? {
        storage.plainProvider(Self.id(Service.self), as: Service.self)
    }

    /// The params provider of the service, or `nil`.
    ///
    /// ```swift
    /// let provider = locator.getServiceProvider(
    ///     serviceType: SecondService.self, paramsType: SecondServiceParams?.self
    /// )
    /// ```
    public final func getServiceProvider<Service, Params>(
        serviceType: Service.Type = Service.self,
        paramsType: Params.Type = Params.self
    ) -> ServiceParamsProvider<Service, Params>? {
        try? storage.paramsProvider(Self.id(Service.self), as: Service.self, params: Params.self)
    }

    /// The `serviceType` service as `Any`, for callers that know the type only at run time
    /// (Objective-C style wrappers); `nil` params means none.
    package final func anyService(serviceType: Any.Type, params: Any?) throws -> Any {
        try storage.anyService(ServiceLocatorKeyID(serviceType: serviceType), serviceType: serviceType, params: params)
    }
}
