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
    /// The service when it was injected as the wrapper was made, else the injection's cell.
    @usableFromInline let storage: InjectStorage<Service>

    /// The storage of a wrapper that injects from the current registry as soon as it can (or at
    /// the first read) with `make`, which makes the service from the box of the container.
    ///
    /// It takes `make` over (`consuming`), as an initializer would: borrowed, the caller keeps
    /// the closure, and the optimizer no longer folds the key path it captures into a field read
    /// (a key path made at run time, about 500 instructions more for each wrapper made).
    @inlinable
    static func waiting(
        lazyInject: Bool,
        site: InjectSite,
        make: consuming @escaping (_ box: AnyObject, _ cell: InjectCell<Service>) -> Service
    ) -> InjectStorage<Service> {
        let registry = ServiceInjectResolver.registry
        return InjectStorage(
            waitingFor: Container.self,
            in: registry,
            site: site,
            lazy: lazyInject,
            madeInScope: ServiceScope.numberForObjectMadeNow,
            make: make
        )
    }

    // The storage of the wrappers whose container is not registered yet, or that inject at the
    // first read. Inlined into their owners, as the others, so that the closure that makes the
    // service reads the provider at the key path the owner wrote: a field read, where a key path
    // applied at run time costs about 800 instructions at the first read.

    @inlinable @inline(__always)
    static func waiting<Provider: ServiceProvider<Service>>(
        for keyPath: KeyPath<Container, Provider>,
        lazyInject: Bool,
        file: StaticString,
        line: UInt
    ) -> InjectStorage<Service> {
        let site = InjectSite(wrapper: .serviceInject, file: file, line: line)
        return waiting(lazyInject: lazyInject, site: site) { box, cell in
            // The cell's `box` boxed it as an `InjectBox<Container>`.
            ServiceInjectProviding.service((box as! InjectBox<Container>).value[keyPath: keyPath], injectedBy: cell)
        }
    }

    @inlinable @inline(__always)
    static func waiting<Wrapped, Provider: ServiceProvider<Wrapped>>(
        for keyPath: KeyPath<Container, Provider?>,
        lazyInject: Bool,
        file: StaticString,
        line: UInt
    ) -> InjectStorage<Service> where Service == Wrapped? {
        let site = InjectSite(wrapper: .serviceInject, file: file, line: line)
        return waiting(lazyInject: lazyInject, site: site) { box, cell in
            (box as! InjectBox<Container>).value[keyPath: keyPath].map { ServiceInjectProviding.service($0, injectedBy: cell) }
        }
    }

    /// Injects the service of the provider at `keyPath` in the registered `Container`.
    ///
    /// ```swift
    /// final class Screen {
    ///     @ServiceInject(\Services.userService, lazyInject: true)
    ///     private var userService
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: the path to the provider, nested fields included (`\Services.folders.manager`):
    ///     a `ServiceProvider`, or a field declared as a subclass (a `ServiceSafeProvider`).
    ///     Written as an argument, it is taken as written (`@autoclosure`): with the container
    ///     registered, the provider is read at it as a field, and no key path object is made
    ///     (one is made only for a wrapper that waits).
    ///   - lazyInject: inject at the first read instead of as soon as the container is there.
    ///   - file: the inject site's file, named when injecting stops the program.
    ///   - line: the inject site's line, named when injecting stops the program.
    @inlinable @inline(__always)
    public init<Provider: ServiceProvider<Service>>(
        _ keyPath: @autoclosure () -> KeyPath<Container, Provider>,
        lazyInject: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        // Specialized in the owner's initializer: with the container registered, the service is
        // injected here, without a cell, a lock of its own or a type looked up at run time.
        if !lazyInject, let box = ServiceInjectResolver.newest(Container.self) {
            let site = InjectSite(wrapper: .serviceInject, file: file, line: line)
            storage = InjectStorage(injected: ServiceInjectProviding.service(box.value[keyPath: keyPath()], site: site))
        } else {
            storage = Self.waiting(for: keyPath(), lazyInject: lazyInject, file: file, line: line)
        }
    }

    /// Injects the service of the optional provider at `keyPath`: `nil` when the container
    /// has no provider there.
    ///
    /// ```swift
    /// final class Screen {
    ///     @ServiceInject(\Services.analytics)  // a ServiceProvider<Analytics>?
    ///     private var analytics                 // Analytics?
    /// }
    /// ```
    @inlinable @inline(__always)
    public init<Wrapped, Provider: ServiceProvider<Wrapped>>(
        _ keyPath: @autoclosure () -> KeyPath<Container, Provider?>,
        lazyInject: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line
    ) where Service == Wrapped? {
        if !lazyInject, let box = ServiceInjectResolver.newest(Container.self) {
            let site = InjectSite(wrapper: .serviceInject, file: file, line: line)
            let service = box.value[keyPath: keyPath()].map { ServiceInjectProviding.service($0, site: site) }
            storage = InjectStorage(injected: service)
        } else {
            storage = Self.waiting(for: keyPath(), lazyInject: lazyInject, file: file, line: line)
        }
    }

    /// The injected service.
    ///
    /// ```swift
    /// let isMock = presenter.userService.isMock  // the service of the registered Services' userService provider
    /// ```
    @inlinable
    public var wrappedValue: Service {
        storage.value
    }

    /// The injection state: `isReady` and `setReadyHandler(_:)`.
    ///
    /// ```swift
    /// let state = presenter.$userService  // an InjectState<UserService>
    /// state.setReadyHandler { service in service.startObserving() }
    /// ```
    public var projectedValue: InjectState<Service> {
        storage.state
    }
}

extension ServiceInject: Sendable where Service: Sendable {}
