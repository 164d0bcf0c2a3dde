/// The 1.x declaration of the params a service is got with from the type-keyed locator.
///
/// It is no longer needed: ``ServiceEasyLocator`` checks params against the factory's params type
/// on every get with params, and answers `ServiceLocatorError.wrongParams` when they do not fit.
///
/// ```swift
/// struct GreetingFactory: ServiceParamsFactory {  // was: ServiceParamsFactory, ServiceSupportFactoryParams
///     func makeService(params: String) throws -> Greeting { Greeting(name: params) }
/// }
/// ```
@available(*, deprecated, message: "not needed: ServiceEasyLocator checks params at get; delete the conformance")
public protocol ServiceSupportFactoryParams {
    /// The type of the params the service is got with.
    associatedtype ParamsType
}
