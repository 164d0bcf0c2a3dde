/// A key of a service made from params: it also carries the type of the params.
///
/// ```swift
/// struct SecondServiceLocatorKey: ServiceLocatorParamsKey {
///     typealias ServiceType = SecondService
///     typealias ParamsType = SecondServiceParams?
///     var storeKey: String { "SecondService" }
/// }
/// ```
public protocol ServiceLocatorParamsKey: ServiceLocatorKey {
    /// The type of the params a service is got with.
    associatedtype ParamsType
}
