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
/// synchronous validation cannot get: ``validateIncludingAsync(building:)`` gets them too.
///
/// Scoped providers are made in a ``ServiceScope`` of the validation's own. The synchronous
/// validation does not await their `close()`: a detached task closes that scope once the
/// validation is over, and reports close failures to the ``ProvidersLogger``s;
/// ``validateIncludingAsync(building:)`` awaits it. A singleton whose making gets a scoped
/// service is a failure at the singleton's path (a captive dependency).
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

    /// Makes every provider of `container` once, as ``validate(_:)-(Any)`` does, then awaits a
    /// get of each async provider and gets each main-actor provider on the main actor, as
    /// ``validateIncludingAsync(building:)`` does.
    ///
    /// ```swift
    /// let services = Services.makeDefault()
    /// let report = await ServiceValidator.validateIncludingAsync(services)
    /// ```
    public nonisolated(nonsending) static func validateIncludingAsync(
        _ container: Any
    ) async -> ServiceValidationReport {
        await including(async: { log in Validation(container, log: log, call: asyncCall) })
    }

    /// Validates the container that `makeContainer` builds, as
    /// ``validateIncludingAsync(building:)`` does; a function passed without the `building:`
    /// label lands here.
    ///
    /// ```swift
    /// let report = await ServiceValidator.validateIncludingAsync(building: Services.makeDefault)
    /// ```
    @available(*, deprecated, message: "this is the function that builds the container: pass it as validateIncludingAsync(building:)")
    public nonisolated(nonsending) static func validateIncludingAsync<Container>(
        _ makeContainer: () throws -> Container
    ) async rethrows -> ServiceValidationReport {
        try await validateIncludingAsync(building: makeContainer)
    }

    /// The same for a function isolated to the main actor, which would otherwise land in
    /// `validateIncludingAsync(_:)` as a value that holds no provider.
    ///
    /// ```swift
    /// let report = await ServiceValidator.validateIncludingAsync(building: Services.makeDefault)
    /// ```
    @available(*, deprecated, message: "this is the function that builds the container: pass it as validateIncludingAsync(building:)")
    @MainActor
    public static func validateIncludingAsync<Container>(
        _ makeContainer: @MainActor () throws -> Container
    ) async rethrows -> ServiceValidationReport {
        try await validateIncludingAsync(building: makeContainer)
    }

    /// Builds a container with `makeContainer` and validates it as ``validate(building:)`` does,
    /// then awaits a get of each async provider and gets each main-actor provider on the main
    /// actor, which a synchronous validation skips, and reports their failures at their paths.
    ///
    /// ```swift
    /// let report = await ServiceValidator.validateIncludingAsync(building: Services.makeDefault)
    /// if !report.isValid {
    ///     print(report)  // the async providers' failures too, each at its path
    /// }
    /// ```
    ///
    /// The synchronous part runs on the caller's actor; an async singleton is made in a task of
    /// its provider's, and a main-actor service on the main actor. Their gets are recorded as the
    /// synchronous ones are: what an async making gets is its dependency in the graph, and its
    /// time, less the time it waited for those, is its creation time. The validation awaits the
    /// `close()` of the scoped services it made (each within 10 seconds), and reports close
    /// failures to the ``ProvidersLogger``s.
    ///
    /// A main-actor provider is got on the main actor, which must run: in a program whose
    /// main thread blocks waiting for the validation, that get, and so the validation, waits for
    /// ever. When the validation's task is cancelled, each async singleton not made yet fails
    /// with the cancellation: a validation cut short is not valid.
    ///
    /// - Throws: what `makeContainer` throws.
    public nonisolated(nonsending) static func validateIncludingAsync<Container>(
        building makeContainer: () throws -> Container
    ) async rethrows -> ServiceValidationReport {
        try await including(async: { log in Validation(try makeContainer(), log: log, call: asyncCall) })
    }

    /// The validation that `validate` makes, with `log` recording on this thread, then the gets
    /// of the async and main-actor providers, recorded in this task. The task records for the
    /// validation from the start: an async `atOne` provider starts its making as its container
    /// is built. The log counts as a running validation's from the building to the last awaited
    /// get, so that the making records for it whenever its task runs, between the synchronous
    /// part and the awaited one too; not while the scope closes, which may take long and records
    /// nothing.
    private nonisolated(nonsending) static func including(
        async validate: (GetLog) throws -> Validation
    ) async rethrows -> ServiceValidationReport {
        let log = GetLog()
        let recording = TaskRecording(log: log, node: nil)
        let validation = try await GetRecording.whileValidating(log) {
            var validation = try TaskRecording.with(recording) {
                try GetRecording.withThreadLog(log) { try validate(log) }
            }
            await validation.awaitGets(recording)
            return validation
        }
        return await validation.closedReport()
    }

    /// How a builder is passed to the validation including async providers, for its report's
    /// advice.
    private static let asyncCall = "validateIncludingAsync(building:)"

    /// Makes the providers of `container` once, with `log` recording on this thread.
    static func check(_ container: Any, log: GetLog) -> ServiceValidationReport {
        let validation = Validation(container, log: log, call: "validate(building:)")
        let scope = validation.scope
        Task.detached { await Validation.close(scope) }
        return validation.report()
    }
}

/// One validation: the providers found in a container, and the outcome of each get.
private struct Validation {
    let container: Any
    let walk: ContainerWalk
    /// The scope every get of the validation runs in, for its scoped providers.
    let scope: ServiceScope
    /// The error of each provider that failed, by its index in `walk.found`.
    var errors: [Int: ServiceObtainError] = [:]
    /// The indices of the async and main-actor providers that were got.
    var awaited: Set<Int> = []
    /// What the validation records.
    let log: GetLog
    /// What the log recorded, read while it records: the identities it names are not reused
    /// meanwhile (`GetRecording.retire`).
    private(set) var state = GetLog.State()
    /// How the validation is called with a builder, for the report's advice.
    let call: String

    /// Finds the providers of `container` and makes those that a synchronous get makes, with
    /// `log` recording on this thread.
    init(_ container: Any, log: GetLog, call: String) {
        self.container = container
        self.call = call
        self.log = log
        walk = ContainerWalk(container)
        scope = ServiceScope(label: "validation of \(type(of: container))")
        // Made last to first: a container usually lists a provider after those it depends on,
        // which its making then makes (or reads) itself, so that the graph shows them. The
        // outcomes are reported first to last.
        var errors: [Int: ServiceObtainError] = [:]
        scope.run {
            for (index, entry) in walk.found.enumerated().reversed() {
                if case .provider(let provider) = entry.found, let error = provider.validationGet() {
                    errors[index] = error
                }
            }
        }
        self.errors = errors
        state = log.snapshot
    }

    /// Awaits the gets of the async and main-actor providers, with `recording` (of the log)
    /// recording in this task.
    nonisolated(nonsending) mutating func awaitGets(_ recording: TaskRecording) async {
        await GetRecording.withTaskLog(recording) {
            await getAwaited()
            state = log.snapshot
        }
    }

    /// Closes the scope of the validation's gets, and gives the report.
    nonisolated(nonsending) func closedReport() async -> ServiceValidationReport {
        await Self.close(scope)
        return report()
    }

    /// Awaits a get of each async and main-actor provider, last to first, in the scope.
    private nonisolated(nonsending) mutating func getAwaited() async {
        var errors = errors
        var awaited = awaited
        await scope.run {
            for (index, entry) in walk.found.enumerated().reversed() {
                guard case .skipped(_, _, let found?) = entry.found, let provider = found as? any AwaitedProvider else {
                    continue
                }
                awaited.insert(index)
                errors[index] = await provider.awaitedValidationGet()
            }
        }
        self.errors = errors
        self.awaited = awaited
    }

    /// Closes `scope`, and reports what failed to close to the ``ProvidersLogger``s.
    static func close(_ scope: ServiceScope) async {
        let report = await scope.close()
        if !report.isClean {
            LogRecorder.recorder.scopeCloseFailure(scope: scope, report: report)
        }
    }

    /// What the graph draws of `provider`, skipped at `index` by the synchronous gets: an async
    /// or main-actor provider when it was got, or asked for.
    private func drawnFacts(of provider: (any ShutdownProvider)?, at index: Int) -> ProviderFacts? {
        guard let facts = (provider as? any AwaitedProvider)?.graphFacts else { return nil }
        let isSeen = awaited.contains(index) || facts.identities.contains { state.services[$0] != nil }
        return isSeen ? facts : nil
    }

    /// The report, with what the log recorded of the synchronous gets.
    func report() -> ServiceValidationReport {
        var made: [String] = []
        var failures: [ServiceValidationReport.Failure] = []
        var skipped: [ServiceValidationReport.Skipped] = []
        var providers: [(path: String, facts: ProviderFacts)] = []
        func outcome(at index: Int, path: String) {
            if let error = errors[index] {
                failures.append(.init(path: path, error: error))
            } else {
                made.append(path)
            }
        }
        for (index, (path, found)) in walk.found.enumerated() {
            switch found {
            case .skipped(let service, let reason, let provider):
                if let facts = drawnFacts(of: provider, at: index) {
                    providers.append((path, facts))
                }
                if awaited.contains(index) {
                    outcome(at: index, path: path)
                } else {
                    skipped.append(.init(path: path, serviceType: service, reason: reason))
                }
            case .absent(let service):
                skipped.append(.init(path: path, serviceType: service, reason: "nil: no provider to make", isAbsent: true))
            case .provider(let provider):
                // The identities it names are those of the provider and its sources, which the
                // container keeps.
                let facts = provider.graphFacts
                providers.append((path, facts))
                if let params = facts.params {
                    let reason = "needs params of type \(TypeName.of(params)): get it with params to check it"
                    skipped.append(.init(path: path, serviceType: facts.service, reason: reason))
                } else {
                    outcome(at: index, path: path)
                }
            }
        }
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
            graph: graph,
            buildingCall: call
        )
    }
}
