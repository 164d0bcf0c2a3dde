#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A wrapper over a service made from params: a new service is made on every get.
///
/// ```swift
/// let provider = SecondServiceFactory().serviceProvider()
/// let service = try provider.getService(params: .init(number: 1))
/// let fixed: ServiceProvider<SecondService> = provider.convert(params: .init(number: 0))
/// ```
public class ServiceParamsProvider<ServiceType, ParamsType>: @unchecked Sendable {
    // Immutable; `serializer` is set only for safe providers.
    @usableFromInline let maker: ParamsServiceMaker<ServiceType, ParamsType>
    @usableFromInline let serializer: ServiceSerializer?

    @usableFromInline
    init(maker: ParamsServiceMaker<ServiceType, ParamsType>, serializer: ServiceSerializer?) {
        self.maker = maker
        self.serializer = serializer
    }

    /// A provider of `factory`'s service.
    public convenience init<Factory: ServiceParamsFactory>(factory: Factory)
    where Factory.ServiceType == ServiceType, Factory.ParamsType == ParamsType {
        self.init(maker: ParamsServiceMaker(factory: factory.makeService(params:)), serializer: nil)
    }

    /// A provider that makes the service with `factory`.
    ///
    /// ```swift
    /// let provider = ServiceParamsProvider<Greeter, String> { name in Greeter(name: name) }
    /// ```
    public convenience init(factory: @escaping (ParamsType) throws -> ServiceType) {
        self.init(maker: ParamsServiceMaker(factory: factory), serializer: nil)
    }

    /// A service made for `params`, or the `ServiceObtainError` saying why it cannot be.
    @inlinable
    public final func getService(params: ParamsType) throws(ServiceObtainError) -> ServiceType {
        if serializer == nil {
            return try maker.get(params)
        }
        return try serializedGet(params: params)
    }

    /// The get of a safe provider; kept out of line so the plain get stays small enough to be
    /// inlined where it is called.
    @inlinable @inline(never)
    final func serializedGet(params: ParamsType) throws(ServiceObtainError) -> ServiceType {
        guard let serializer else {
            return try maker.get(params)
        }
        return try ObtainStack.withEntered(ObjectIdentifier(serializer), service: ServiceType.self) {
            () throws(ServiceObtainError) -> ServiceType in
            try serializer.run { () throws(ServiceObtainError) -> ServiceType in try maker.get(params) }
        }
    }

    /// A service made for `params`, or the error, as a `Result`.
    @inlinable
    public final func getServiceAsResult(params: ParamsType) -> Result<ServiceType, ServiceObtainError> {
        Result { () throws(ServiceObtainError) -> ServiceType in try getService(params: params) }
    }

    /// A service made for `params`, or `nil` when it cannot be made.
    @inlinable
    public final func getServiceAsOptional(params: ParamsType) -> ServiceType? {
        try? getService(params: params)
    }

    /// A service made for `params`; when it cannot be made, stops the program with the error's
    /// `fatalMessage` at `file` and `line`.
    @inlinable
    public final func getServiceOrFatal(params: ParamsType, file: StaticString = #file, line: UInt = #line)
        -> ServiceType
    {
        do {
            return try getService(params: params)
        } catch {
            fatalError(error.fatalMessage, file: file, line: line)
        }
    }

    /// A service made for params whose type is only known at run time, as locators and
    /// Objective-C style callers have them.
    ///
    /// `nil` params stand for `nil` when `ParamsType` is optional. Params that are not a
    /// `ParamsType` fail with `ServiceFactoryError.wrongParams` naming both types.
    public final func getServiceAsResult(untypedParams params: Any?) -> Result<ServiceType, ServiceObtainError> {
        guard let typed = ParamsCast<ParamsType>.cast(params) else {
            let received: Any.Type? = params.map { type(of: $0) }
            let error = ServiceObtainError(
                service: ServiceType.self,
                error: ServiceFactoryError.wrongParams(expected: ParamsType.self, received: received)
            )
            LogRecorder.shared.providerMakeFailure(type: ServiceType.self, error: error)
            return .failure(error)
        }
        return getServiceAsResult(params: typed)
    }

    /// A provider of this service made with fixed `params` on every get.
    ///
    /// A safe provider's converted provider is a `ServiceSafeProvider` that shares its
    /// serialization.
    public func convert(params: ParamsType) -> ServiceProvider<ServiceType> {
        let many = ProviderStorage<ServiceType>.many(boundMaker(params: params))
        guard let serializer else { return ServiceProvider(storage: many) }
        return ServiceSafeProvider(serialized: SafeServiceCell(serializer: serializer, inner: many))
    }

    /// A maker of the service for fixed `params` that counts as this provider in the cycle
    /// check, so a converted provider re-entering its params provider is caught at once.
    func boundMaker(params: ParamsType) -> ManyServiceMaker<ServiceType> {
        let maker = self.maker
        return ManyServiceMaker(id: ObjectIdentifier(maker)) { try maker.factory(params) }
    }
}

/// Makes a params service; its identity is what the cycle check tracks.
@usableFromInline
final class ParamsServiceMaker<Service, Params>: @unchecked Sendable {
    // Immutable.
    @usableFromInline let factory: (Params) throws -> Service
    /// `obtainStackKey`, kept here so a get need not check that the global is initialized.
    @usableFromInline let stackKey = obtainStackKey

    init(factory: @escaping (Params) throws -> Service) {
        self.factory = factory
    }

    @inlinable
    func get(_ params: Params) throws(ServiceObtainError) -> Service {
        try ObtainStack.withEntered(ObjectIdentifier(self), service: Service.self, key: stackKey) {
            () throws(ServiceObtainError) -> Service in
            try ServiceMaking.make(Service.self) { try factory(params) }
        }
    }
}

/// Casts untyped params to `Params`, letting a missing value stand for `nil` of an optional
/// type; shared by every product that takes params as `Any?`.
package enum ParamsCast<Params> {
    /// `params` as a `Params`, or `nil` when they are not one.
    ///
    /// Swift casts a `nil` of any optional type to every other optional type; here a `nil` must
    /// be of `Params` itself, and a missing value stands for `nil` only when `Params` is optional.
    package static func cast(_ params: Any?) -> Params? {
        guard let params else {
            guard let optionalType = Params.self as? any OptionalParams.Type else { return nil }
            return optionalType.noneValue as? Params
        }
        let paramsType = type(of: params)
        // Params of exactly `Params` (the usual case) need no further check.
        if paramsType != Params.self, paramsType is any OptionalParams.Type,
            let optional = params as? any OptionalParams, optional.isNone
        {
            return nil
        }
        return params as? Params
    }

    /// Whether a get without params can be served: `Params` is an optional type.
    package static var acceptsMissingParams: Bool {
        Params.self is any OptionalParams.Type
    }
}

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
