/// Checks a whole container at once: makes every provider once and reports every failure, with
/// the property path of each provider, what it could not make alone, how long each provider
/// took to make, and the dependency graph.
///
/// ```swift
/// let report = ServiceValidator.validate(building: Services.makeDefault)
/// if !report.isValid {
///     print(report)  // every failure, with its path: `network.api: Failed to obtain service ...`
/// }
/// ```
///
/// The container is any value that holds providers: a struct or class of providers, with
/// nested containers, optional providers, arrays and dictionaries of them, found by reflection;
/// a `ServiceLocator` or `ServiceEasyLocator`, every key (and its parent's). Gets that depend on
/// a session are made for the mediator's current session. A params provider is skipped, as it
/// cannot be made without params, and so are async and main-actor providers, which a
/// synchronous validation cannot get.
///
/// Scoped providers are made in a ``ServiceScope`` of the validation's own. Their `close()` is
/// not awaited by the validation, which is synchronous: a detached task closes that scope once
/// the validation is over, and reports close failures to the ``ProvidersLogger``s. A singleton
/// whose making gets a scoped service is a failure at the singleton's path (a captive
/// dependency).
///
/// Validate at start-up or in a test, not on a hot path: it makes every service.
public enum ServiceValidator {
    /// Makes every provider of `container` once and reports the outcome.
    ///
    /// ```swift
    /// let services = Services.makeDefault()
    /// let report = ServiceValidator.validate(services)
    /// ```
    ///
    /// The graph shows what each making asked for, a get of a service that is already there
    /// (an `atOne` service, a `lazy` one made before) included. The providers are made last to
    /// first, so that a provider listed after those it depends on makes them itself. The
    /// creation time of a service made before the validation (an `atOne` one) is not known: to
    /// see every creation time, let the validator build the container: ``validate(building:)``.
    public static func validate(_ container: Any) -> ServiceValidationReport {
        let log = GetLog()
        return GetRecording.withThreadLog(log) {
            check(container, log: log)
        }
    }

    /// Validates the container that `makeContainer` builds, as ``validate(building:)`` does; a
    /// function passed without the `building:` label lands here.
    ///
    /// ```swift
    /// let report = ServiceValidator.validate(building: Services.makeDefault)  // builds it, then checks it
    /// let same = ServiceValidator.validate(Services.makeDefault())            // checks the one built here
    /// ```
    @available(*, deprecated, message: "this is the function that builds the container: pass it as validate(building:)")
    public static func validate<Container>(
        _ makeContainer: () throws -> Container
    ) rethrows -> ServiceValidationReport {
        try validate(building: makeContainer)
    }

    /// The same for a function isolated to the main actor (as every function of a module whose
    /// default isolation is the main actor is), which would otherwise land in
    /// `validate(_:)` as a value that holds no provider.
    ///
    /// ```swift
    /// let report = ServiceValidator.validate(building: Services.makeDefault)
    /// ```
    @available(*, deprecated, message: "this is the function that builds the container: pass it as validate(building:)")
    @MainActor
    public static func validate<Container>(
        _ makeContainer: @MainActor () throws -> Container
    ) rethrows -> ServiceValidationReport {
        try validate(building: makeContainer)
    }

    /// Builds a container with `makeContainer`, then makes every provider of it once and
    /// reports the outcome.
    ///
    /// ```swift
    /// let report = ServiceValidator.validate(building: Services.makeDefault)
    /// print(report.graph.dot())
    /// ```
    ///
    /// The providers made while `makeContainer` runs record every get, the reads of a service
    /// already made included, so the graph has every dependency, and the report the time of
    /// every making, `atOne` ones included. They keep recording while a validation or a
    /// ``ServiceGraphRecorder`` runs, and otherwise cost a call more per get: validate such a
    /// container, then drop it.
    ///
    /// - Throws: what `makeContainer` throws.
    public static func validate<Container>(
        building makeContainer: () throws -> Container
    ) rethrows -> ServiceValidationReport {
        let log = GetLog()
        return try GetRecording.withThreadLog(log) {
            check(try makeContainer(), log: log)
        }
    }

    /// Makes the providers of `container` once, with `log` recording on this thread.
    static func check(_ container: Any, log: GetLog) -> ServiceValidationReport {
        let walk = ContainerWalk(container)
        // Made last to first: a container usually lists a provider after those it depends on,
        // which its making then makes (or reads) itself, so that the graph shows them. The
        // outcomes are reported first to last.
        // Scoped providers are made in a scope of the validation's own, closed afterwards.
        var errors: [Int: ServiceObtainError] = [:]
        let scope = ServiceScope(label: "validation of \(type(of: container))")
        scope.run {
            for (index, entry) in walk.found.enumerated().reversed() {
                if case .provider(let provider) = entry.found, let error = provider.validationGet() {
                    errors[index] = error
                }
            }
        }
        Task.detached {
            let report = await scope.close()
            if !report.isClean {
                LogRecorder.recorder.scopeCloseFailure(scope: scope, report: report)
            }
        }
        var made: [String] = []
        var failures: [ServiceValidationReport.Failure] = []
        var skipped: [ServiceValidationReport.Skipped] = []
        var providers: [(path: String, facts: ProviderFacts)] = []
        for (index, (path, found)) in walk.found.enumerated() {
            switch found {
            case .skipped(let service, let reason, _):
                skipped.append(.init(path: path, serviceType: service, reason: reason))
            case .absent(let service):
                skipped.append(.init(path: path, serviceType: service, reason: "nil: no provider to make", isAbsent: true))
            case .provider(let provider):
                let facts = provider.graphFacts
                providers.append((path, facts))
                if let params = facts.params {
                    let reason = "needs params of type \(TypeName.of(params)): get it with params to check it"
                    skipped.append(.init(path: path, serviceType: facts.service, reason: reason))
                } else if let error = errors[index] {
                    failures.append(.init(path: path, error: error))
                } else {
                    made.append(path)
                }
            }
        }
        let state = log.snapshot
        let timings = providers.compactMap { path, facts -> ServiceValidationReport.Timing? in
            let times = facts.identities.compactMap { state.ownTimes[$0] }
            guard !times.isEmpty else { return nil }
            return .init(path: path, serviceType: facts.service, duration: times.reduce(.zero, +))
        }
        let graph = ServiceGraph(
            providers: providers,
            log: state,
            failures: Dictionary(uniqueKeysWithValues: failures.map { ($0.path, $0.error) })
        )
        return ServiceValidationReport(
            containerType: type(of: container),
            made: made,
            failures: failures,
            skipped: skipped,
            timings: timings.sorted { ($1.duration, $0.path) < ($0.duration, $1.path) },
            graph: graph
        )
    }
}
