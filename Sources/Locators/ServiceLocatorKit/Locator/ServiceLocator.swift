/// A dynamic container of services stored under typed keys.
///
/// ```swift
/// enum ServiceLocatorKeys {
///     static let lazyService = ServiceLocatorEasyKey<LazyService>()
/// }
///
/// let locator = ServiceLocator()
/// locator.addLazyService(key: ServiceLocatorKeys.lazyService) { LazyService() }
/// locator.setReadOnly()
/// let service = try locator.tryService(key: ServiceLocatorKeys.lazyService)
/// ```
///
/// Every service is kept as a `ServiceProvider`, so it is made as its provider says. The
/// locator is thread-safe, and a factory may get other services from the same locator. After
/// `setReadOnly()` changes are refused and a get takes no lock. A get that misses asks the
/// `parent` chain.
///
/// Subclass it to give an app a shared instance (see ``SharedServiceLocator``).
open class ServiceLocator: StorageBackedLocator, @unchecked Sendable {  // open, which Swift never checks; its let is `Sendable`
    // All state lives in `storage`, which synchronizes itself.
    @usableFromInline package let storage: LocatorStorage

    /// The kind of locator asked for the services this one lacks (``ServiceLocatorProtocol``).
    ///
    /// ```swift
    /// let app = ServiceLocator()
    /// let screen = ServiceLocator(parent: app)  // screen's gets that find nothing ask app
    /// ```
    public typealias ParentLocator = ServiceLocator

    /// A new, empty, writable locator that asks `parent` for the services it lacks.
    ///
    /// ```swift
    /// let app = ServiceLocator()
    /// let screen = ServiceLocator(parent: app)
    /// ```
    public required init(parent: ServiceLocator? = nil) {
        storage = LocatorStorage(parent: parent.map { LocatorParent($0) })
    }

    // MARK: - Adding
    //
    // Every change takes the caller's `file` and `line` (`#fileID` and `#line` by default): the
    // assertion of a change refused by a read-only locator names them.

    /// Stores `provider` under `key` (the recommended way to add a service).
    ///
    /// ```swift
    /// let provider = FirstServiceFactory().serviceProvider()
    /// locator.addService(key: ServiceLocatorKeys.firstService, provider: provider)
    /// ```
    ///
    /// - Returns: `ServiceLocatorError.readOnly` when the locator is read-only; the assertion of
    ///   the refusal (see `setReadOnly`) names the caller's `file` and `line`.
    @discardableResult
    public final func addService<Key: ServiceLocatorKey>(
        key: Key,
        provider: ServiceProvider<Key.ServiceType>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        storage.add(key.keyID, entry: provider, owner: self, at: CallSite(file: file, line: line))
    }

    /// Stores the params `provider` under `key`. When its params are optional, the service can
    /// also be got without params.
    ///
    /// ```swift
    /// let provider = SecondServiceFactory().serviceProvider()
    /// locator.addService(key: ServiceLocatorKeys.secondService, provider: provider)
    /// ```
    @discardableResult
    public final func addService<Key: ServiceLocatorParamsKey>(
        key: Key,
        provider: ServiceParamsProvider<Key.ServiceType, Key.ParamsType>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        let entry = ParamsServiceEntry(paramsProvider: provider)
        return storage.add(key.keyID, entry: entry, owner: self, at: CallSite(file: file, line: line))
    }

    /// Stores an existing `service` under `key` (like an `atOne` factory).
    ///
    /// ```swift
    /// locator.addService(key: ServiceLocatorKeys.firstService, service: FirstService())
    /// ```
    @discardableResult
    public final func addService<Key: ServiceLocatorKey>(
        key: Key,
        service: Key.ServiceType,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        storage.add(key.keyID, service: service, owner: self, at: CallSite(file: file, line: line))
    }

    /// Stores a provider of `factory` under `key`.
    ///
    /// ```swift
    /// locator.addService(key: ServiceLocatorKeys.firstService, factory: FirstServiceFactory())
    /// ```
    @discardableResult
    public final func addService<Key: ServiceLocatorKey, Factory: ServiceFactory & Sendable>(
        key: Key,
        factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError>
    where Factory.ServiceType == Key.ServiceType {
        addService(key: key, provider: ServiceProvider(factory: factory), file: file, line: line)
    }

    /// Stores a params provider of `factory` under `key`.
    ///
    /// ```swift
    /// locator.addService(key: ServiceLocatorKeys.secondService, factory: SecondServiceFactory())
    /// ```
    @discardableResult
    public final func addService<Key: ServiceLocatorParamsKey, Factory: ServiceParamsFactory & Sendable>(
        key: Key,
        factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError>
    where Factory.ServiceType == Key.ServiceType, Factory.ParamsType == Key.ParamsType {
        addService(key: key, provider: ServiceParamsProvider(factory: factory), file: file, line: line)
    }

    /// Stores a params provider of `factory`, whose params are the optional of the key's, under
    /// `key`: the service is got with the key's params or, as the factory allows, without.
    ///
    /// ```swift
    /// // SecondServiceFactory makes its service from `SecondServiceParams?`
    /// let key = ServiceLocatorParamsEasyKey<SecondService, SecondServiceParams>()
    /// locator.addService(key: key, factory: SecondServiceFactory())
    /// ```
    @discardableResult
    public final func addService<Key: ServiceLocatorParamsKey, Factory: ServiceParamsFactory & Sendable>(
        key: Key,
        factory: Factory,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError>
    where Factory.ServiceType == Key.ServiceType, Factory.ParamsType == Key.ParamsType? {
        let entry = ParamsServiceEntry(paramsProvider: factory.serviceProvider())
        return storage.add(key.keyID, entry: entry, owner: self, at: CallSite(file: file, line: line))
    }

    /// Stores a service made by `factory` on the first get and kept (like a `lazy` factory).
    ///
    /// ```swift
    /// locator.addLazyService(key: ServiceLocatorKeys.lazyService) { LazyService() }
    /// ```
    @discardableResult
    public final func addLazyService<Key: ServiceLocatorKey>(
        key: Key,
        _ factory: @escaping @Sendable () throws -> Key.ServiceType,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(key: key, provider: ServiceProvider(mode: .lazy, factory: factory), file: file, line: line)
    }

    /// Stores a service made anew by `manyFactory` on every get (like a `many` factory); also
    /// written `addService(key:) { ... }`.
    ///
    /// ```swift
    /// locator.addService(key: ServiceLocatorKeys.firstService) { FirstService() }
    /// ```
    @discardableResult
    public final func addService<Key: ServiceLocatorKey>(
        key: Key,
        manyFactory: @escaping @Sendable () throws -> Key.ServiceType,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        addService(key: key, provider: ServiceProvider(mode: .many, factory: manyFactory), file: file, line: line)
    }

    /// Removes the service stored under `key` in this locator (parents are not changed).
    ///
    /// ```swift
    /// locator.removeService(key: ServiceLocatorKeys.firstService)
    /// ```
    ///
    /// - Returns: `ServiceLocatorError.readOnly` when the locator is read-only (nothing is
    ///   removed; the assertion of the refusal names the caller's `file` and `line`),
    ///   `.serviceNotFound` when nothing was stored under `key` or the key's slot holds a
    ///   service of another type (which stays; the error's `stored` names it),
    ///   `.storedInParent` when nothing is stored under `key` here but a parent stores it.
    @discardableResult
    public final func removeService<Key: ServiceLocatorKey>(
        key: Key,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Result<Void, ServiceLocatorError> {
        storage.remove(key.keyID, serviceType: Key.ServiceType.self, owner: self, at: CallSite(file: file, line: line))
    }

    // MARK: - Getting

    /// The service stored under `key`, or `nil` when it is missing or cannot be made.
    ///
    /// ```swift
    /// let first = locator.getService(key: ServiceLocatorKeys.firstService)
    /// ```
    @inlinable @inline(__always)
    public final func getService<Key: ServiceLocatorKey>(key: Key) -> Key.ServiceType? {
        storage.optionalService(key.keyID, as: Key.ServiceType.self)
    }

    /// The service stored under `key` made from `params`, or `nil` when it cannot be had.
    ///
    /// ```swift
    /// let params = SecondServiceParams(number: 1)
    /// let second = locator.getService(key: ServiceLocatorKeys.secondService, params: params)
    /// ```
    @inlinable
    public final func getService<Key: ServiceLocatorParamsKey>(key: Key, params: Key.ParamsType) -> Key.ServiceType? {
        try? storage.service(key.keyID, as: Key.ServiceType.self, params: params)
    }

    /// The service stored under `key`.
    ///
    /// ```swift
    /// let lazy = try locator.tryService(key: ServiceLocatorKeys.lazyService)
    /// ```
    ///
    /// - Throws: `ServiceLocatorError.serviceNotFound` when nothing is stored under `key` here or
    ///   in a parent, `.wrongParams` when the service needs params, or the provider's
    ///   `ServiceObtainError` when its factory fails.
    @inlinable
    public final func tryService<Key: ServiceLocatorKey>(key: Key) throws -> Key.ServiceType {
        try storage.explaining { try storage.service(key.keyID, as: Key.ServiceType.self) }
    }

    /// The service stored under `key` made from `params`.
    ///
    /// ```swift
    /// let params = SecondServiceParams(number: 1)
    /// let second = try locator.tryService(key: ServiceLocatorKeys.secondService, params: params)
    /// ```
    ///
    /// - Throws: `ServiceLocatorError.serviceNotFound`, `.wrongParams` when the stored service
    ///   takes other params, or the provider's `ServiceObtainError`.
    @inlinable
    public final func tryService<Key: ServiceLocatorParamsKey>(key: Key, params: Key.ParamsType) throws
        -> Key.ServiceType
    {
        try storage.explaining { try storage.service(key.keyID, as: Key.ServiceType.self, params: params) }
    }

    /// The service stored under `key`, or the error, as a `Result`: a `ServiceLocatorError`, or
    /// the `ServiceObtainError` of a factory that failed (as `tryService` throws them).
    ///
    /// ```swift
    /// switch locator.getServiceAsResult(key: ServiceLocatorKeys.firstService) {
    /// case .success(let first): print(first)
    /// case .failure(let error): print(error)
    /// }
    /// ```
    @inlinable
    public final func getServiceAsResult<Key: ServiceLocatorKey>(key: Key) -> Result<Key.ServiceType, any Error> {
        Result { try storage.explaining { try storage.service(key.keyID, as: Key.ServiceType.self) } }
    }

    /// The provider that gives the service under `key` without params (for a params service
    /// with optional params: the one made with `nil` params), or `nil`.
    ///
    /// ```swift
    /// let provider = locator.getServiceProvider(key: ServiceLocatorKeys.firstService)
    /// ```
    @inlinable
    public final func getServiceProvider<Key: ServiceLocatorKey>(key: Key) -> ServiceProvider<Key.ServiceType>? {
        storage.plainProvider(key.keyID, as: Key.ServiceType.self)
    }

    /// The params provider stored under `key`, or `nil`.
    ///
    /// ```swift
    /// let provider = locator.getServiceProvider(key: ServiceLocatorKeys.secondService)
    /// let second = try provider?.getService(params: SecondServiceParams(number: 1))
    /// ```
    public final func getServiceProvider<Key: ServiceLocatorParamsKey>(key: Key)
        -> ServiceParamsProvider<Key.ServiceType, Key.ParamsType>?
    {
        try? storage.paramsProvider(key.keyID, as: Key.ServiceType.self, params: Key.ParamsType.self)
    }

    /// The service under `key`, as `tryService(key:)` gives it, without the hint of a miss
    /// (`LocatorStorage.explaining`): for an Objective-C style get, which adds it only when it
    /// hands the error over.
    @usableFromInline
    package final func unexplainedService<Key: ServiceLocatorKey>(key: Key) throws -> Key.ServiceType {
        try storage.service(key.keyID, as: Key.ServiceType.self)
    }

    /// The service under `key` as `Any`, for callers with untyped params (Objective-C style
    /// wrappers); `nil` params means none.
    package final func anyService<Key: ServiceLocatorKey>(key: Key, params: Any?) throws -> Any {
        try storage.anyService(key.keyID, serviceType: Key.ServiceType.self, params: params)
    }
}
