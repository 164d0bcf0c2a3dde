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
    /// The injection's cell, unless the service was injected when the wrapper was made.
    @usableFromInline let cell: InjectCell<Service>?
    // The same cell for reads, which need not retain it: `cell` keeps it alive as long as the
    // wrapper is.
    @usableFromInline let reader: UnretainedReference<InjectCell<Service>>?

    /// A wrapper injected when it is made: no cell, nothing to wait for.
    @usableFromInline
    init(injected service: Service) {
        early = service
        cell = nil
        reader = nil
    }

    /// A wrapper that injects from the current registry as soon as it can (or at the first read).
    init(
        lazyInject: Bool,
        file: StaticString,
        line: UInt,
        make: @escaping (Container, InjectSite) -> Service
    ) {
        let site = InjectSite(wrapper: "ServiceInject", file: file, line: line)
        let cell = InjectCell<Service>(Container.self, in: ServiceInjectResolver.registry, site: site) {
            make($0, site)
        }
        self.cell = cell
        self.reader = UnretainedReference(cell)
        self.early = cell.start(lazy: lazyInject)
    }

    @usableFromInline
    init(
        waitingFor keyPath: KeyPath<Container, ServiceProvider<Service>>,
        lazyInject: Bool,
        file: StaticString,
        line: UInt
    ) {
        self.init(lazyInject: lazyInject, file: file, line: line) { container, site in
            ServiceInjectProviding.service(container[keyPath: keyPath], site: site)
        }
    }

    @usableFromInline
    init<Wrapped>(
        waitingFor keyPath: KeyPath<Container, ServiceProvider<Wrapped>?>,
        lazyInject: Bool,
        file: StaticString,
        line: UInt
    ) where Service == Wrapped? {
        self.init(lazyInject: lazyInject, file: file, line: line) { container, site in
            container[keyPath: keyPath].map { ServiceInjectProviding.service($0, site: site) }
        }
    }

    /// Injects the service of the provider at `keyPath` in the registered `Container`.
    ///
    /// - Parameters:
    ///   - keyPath: the path to the provider, nested fields included (`\Services.folders.manager`).
    ///   - lazyInject: inject at the first read instead of as soon as the container is there.
    ///   - file: the inject site's file, named when injecting stops the program.
    ///   - line: the inject site's line, named when injecting stops the program.
    @inlinable @inline(__always)
    public init(
        _ keyPath: KeyPath<Container, ServiceProvider<Service>>,
        lazyInject: Bool = false,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        // Specialized in the owner's initializer: with the container registered, the service is
        // injected here, without a cell, a lock of its own or a type looked up at run time.
        if !lazyInject, let box = ServiceInjectResolver.newest(Container.self) {
            let provider = box.value[keyPath: keyPath]
            self.init(injected: ServiceInjectProviding.service(provider, wrapper: "ServiceInject", file: file, line: line))
        } else {
            self.init(waitingFor: keyPath, lazyInject: lazyInject, file: file, line: line)
        }
    }

    /// Injects the service of the optional provider at `keyPath`: `nil` when the container
    /// has no provider there.
    @inlinable @inline(__always)
    public init<Wrapped>(
        _ keyPath: KeyPath<Container, ServiceProvider<Wrapped>?>,
        lazyInject: Bool = false,
        file: StaticString = #file,
        line: UInt = #line
    ) where Service == Wrapped? {
        if !lazyInject, let box = ServiceInjectResolver.newest(Container.self) {
            let provider = box.value[keyPath: keyPath]
            self.init(
                injected: provider.map { ServiceInjectProviding.service($0, wrapper: "ServiceInject", file: file, line: line) }
            )
        } else {
            self.init(waitingFor: keyPath, lazyInject: lazyInject, file: file, line: line)
        }
    }

    /// The injected service.
    @inlinable
    public var wrappedValue: Service {
        if let early { return early }
        return InjectCell.value(of: reader!)
    }

    /// The injection state: `isReady` and `setReadyHandler(_:)`.
    public var projectedValue: InjectState<Service> {
        InjectState(cell: cell, early: early)
    }
}

extension ServiceInject: Sendable where Service: Sendable {}
