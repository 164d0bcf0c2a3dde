/// The documented crashes of the property wrappers and their messages, each naming the inject
/// site; `fatalError` points at that site too, or at the call that was the mistake
/// (`setParameters`).
@usableFromInline
enum InjectFailure {
    /// A crash message decided under a lock and reported after it.
    struct Message: Error {
        let text: String
    }

    static func missingMessage(_ type: Any.Type, injecting value: Any.Type, in registry: InjectRegistry, site: InjectSite)
        -> String
    {
        let outsideScopes =
            InjectRegistries.isProcessRegistryBesideScopes(registry)
            ? "; this wrapper was made outside every isolated scope (withIsolatedInjectRegistries, "
                + ".isolatedInjectRegistries), so it waits in the process's registries: Task.detached, threads and "
                + "blocks that dispatch runs on other threads do not see a scope; make it in the scope's code or in "
                + "a task it starts"
            : ""
        return "\(site): no \(registry.itemName) of type \(TypeName.of(type)) is registered in \(registry.resolverName) "
            + "to inject \(TypeName.of(site.reads ?? value)); register it before the first read of the injected property"
            + outsideScopes + registry.missingHints()
    }

    static func missingParamsMessage(service: Any.Type, params: Any.Type, site: InjectSite) -> String {
        "\(site): params of type \(TypeName.of(params)) for service \(TypeName.of(service)) were not set before the first read; "
            + "give them in the attribute or call setParameters(_:lazyInject:) first"
    }

    static func paramsAlreadySetMessage(service: Any.Type, injected: Bool, site: InjectSite, call: InjectSite)
        -> String
    {
        let state =
            injected
            ? "after \(TypeName.of(service)) was injected"
            : "when params were already given (in the attribute or by an earlier setParameters)"
        return "\(site): setParameters(_:lazyInject:) called \(state) (at \(call.file):\(call.line)); "
            + "params of a service can be set only once, before it is injected"
    }

    /// The message of an injection whose provider failed, `current` being the scope current where
    /// the injection runs. Where a scoped service on the way finds no scope, or a closed one, the
    /// mistake is where the property is injected, not a failure to handle: the advice says so.
    static func providerFailedMessage(_ error: ServiceObtainError, current: ServiceScope?, site: InjectSite) -> String {
        let advice =
            switch (error.error as? ServiceFactoryError, current) {
            case (.scopeRequired?, nil):
                "The property is injected where no scope is current: make the object that holds it in the scope "
                    + "that uses it, once per request (in withServiceScope { }, or in a handler that runs in the task "
                    + "of a scope middleware: with Vapor, an async route), or inject the provider with "
                    + "@ServiceProviderInject and get the service where each scope uses it, handling the error of "
                    + "getServiceAsResult() where none may be current"
            case (.scopeClosed?, let scope?) where scope.isClosed:
                "The property is injected in \(scope), after it closed: read it while the scope runs, not in work "
                    + "that outlives it, or inject the provider with @ServiceProviderInject and handle the error of "
                    + "getServiceAsResult() in such work"
            default:
                "To handle such a failure instead of stopping, inject the provider with @ServiceProviderInject and "
                    + "read the service with getServiceAsResult()"
            }
        return "\(site): injection failed. \(error.fatalMessage). \(advice)"
    }

    /// Stops the program because the provider failed to give the service being injected.
    @usableFromInline
    static func providerFailed(_ error: ServiceObtainError, site: InjectSite) -> Never {
        crash(providerFailedMessage(error, current: ServiceScope.current, site: site), site: site)
    }

    /// Stops the program when a scoped service is about to be injected in a scope other than the
    /// one that the property's object was made in (`madeIn`, its number): the object, made
    /// outside the scope, would keep that scope's service after the scope closed, for every
    /// later read (a singleton's `lazyInject` property, read in the first request, would serve
    /// that request's service to all the others). With no scope current, an object made in a
    /// scope stops too, saying so (its property is read after its scope's code, or in a task or
    /// thread that does not see the scope); for any other object the get fails with
    /// `scopeRequired`, whose advice fits it.
    @usableFromInline
    static func checkScope(of service: Any.Type, madeIn scope: UInt64, site: InjectSite) {
        if let current = ServiceScope.current {
            guard current.number != scope else { return }
            crash(scopeMismatchMessage(service, madeIn: scope, current: current, site: site), site: site)
        } else if scope != 0, scope != ServiceScope.numberOfSingletonMaking {
            crash(outsideObjectScopeMessage(service, site: site), site: site)
        }
    }

    static func outsideObjectScopeMessage(_ service: Any.Type, site: InjectSite) -> String {
        "\(site): \(TypeName.of(service)) is a scoped service, injected where no scope is current, but the object "
            + "that holds this property was made in a scope: inject it in the code of that scope, in the task or "
            + "thread that runs it (read a lazyInject property there; register the container before the scope makes "
            + "the object), or inject the provider with @ServiceProviderInject and get the service where each scope "
            + "uses it"
    }

    static func scopeMismatchMessage(_ service: Any.Type, madeIn scope: UInt64, current: ServiceScope, site: InjectSite)
        -> String
    {
        let madeWhere =
            switch scope {
            case 0: "outside every scope"
            case ServiceScope.numberOfSingletonMaking: "by a singleton's making"
            default: "in another scope"
            }
        return "\(site): \(TypeName.of(service)) is a scoped service, injected in \(current), but the object that holds "
            + "this property was made \(madeWhere): it would keep that service after \(current) closes. Make the "
            + "object in the scope that uses it (once per request), or inject the provider with "
            + "@ServiceProviderInject and get the service where each scope uses it"
    }

    /// Stops the program with `message`, pointing at the inject site, and ending with
    /// `stopNote`.
    static func crash(_ message: String, site: InjectSite) -> Never {
        fatalError(message + stopNote, file: site.file, line: site.line)
    }

    /// What a crash's message ends with while this thread registers containers
    /// (`; the program stops inside ServiceInjectResolver.register(_:) at App/Start.swift:7`):
    /// a crash of an injection that waited for the container, or of a wrapper that a factory or
    /// a ready handler run there makes, stops the program inside that call, far from the
    /// property's line. Empty elsewhere. `EntityInjectResolver`'s registrations are not named:
    /// an entity's injection does not fail.
    static var stopNote: String {
        ThreadContext.runningCall.map { "; the program stops inside \($0)" } ?? ""
    }
}
