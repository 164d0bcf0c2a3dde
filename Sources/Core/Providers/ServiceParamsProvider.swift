/// A wrapper over a service made from params: a new service is made on every get.
///
/// ```swift
/// let provider = SecondServiceFactory().serviceProvider()
/// let service = try provider.getService(params: .init(number: 1))
/// let fixed: ServiceProvider<SecondService> = provider.convert(params: .init(number: 0))
/// ```
public class ServiceParamsProvider<ServiceType, ParamsType>: @unchecked Sendable {  // non-final, which Swift never checks; its lets are `Sendable`
    // Immutable; `serializer` is set only for safe providers.
    @usableFromInline let maker: ParamsMaker<ServiceType, ParamsType>
    @usableFromInline let serializer: Serializer?

    @usableFromInline
    init(maker: ParamsMaker<ServiceType, ParamsType>, serializer: Serializer?) {
        self.maker = maker
        self.serializer = serializer
    }

    /// A provider of `factory`'s service.
    ///
    /// ```swift
    /// let provider = ServiceParamsProvider(factory: SecondServiceFactory())
    /// ```
    public convenience init<Factory: ServiceParamsFactory & Sendable>(factory: Factory)
    where Factory.ServiceType == ServiceType, Factory.ParamsType == ParamsType {
        self.init(maker: ParamsMaker(factory: factory.makeService(params:)), serializer: nil)
    }

    /// A provider that makes the service with `factory`.
    ///
    /// ```swift
    /// let provider = ServiceParamsProvider<Greeter, String> { name in Greeter(name: name) }
    /// ```
    public convenience init(factory: @escaping @Sendable (ParamsType) throws -> ServiceType) {
        self.init(maker: ParamsMaker(factory: factory), serializer: nil)
    }

    /// A service made for `params`, or the ``ServiceObtainError`` saying why it cannot be.
    ///
    /// ```swift
    /// let service = try provider.getService(params: .init(number: 1))
    /// ```
    @inlinable @inline(__always)
    public final func getService(params: ParamsType) throws(ServiceObtainError) -> ServiceType {
        guard let serializer else {
            return try maker.make(params)
        }
        return try getSerialized(params: params, by: serializer)
    }

    /// The get of a safe provider, out of line: a get of a plain one is compiled without it.
    @usableFromInline @inline(never)
    final func getSerialized(params: ParamsType, by serializer: Serializer) throws(ServiceObtainError) -> ServiceType {
        try serializer.run(ServiceType.self, node: ObjectIdentifier(maker)) { () throws(ServiceObtainError) -> ServiceType in
            try maker.make(params)
        }
    }

    /// A service made for `params`, or the error, as a `Result`.
    ///
    /// ```swift
    /// switch provider.getServiceAsResult(params: .init(number: 1)) {
    /// case .success(let service): print(service.number)
    /// case .failure(let error): print(error)
    /// }
    /// ```
    @inlinable
    public final func getServiceAsResult(params: ParamsType) -> Result<ServiceType, ServiceObtainError> {
        Result { () throws(ServiceObtainError) -> ServiceType in try getService(params: params) }
    }

    /// A service made for `params`, or `nil` when it cannot be made.
    ///
    /// ```swift
    /// let service = provider.getServiceAsOptional(params: .init(number: 1))  // nil if it failed
    /// ```
    @inlinable
    public final func getServiceAsOptional(params: ParamsType) -> ServiceType? {
        try? getService(params: params)
    }

    /// A service made for `params`; when it cannot be made, stops the program with the error's
    /// `fatalMessage` at `file` and `line`.
    ///
    /// ```swift
    /// let service = provider.getServiceOrFatal(params: .init(number: 1))
    /// ```
    @inlinable
    public final func getServiceOrFatal(params: ParamsType, file: StaticString = #fileID, line: UInt = #line)
        -> ServiceType
    {
        getServiceAsResult(params: params).serviceOrFatal(file: file, line: line)
    }

    /// A service made for params whose type is only known at run time, as locators and
    /// Objective-C style callers have them.
    ///
    /// ```swift
    /// let made = provider.getServiceAsResult(untypedParams: SecondServiceParams(number: 1))
    /// let refused = provider.getServiceAsResult(untypedParams: "one")  // .failure: wrongParams
    /// ```
    ///
    /// `nil` params stand for `nil` when `ParamsType` is optional. Params that are not a
    /// `ParamsType` fail with `ServiceFactoryError.wrongParams` naming both types.
    @inlinable
    public final func getServiceAsResult(untypedParams params: Any?) -> Result<ServiceType, ServiceObtainError> {
        guard let typed = ParamsCast<ParamsType>.cast(params, takesForeignNil: maker.takesForeignNil) else {
            return .failure(wrongParams(params))
        }
        return getServiceAsResult(params: typed)
    }

    /// The error for params that are not a `ParamsType`; it is logged. For a `ParamsType` that
    /// takes no `nil`, a `nil` of any optional type (`Optional<Int>.none as Any`) is no params, as
    /// a plain `nil` is; an optional `ParamsType` takes a plain `nil`, so the error names the
    /// other optional type.
    @usableFromInline
    final func wrongParams(_ params: Any?) -> ServiceObtainError {
        let takesNil = ParamsType.self is any OptionalParams.Type
        let received: Any.Type? = params.flatMap {
            !takesNil && ($0 as? any OptionalParams)?.isNone == true ? nil : type(of: $0)
        }
        return .refused(ServiceType.self, .wrongParams(expected: ParamsType.self, received: received))
    }

    /// A provider of this service made with fixed `params` on every get.
    ///
    /// ```swift
    /// let fixed: ServiceProvider<SecondService> = provider.convert(params: .init(number: 0))
    /// let service = try fixed.getService()  // made with number 0
    /// ```
    ///
    /// A safe provider's converted provider is a ``ServiceSafeProvider`` that shares its
    /// serialization.
    public func convert(params: ParamsType) -> ServiceProvider<ServiceType> {
        let bound = ServiceProvider(source: .many(maker.bound(to: params)))
        guard let serializer else { return bound }
        return ServiceSafeProvider(serializing: bound, by: serializer)
    }
}

// MARK: - Optional params

/// A provider whose params are optional gets its service without params too, for `nil`, as
/// the locators and the Objective-C style wrappers get it.
///
/// ```swift
/// let profiles = ServiceParamsProvider<Profile, UserID?> { id in Profile(user: id) }
/// let guest = try profiles.getService()  // Profile(user: nil)
/// ```
extension ServiceParamsProvider where ParamsType: ExpressibleByNilLiteral {
    /// A service made for `nil` params, or the ``ServiceObtainError`` saying why it cannot be.
    ///
    /// ```swift
    /// let service = try provider.getService()  // the same as getService(params: nil)
    /// ```
    @inlinable
    public final func getService() throws(ServiceObtainError) -> ServiceType {
        try getService(params: nil)
    }

    /// A service made for `nil` params, or the error, as a `Result`.
    ///
    /// ```swift
    /// let result = provider.getServiceAsResult()  // made for nil params
    /// ```
    @inlinable
    public final func getServiceAsResult() -> Result<ServiceType, ServiceObtainError> {
        getServiceAsResult(params: nil)
    }

    /// A service made for `nil` params, or `nil` when it cannot be made.
    ///
    /// ```swift
    /// let service = provider.getServiceAsOptional()  // made for nil params; nil if it failed
    /// ```
    @inlinable
    public final func getServiceAsOptional() -> ServiceType? {
        getServiceAsOptional(params: nil)
    }

    /// A service made for `nil` params; when it cannot be made, stops the program with the
    /// error's `fatalMessage` at `file` and `line`.
    ///
    /// ```swift
    /// let service = provider.getServiceOrFatal()  // made for nil params
    /// ```
    @inlinable
    public final func getServiceOrFatal(file: StaticString = #fileID, line: UInt = #line) -> ServiceType {
        getServiceOrFatal(params: nil, file: file, line: line)
    }
}

// MARK: - Params left out

/// A get without params of a provider whose params are not optional does not compile, with a
/// message that says to pass them (rather than one asking for the params' type to take `nil`).
///
/// ```swift
/// let profiles = ServiceParamsProvider<Profile, UserID> { id in Profile(user: id) }
/// let profile = try profiles.getService(params: userID)  // profiles.getService() does not compile
/// ```
extension ServiceParamsProvider {
    /// Unavailable: this provider's params are not optional. Pass them: `getService(params:)`.
    ///
    /// ```swift
    /// let profile = try profiles.getService(params: userID)
    /// ```
    @available(*, unavailable, message: "this provider's params are not optional: pass them, as in getService(params:)")
    public final func getService() throws(ServiceObtainError) -> ServiceType { fatalError() }

    /// Unavailable: this provider's params are not optional. Pass them: `getServiceAsResult(params:)`.
    ///
    /// ```swift
    /// let result = profiles.getServiceAsResult(params: userID)
    /// ```
    @available(*, unavailable, message: "this provider's params are not optional: pass them, as in getServiceAsResult(params:)")
    public final func getServiceAsResult() -> Result<ServiceType, ServiceObtainError> { fatalError() }

    /// Unavailable: this provider's params are not optional. Pass them: `getServiceAsOptional(params:)`.
    ///
    /// ```swift
    /// let profile = profiles.getServiceAsOptional(params: userID)
    /// ```
    @available(*, unavailable, message: "this provider's params are not optional: pass them, as in getServiceAsOptional(params:)")
    public final func getServiceAsOptional() -> ServiceType? { fatalError() }

    /// Unavailable: this provider's params are not optional. Pass them: `getServiceOrFatal(params:)`.
    ///
    /// ```swift
    /// let profile = profiles.getServiceOrFatal(params: userID)
    /// ```
    @available(*, unavailable, message: "this provider's params are not optional: pass them, as in getServiceOrFatal(params:)")
    public final func getServiceOrFatal(file: StaticString = #fileID, line: UInt = #line) -> ServiceType { fatalError() }
}

/// Makes a params service; its identity is what the cycle check tracks, for its provider and
/// every provider `convert(params:)` made from it.
@usableFromInline
final class ParamsMaker<Service, Params>: Sendable {
    @usableFromInline let factory: @Sendable (Params) throws -> Service
    /// `ParamsCast<Params>.takesForeignNil`, decided once for the untyped get.
    @usableFromInline let takesForeignNil = ParamsCast<Params>.takesForeignNil

    init(factory: @escaping @Sendable (Params) throws -> Service) {
        self.factory = factory
    }

    deinit { KeptIdentities.released(self) }  // its identity may be kept (`KeptIdentities`)

    @inlinable @inline(__always)
    func make(_ params: Params) throws(ServiceObtainError) -> Service {
        try ThreadContext.withEntered(ObjectIdentifier(self), service: Service.self) {
            () throws(ServiceObtainError) -> Service in
            try FactoryCall.make(Service.self) { try factory(params) }
        }
    }

    /// The source of a provider of the service made with fixed `params`, which counts as this
    /// maker in the cycle check.
    func bound(to params: Params) -> ManySource<Service> {
        let factory = self.factory
        // The params are handed to every call of the factory, on any thread, as a kept service
        // is; captured as they are (see `Unchecked.swift`, "Values a closure captures").
        nonisolated(unsafe) let params = params
        return ManySource(countsAs: self) { try factory(params) }
    }
}

/// Casts untyped params to `Params`, letting a missing value stand for `nil` of an optional
/// type; the one reading of `Any?` params for every product.
///
/// Swift casts a `nil` of any optional type to every optional (and `Any`-like) type; here a `nil`
/// must be of `Params` itself, and a missing value stands for `nil` only when `Params` is
/// optional. Whether `Params` can take a foreign `nil` at all is a property of the type: callers
/// that cast often decide it once (`takesForeignNil`) and pass it in, so that params of a
/// concrete type cost one cast.
@usableFromInline
package enum ParamsCast<Params> {
    /// `params` as a `Params`, or `nil` when they are not one.
    @inlinable
    package static func cast(_ params: Any?, takesForeignNil: Bool = takesForeignNil) -> Params? {
        guard let params else { return missing() }
        guard let typed = params as? Params else { return nil }
        if takesForeignNil, isForeignNil(params) { return nil }
        return typed
    }

    /// Whether a `nil` of some other optional type casts to `Params` (an optional or `Any`-like
    /// type), so that a cast must also look at the dynamic type of the params.
    @usableFromInline
    package static var takesForeignNil: Bool {
        Optional<Int>.none as Any is Params || Optional<ForeignNilProbe>.none as Any is Params
    }

    /// `nil` of `Params` when it is optional: what a get without params is served with.
    @usableFromInline
    static func missing() -> Params? {
        guard let optionalType = Params.self as? any OptionalParams.Type else { return nil }
        return optionalType.noneValue as? Params
    }

    /// Whether `params` is a `nil` of another type than `Params`.
    @usableFromInline
    static func isForeignNil(_ params: Any) -> Bool {
        let paramsType = type(of: params)
        guard paramsType != Params.self, paramsType is any OptionalParams.Type else { return false }
        return (params as? any OptionalParams)?.isNone ?? false
    }
}

/// A type of its own, whose `nil` only an optional or `Any`-like type takes.
package struct ForeignNilProbe {}

/// Lets `ParamsCast` recognize optional types and their `nil` at run time.
package protocol OptionalParams {
    /// `nil` of this optional type.
    static var noneValue: Any { get }
    /// Whether this value is `nil`.
    var isNone: Bool { get }
}

extension Optional: OptionalParams {
    package static var noneValue: Any { Optional<Wrapped>.none as Any }
    package var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
