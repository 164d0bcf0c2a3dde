/// Shuts a container down when the app stops: closes what its providers made, dependents
/// first, and refuses every get afterwards.
///
/// ```swift
/// let report = await ServiceShutdown.close(services, timeout: .seconds(5))
/// if !report.isClean {
///     print(report)  // each failure with its provider's path, type and error
/// }
/// ```
///
/// The container is walked as ``ServiceValidator`` walks one: a struct or class of providers,
/// nested containers (paths like `storage.pool`), optional providers, arrays and dictionaries of
/// them, or a `ServiceLocator` or `ServiceEasyLocator` (its own keys: a parent locator's
/// services belong to the parent and are not closed), or a single provider. A value in which
/// the walk finds no provider, such as the function that builds the container, closes nothing,
/// and its report fails with a ``ServiceNoProviderFoundError``.
public enum ServiceShutdown {
    /// Shuts `container` down: every provider found in it refuses gets from now on, and every
    /// service those providers made that is a ``ClosableService`` is closed, once, in reverse
    /// order of the end of their makings, across the whole container. A repository made after
    /// the pool it uses is closed before it. An object two providers hold closes once, at the
    /// place of the making that made it; a service that is a value closes once per provider.
    /// Shut down containers that share objects in one call (`close((app, jobs))`): two calls
    /// that reach one object through different providers close it in each.
    ///
    /// ```swift
    /// let report = await ServiceShutdown.close(services)
    /// ```
    ///
    /// What closes: the services of `atOne`, `lazy` and `weak` providers (a `weak` one while it
    /// is alive), plain, safe and async, and the current and kept services of session providers.
    /// What does not: `many` services, which nobody tracks, instances handed to
    /// `ServiceProvider(_:)` (whoever made them closes them; also when another provider's
    /// factory returns one later, when the provider it was handed to is in the container; one
    /// that a provider of the container made before is closed as that provider's), main-actor
    /// services, and the services of scopes (their scope closes them). A provider that never
    /// made its service makes nothing now. A provider that an earlier shutdown already shut down
    /// closes nothing again; the call returns once the shutdowns that shut them down have ended,
    /// so that a caller that goes on finds their services closed too (its report lists only what
    /// it closed). A call made inside the `close()` of a service that a shutdown closes (in the
    /// task that closes it, or a `Task {}` that one starts) does not wait for that shutdown,
    /// which is waiting for the close.
    ///
    /// A get of a shut-down provider fails with `ServiceFactoryError.shutDown`, made or not:
    /// nothing is made again, and no closed service is handed out. Once a container was shut
    /// down in a process, every get of that process takes a slower path, which looks for
    /// shut-down providers: shut down when the process ends.
    ///
    /// A `lazy` or `weak` making (plain, safe or async), an async `atOne` one, or a making of a
    /// session provider's service (a get's, a session change's `atOne` one, or one that a later
    /// change overtook, whose service closes if that change keeps it) that is still
    /// running on another thread or task when the shutdown begins is waited for, as long as one
    /// close may take (`timeout`), also when the caller's task is cancelled: its service is
    /// handed to the get that asked for it (and those that waited for it), as a get just before
    /// the shutdown would be, and then closed with the others, first, as the last made. A making
    /// that runs longer is in the report ("the making of App.Pool did not finish within 10.0
    /// seconds"), and what it makes afterwards is not closed (a session provider's other
    /// services still close). Shut down once the work that uses the container has stopped.
    ///
    /// - Parameters:
    ///   - container: what to shut down.
    ///   - timeout: the time each service's `close()` may take; one that runs past it is
    ///     cancelled, reported, and the next one closes; one that returns past it is reported
    ///     too. Also the time the shutdown waits for the makings that run when it begins, before
    ///     the first close. A negative one counts as zero, which waits for nothing: each
    ///     `close()` is called in a task cancelled at once and reported as late.
    ///     `.seconds(Int64.max)` says "no limit".
    /// - Returns: how many services were closed, and each one that threw or ran past its time,
    ///   with its provider's path. It never throws.
    public static func close(_ container: some Any, timeout: Duration = .seconds(10)) async -> ServiceCloseReport {
        let timeout = timeout.asCloseLimit
        let run = ShutdownRun()
        let (made, failures, earlier) = await shutDown(container, as: run, timeout: timeout)
        var report = await ServiceCloseReport.close(made, timeout: timeout, for: run)
        report.failures.insert(contentsOf: failures, at: 0)
        ShutdownRegistry.ended(run)
        for other in earlier where !ClosingWaiters.isInsideAClose(of: other) {
            await other.waiters.awaitEnd(of: \.self)
        }
        return report
    }

    /// A function passed where the container goes, such as the one that builds it, lands here,
    /// with a warning: a function holds no provider, so this shuts nothing down, and the report
    /// fails with a ``ServiceNoProviderFoundError``. Shut down the container it built.
    ///
    /// ```swift
    /// let services = Services.makeDefault()
    /// // ... the app runs ...
    /// let report = await ServiceShutdown.close(services)  // not close(Services.makeDefault)
    /// ```
    @available(*, deprecated, message: "a function holds no provider, and this shuts nothing down: pass the container it built")
    public static func close<Container>(
        _ makeContainer: @escaping @isolated(any) () async throws -> Container,
        timeout: Duration = .seconds(10)
    ) async -> ServiceCloseReport {
        // Any builder lands here, isolated, async or throwing; the report names it by what it
        // gives, as `() -> Container`, since its own type is lost in the conversion to this one.
        let builder: () -> Container = { preconditionFailure("a shutdown calls no builder") }
        return await close(builder as Any, timeout: timeout)
    }

    /// Shuts down the providers of `container` that were not shut down yet, as `run`, waits at
    /// most `timeout` for the makings they were running, and gives the services they made that
    /// close, in the order their makings ended (the last closes first), the failures before any
    /// close (the makings that did not end in time, or a container without providers), and the
    /// earlier shutdowns that shut down the others.
    static func shutDown(
        _ container: Any,
        as run: ShutdownRun,
        timeout: Duration
    ) async -> (made: [MadeService], failures: [ServiceCloseReport.Failure], earlier: [ShutdownRun]) {
        // The providers found, and those they wrap at their paths (most wrap none: no array is
        // made for them).
        let walk = ContainerWalk(container, includesParents: false)
        let found = walk.found
        if found.isEmpty {
            let valueType = type(of: container)
            let failure = ServiceCloseReport.Failure(
                path: nil, service: valueType, error: ServiceNoProviderFoundError(valueType: valueType), isOfAClose: false
            )
            return ([], [failure], [])
        }
        var providers: [(path: String, provider: any ShutdownProvider)] = []
        var innerKeys: [AnyObject] = []
        providers.reserveCapacity(found.count)
        func add(_ provider: any ShutdownProvider, at path: String) {
            providers.append((path, provider))
            guard let wrapped = provider.wrapped else { return }
            innerKeys += wrapped.keys
            for inner in wrapped.providers {
                add(inner, at: path)
            }
        }
        for (index, (path, _)) in found.enumerated() {
            if let provider = walk.shutdownProvider(at: index) {
                add(provider, at: path)
            }
        }
        let (isFresh, earlier) = ShutdownRegistry.add(providers.map(\.provider.shutdownKey), innerKeys: innerKeys, as: run)
        var made: [MadeService] = []
        made.reserveCapacity(isFresh.count)
        // A provider whose making still runs is asked again once it ended. No making begins any
        // more: one that a get let in before now refuses itself once it marked its provider
        // (`SingletonMaking.obtain`, `AsyncMaking.obtain`), so that this look or that one sees
        // the other.
        var running: [(path: String, provider: any ShutdownProvider, making: RunningMaking)] = []
        for ((path, provider), isFresh) in zip(providers, isFresh) where isFresh {
            if let making = provider.addMadeClosables(to: &made, path: path) {
                running.append((path, provider, making))
            }
        }
        var failures: [ServiceCloseReport.Failure] = []
        if !running.isEmpty {
            // In a task of its own, which the cancellation of the caller's does not reach: a
            // shutdown from a cancelled task (a cancelled service group) waits all the same.
            let makings = running.map(\.making)
            await Task { await RunningMaking.end(of: makings, within: timeout) }.value
            // Asked again also past the time limit: a session provider then gives its other
            // services (those of past sessions). A `lazy` or `weak` making that ended between
            // the two looks has its service closed, and is reported all the same.
            for (path, provider, making) in running {
                let hasEnded = making.hasEnded()
                provider.addMadeClosables(to: &made, path: path)
                if !hasEnded {
                    let error = ServiceCloseTimeoutError(timeout: timeout, makings: [making.service])
                    failures.append(.init(path: path, service: making.service, error: error, isOfAClose: false))
                }
            }
        }
        // An instance handed to a provider of the container is left alone where a factory of
        // another provider returned it later; one that a making made before it was handed in
        // closes at that making's place.
        var handedIn: [ObjectIdentifier: UInt64] = [:]
        for case let given? in providers.lazy.map(\.provider.handedIn) {
            handedIn[ObjectIdentifier(given.object)] = min(given.since, handedIn[ObjectIdentifier(given.object)] ?? .max)
        }
        if !handedIn.isEmpty {
            made.removeAll { entry in
                guard let object = objectReference(of: entry.service), let since = handedIn[ObjectIdentifier(object)] else {
                    return false
                }
                return since < entry.madeAt
            }
        }
        made.sort { $0.madeAt < $1.madeAt }
        return (made, failures, earlier)
    }
}
