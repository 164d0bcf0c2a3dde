/// Injects a service from a provider of a container registered in ``ServiceInjectResolver``.
///
/// ```swift
/// final class UserPresenter {
///     @ServiceInject(\Services.userService, lazyInject: true)
///     private var userService
///
///     @ServiceInject(\Services.folders.manager)
///     private var foldersManager
/// }
/// ```
///
/// The service is injected when the wrapper is made if the container is registered, else right
/// after the container is registered; with `lazyInject` it is injected at the first read. A
/// first read that finds no container stops the program, naming this declaration's file and
/// line; so does a provider that fails to give the service. Once injected, a read is a stored
/// read: no lock, no lookup.
@propertyWrapper
public struct ServiceInject<Container, Service> {
    @usableFromInline let early: Service?
    @usableFromInline let cell: InjectCell<Service>
    // The same cell for reads, which need not retain it: `cell` keeps it alive as long as the
    // wrapper is.
    @usableFromInline let unmanagedCell: Unmanaged<InjectCell<Service>>

    init(
        lazyInject: Bool,
        file: StaticString,
        line: UInt,
        make: @escaping (Container, InjectSite) -> Service
    ) {
        let site = InjectSite(wrapper: "ServiceInject", file: file, line: line)
        let cell = RegistryInjectCell<Container, Service>(registry: ServiceInjectResolver.registry, site: site) {
            make($0, site)
        }
        self.cell = cell
        self.unmanagedCell = .passUnretained(cell)
        self.early = cell.start(lazy: lazyInject)
    }

    /// Injects the service of the provider at `keyPath` in the registered `Container`.
    ///
    /// - Parameters:
    ///   - keyPath: the path to the provider, nested fields included (`\Services.folders.manager`).
    ///   - lazyInject: inject at the first read instead of as soon as the container is there.
    ///   - file: the inject site's file, named when injecting stops the program.
    ///   - line: the inject site's line, named when injecting stops the program.
    public init(
        _ keyPath: KeyPath<Container, ServiceProvider<Service>>,
        lazyInject: Bool = false,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        self.init(lazyInject: lazyInject, file: file, line: line) { container, site in
            ServiceInjectProviding.service(container[keyPath: keyPath], site: site)
        }
    }

    /// Injects the service of the optional provider at `keyPath`: `nil` when the container
    /// has no provider there.
    public init<Wrapped>(
        _ keyPath: KeyPath<Container, ServiceProvider<Wrapped>?>,
        lazyInject: Bool = false,
        file: StaticString = #file,
        line: UInt = #line
    ) where Service == Wrapped? {
        self.init(lazyInject: lazyInject, file: file, line: line) { container, site in
            container[keyPath: keyPath].map { ServiceInjectProviding.service($0, site: site) }
        }
    }

    /// The injected service.
    @inlinable
    public var wrappedValue: Service {
        if let early { return early }
        return InjectCell.value(of: unmanagedCell)
    }

    /// The injection state: `isReady` and `setReadyHandler(_:)`.
    public var projectedValue: InjectState<Service> {
        InjectState(cell: cell)
    }
}

extension ServiceInject: Sendable where Service: Sendable {}
