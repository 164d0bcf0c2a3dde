/// The registry of containers that `@ServiceInject`, `@ServiceParamsInject` and
/// `@ServiceProviderInject` inject from.
///
/// A container is any value (usually a struct) whose fields hold `ServiceProvider`s or
/// `ServiceParamsProvider`s, nested fields included. Containers are resolved by cast, newest
/// first: a container registered as its implementation type is found when asked for by a
/// protocol it conforms to.
///
/// ```swift
/// ServiceInjectResolver.register(ServicesFactory.makeDefault())
/// ```
///
/// The registry is internally synchronized. Registration runs the pending injections and
/// ready handlers it satisfies on the registering thread, before it returns.
///
/// The registry is the process's, except inside `withIsolatedInjectRegistries` (and in a test
/// with the `.isolatedInjectRegistries` trait of `ServiceInjectsTesting`), where every call works
/// with the registry of that scope.
public enum ServiceInjectResolver {
    /// The registry of the current scope: the process's, or that of the innermost
    /// `withIsolatedInjectRegistries` scope of the current task.
    @usableFromInline
    static var registry: InjectRegistry {
        InjectRegistries.withCurrent { $0.containers }
    }

    /// The newest registered container castable to `type`, boxed, for a wrapper injected when
    /// it is made; `nil` when none is registered. See `InjectRegistry.newestBox(_:box:)`.
    @inlinable
    static func newest<Container>(_ type: Container.Type) -> InjectBox<Container>? {
        InjectBox.newest(in: newestBox)
    }

    /// The box of the newest container of the type `type` names, in the current registry.
    @usableFromInline
    static func newestBox(_ type: ObjectIdentifier, box: (Any) -> AnyObject?) -> AnyObject? {
        InjectRegistries.withCurrent { $0.containers.newestBox(type, box: box) }
    }

    /// Registers `container`; pending injections and ready handlers waiting for it run now. A
    /// container handed in as an optional is registered as the container it holds; a `nil` one
    /// registers nothing and stops a debug build with an assertion that names `file` and `line`
    /// (in a release build, the first read that then finds no container names them).
    ///
    /// ```swift
    /// ServiceInjectResolver.register(ServicesFactory.makeDefault())
    /// ServiceInjectResolver.register(Services.mock(), failureIfContains: false)  // resolved first
    /// ```
    ///
    /// - Parameters:
    ///   - container: the container of providers that injected properties read from.
    ///   - failureIfContains: when a container of the same type is already registered,
    ///   stop with an assertion (debug builds) that names the caller's file and line, and report
    ///   it to the ``ServiceInjectLogger``s. In every build the new container is registered over
    ///   the old one, which stays registered (with every service its providers keep) until it is
    ///   removed: the new one is resolved first, and `remove(_:onlyLast: true)` brings the old
    ///   one back. Pass `false` to put one over another on purpose (a test's stand-in, say). To
    ///   replace a container, `remove(_:)` the old one first.
    ///   - file: the caller's file, named when the registration stops a debug build, in the
    ///     report of a second registration to the loggers, for a `nil` container by the read
    ///     that finds none, and by a crash of an injection that the registration runs.
    ///   - line: the caller's line, named as `file` is.
    public static func register<Container>(
        _ container: Container,
        failureIfContains: Bool = true,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        add([container], failureIfContains: failureIfContains, call: "register(_:)", file: file, line: line)
    }

    /// Registers several containers at once (the last one is the newest); an optional one as
    /// `register(_:failureIfContains:file:line:)` does.
    ///
    /// ```swift
    /// ServiceInjectResolver.registerSome([ServicesFactory.makeDefault(), SettingsServices()])
    /// ```
    ///
    /// - Parameters:
    ///   - containers: the containers, oldest first.
    ///   - failureIfContains: as in `register(_:failureIfContains:file:line:)`, for each container.
    ///   - file: the caller's file, named when the registration stops a debug build, in the
    ///     report of a second registration to the loggers, for a `nil` container by the read
    ///     that finds none, and by a crash of an injection that the registration runs.
    ///   - line: the caller's line, named as `file` is.
    public static func registerSome(
        _ containers: [Any],
        failureIfContains: Bool = true,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        add(containers, failureIfContains: failureIfContains, call: "registerSome(_:)", file: file, line: line)
    }

    private static func add(
        _ containers: [Any],
        failureIfContains: Bool,
        call: String,
        file: StaticString,
        line: UInt
    ) {
        let registries = InjectRegistries.current
        // A container handed in as an optional is registered as the container it holds. A get
        // would find it either way (by cast), but the check for a second registration compares
        // types, and an empty optional would be kept as an entry nothing finds.
        let containers = containers.compactMap { container in
            let held = unwrappedValue(container)
            if held == nil {
                let type = Swift.type(of: container)
                registries.containers.noteNilRegistration(
                    "ServiceInjectResolver.\(call) at \(file):\(line) was given nil (a \(TypeName.of(type)))"
                )
                assertionFailure(nilContainerMessage(type, call: call, file: file, line: line), file: file, line: line)
            }
            return held
        }
        let duplicates = ThreadContext.whileRunning("ServiceInjectResolver.\(call) at \(file):\(line)") {
            registries.containers.add(containers).duplicates
        }
        guard failureIfContains else { return }
        for type in duplicates {
            LogRecorder.record(ServiceInjectLogger.self) {
                $0.serviceInjectResolverContainerAlreadyRegistered(type: type, file: file, line: line)
            }
            let message = duplicateMessage(
                type, listed: containers, duplicates: duplicates, in: registries, call: call, file: file, line: line
            )
            assertionFailure(message, file: file, line: line)
        }
    }

    /// What a registration of an empty optional of the type `type` stops a debug build with: it
    /// registers nothing.
    static func nilContainerMessage(_ type: Any.Type, call: String, file: StaticString, line: UInt) -> String {
        "ServiceInjectResolver.\(call) at \(file):\(line): the container, of type \(TypeName.of(type)), is nil: "
            + "nothing was registered; make the container before registering it"
    }

    /// What a registration of `type`, one of the `duplicates` that registering `listed` found,
    /// stops a debug build with: the call lists the type twice (`listedTwiceMessage`), or it was
    /// registered before (`alreadyRegisteredMessage`).
    static func duplicateMessage(
        _ type: Any.Type,
        listed containers: [Any],
        duplicates: [Any.Type],
        in registries: InjectRegistries,
        call: String,
        file: StaticString,
        line: UInt
    ) -> String {
        let listed = containers.count { Swift.type(of: $0) == type }
        guard listed > 1 else {
            return alreadyRegisteredMessage(type, in: registries, call: call, file: file, line: line)
        }
        // Each container of the type after the first is a duplicate, and the first too when one
        // of that type was registered before the call.
        let alsoRegistered = duplicates.count { $0 == type } == listed
        return listedTwiceMessage(
            type, alsoRegistered: alsoRegistered, in: registries, call: call, file: file, line: line
        )
    }

    /// What a `registerSome` that lists two containers of one type stops a debug build with: the
    /// second goes over the first, as a second registration would; `alsoRegistered` when one of
    /// that type was registered before the call too.
    static func listedTwiceMessage(
        _ type: Any.Type,
        alsoRegistered: Bool,
        in registries: InjectRegistries,
        call: String,
        file: StaticString,
        line: UInt
    ) -> String {
        let registered = alsoRegistered ? ", and one is already registered in \(registries.containers.resolverName)" : ""
        let replace = alsoRegistered ? "; to replace that one, remove(_:) it first" : ""
        return "ServiceInjectResolver.\(call) at \(file):\(line): this call lists more than one container of type "
            + "\(TypeName.of(type))\(registered); list each type once (the last of a type would be the newest, the "
            + "others registered beneath it)\(replace); or pass failureIfContains: false to register them all so"
    }

    /// What a registration of a container type that is already registered stops a debug build
    /// with: where, what, and the ways out.
    static func alreadyRegisteredMessage(
        _ type: Any.Type,
        in registries: InjectRegistries,
        call: String,
        file: StaticString,
        line: UInt
    ) -> String {
        let over =
            "to put one over it on purpose (the old one stays registered beneath it), pass failureIfContains: false"
        let fix =
            registries.scope == nil
            ? "register it once (at start-up); to replace it, remove(_:) the old one first; \(over); "
                + "or, in tests, give each test registries of its own with the .isolatedInjectRegistries trait "
                + "(ServiceInjectsTesting) or withIsolatedInjectRegistries { }"
            : "register it once in the scope; to replace it, remove(_:) the old one first; \(over)"
        return "ServiceInjectResolver.\(call) at \(file):\(line): a container of type \(TypeName.of(type)) "
            + "is already registered in \(registries.containers.resolverName); \(fix)"
    }

    /// Removes the containers castable to `type`, or only the newest one when `onlyLast`.
    ///
    /// ```swift
    /// ServiceInjectResolver.remove(Services.self, onlyLast: true)  // the older one comes back
    /// ```
    ///
    /// Properties already injected keep their services.
    ///
    /// - Returns: whether a container was removed.
    @discardableResult
    public static func remove<Container>(_ type: Container.Type, onlyLast: Bool = false) -> Bool {
        registry.remove(type, onlyLast: onlyLast)
    }

    /// Whether a container castable to `type` is registered.
    ///
    /// ```swift
    /// if !ServiceInjectResolver.contains(Services.self) {
    ///     ServiceInjectResolver.register(ServicesFactory.makeDefault())
    /// }
    /// ```
    public static func contains<Container>(_ type: Container.Type) -> Bool {
        registry.contains(type)
    }

    /// Runs `handler` once a container castable to `type` is registered: at once when one is
    /// already (returning `nil`), else on the registering thread when one is registered.
    ///
    /// ```swift
    /// let token = ServiceInjectResolver.addReadyContainerHandler(Services.self) { showFirstScreen() }
    /// ```
    ///
    /// - Returns: the token that keeps the handler waiting: releasing it (or `cancel()`)
    ///   unsubscribes the handler. `nil` when the handler already ran.
    public static func addReadyContainerHandler<Container>(
        _ type: Container.Type,
        handler: @escaping () -> Void
    ) -> ServiceInjectReadyToken? {
        let registry = Self.registry
        return registry.addReadyHandler(type, handler: handler).map { EntityReadyToken(registry: registry, id: $0) }
    }

    /// Removes every container, pending injection and ready handler (also one that a
    /// registration is about to run, as cancelling its token does): the state of a process that
    /// registered nothing. Inside `withIsolatedInjectRegistries`, it empties the scope's
    /// registry only. Tests that run in parallel isolate their registries instead.
    ///
    /// ```swift
    /// ServiceInjectResolver.removeAll()
    /// ```
    ///
    /// Properties already injected keep their services; properties still waiting are no longer
    /// injected at registration, but a first read still resolves them from the containers
    /// registered by then.
    public static func removeAll() {
        registry.removeAll()
    }
}
