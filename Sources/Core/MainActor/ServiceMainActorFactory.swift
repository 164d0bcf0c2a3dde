/// A factory of a service that belongs to the main actor, such as a view model; its provider
/// is a ``ServiceMainActorProvider``, and the factory runs on the main actor.
///
/// ```swift
/// @MainActor
/// final class ProfileViewModel {
///     var title = "Profile"
/// }
///
/// struct ProfileViewModelFactory: ServiceMainActorFactory {
///     let mode: ServiceFactoryMode = .weak
///     func makeService() throws -> ProfileViewModel {
///         ProfileViewModel()
///     }
/// }
/// ```
///
/// The protocol is isolated to the main actor, so a conforming type's `makeService()` is too:
/// it may use main-actor state without `await`, and nothing else can call it without one.
@MainActor
public protocol ServiceMainActorFactory {
    /// The type of service the factory makes.
    associatedtype ServiceType

    /// How the provider makes and keeps the service.
    var mode: ServiceFactoryMode { get }

    /// Makes the service on the main actor, or throws why it cannot.
    func makeService() throws -> ServiceType
}

extension ServiceMainActorFactory {
    /// A provider of this factory's service (`ServiceMainActorProvider(factory: self)`).
    ///
    /// ```swift
    /// let viewModels = ProfileViewModelFactory().serviceMainActorProvider()
    /// ```
    public func serviceMainActorProvider() -> ServiceMainActorProvider<ServiceType> {
        ServiceMainActorProvider(factory: self)
    }
}
