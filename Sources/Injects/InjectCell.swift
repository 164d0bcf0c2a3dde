/// The shared storage of one injected property: the value once injected, its ready handlers,
/// its pending injection in a registry, and the params of a `@ServiceParamsInject` property.
///
/// The value comes from the newest `Source` registered in `registry` (a container or an
/// entity), made into the value by `make`. It is published once in a `OnceCell`, so a read of
/// an injected property is an acquire load and a read; everything else is under `state`'s lock,
/// which is never held while a handler or `make` runs.
@usableFromInline
final class InjectCell<Value>: Sendable {
    @usableFromInline let published = OnceCell<Value>()
    let site: InjectSite
    let registry: InjectRegistry
    // What the property was given (`make`, its ready handlers, its params) runs on, or goes to,
    // whichever thread injects (`UncheckedSendable`).
    private let boxedInjectNowOrWait: UncheckedSendable<(InjectCell<Value>, _ params: Any?) -> Value?>
    private let boxedObtain: UncheckedSendable<(InjectCell<Value>, _ params: Any?) -> Value>
    /// The params type of a cell whose value is made from params, which must be given before
    /// it is injected; `nil` for other cells.
    let paramsType: Any.Type?
    private let state = Locked(State())

    /// Injects now, or leaves a waiter in `registry`; returns the value when injected now.
    private var injectNowOrWait: (InjectCell<Value>, _ params: Any?) -> Value? { boxedInjectNowOrWait.value }
    /// Obtains the value at a first read that finds it not injected; stops the program when it
    /// cannot.
    private var obtain: (InjectCell<Value>, _ params: Any?) -> Value { boxedObtain.value }

    private struct State {
        var boxedHandlers = UncheckedSendable<[(Value) -> Void]>([])
        var waiter: UInt64?
        var boxedParams = UncheckedSendable<Any?>(nil)
        /// For a params cell: whether `setParameters` leaves the injection to the first read.
        var lazyInject = false

        var handlers: [(Value) -> Void] {
            get { boxedHandlers.value }
            set { boxedHandlers.value = newValue }
        }
        /// The params, once given (an `Optional.none` params is a given value).
        var params: Any? {
            get { boxedParams.value }
            set { boxedParams.value = newValue }
        }
    }

    /// A cell of the newest `Source` in `registry`, made into the value by `make`.
    convenience init<Source>(
        _ source: Source.Type,
        in registry: InjectRegistry,
        site: InjectSite,
        make: @escaping (Source) -> Value
    ) {
        self.init(Source.self, in: registry, site: site, paramsType: nil) { source, _ in make(source) }
    }

    /// A cell of the newest `Source` in `registry`, made into the value with the params given
    /// to `setParameters` by `make`.
    convenience init<Source, Params>(
        _ source: Source.Type,
        in registry: InjectRegistry,
        site: InjectSite,
        lazyInject: Bool,
        make: @escaping (Source, Params) -> Value
    ) {
        self.init(Source.self, in: registry, site: site, paramsType: Params.self) { source, params in
            // Only `setParameters` gives params, as a `Params`.
            make(source, params as! Params)
        }
        state.withLock { $0.lazyInject = lazyInject }
    }

    private init<Source>(
        _ source: Source.Type,
        in registry: InjectRegistry,
        site: InjectSite,
        paramsType: Any.Type?,
        make: @escaping (Source, _ params: Any?) -> Value
    ) {
        self.site = site
        self.registry = registry
        self.paramsType = paramsType
        boxedInjectNowOrWait = UncheckedSendable { cell, params in
            cell.injectNowOrWait(Source.self, params: params) { make($0, params) }
        }
        boxedObtain = UncheckedSendable { cell, params in
            make(cell.registry.resolve(Source.self, orCrashAt: cell.site), params)
        }
    }

    deinit {
        if let waiter = state.withLock({ $0.waiter }) {
            registry.cancelWaiter(waiter)
        }
    }

    /// The value of the cell that `reference` names, injecting it now when it is not yet.
    ///
    /// A wrapper's getter calls it with an unretained reference to its cell, which the wrapper
    /// keeps alive with its strong one: reading through the strong one would copy the wrapper
    /// out of its owner, a retain and a release around every read. Specialized in the caller
    /// but not inlined: inlined into a getter, it would leave the first-read call there, and the
    /// optimizer keeps a copy of the wrapper (a retained cell) alive around such a call.
    @inlinable @inline(never)
    static func value(of reference: UnretainedReference<InjectCell<Value>>) -> Value {
        if let value = reference.withObject({ $0.published.value }) {
            return value
        }
        return reference.withObject { $0.valueAtFirstRead() }
    }

    @usableFromInline
    func valueAtFirstRead() -> Value {
        if let value = published.value {
            return value
        }
        let params = state.withLock { $0.params }
        if let paramsType, params == nil {
            let message = InjectFailure.missingParamsMessage(service: Value.self, params: paramsType, site: site)
            InjectFailure.crash(message, site: site)
        }
        return publish(obtain(self, params))
    }

    /// Injects now when a source is registered, else as soon as one is (unless `lazy`); a
    /// params cell waits for its params.
    ///
    /// - Returns: the value when it was injected now.
    func start(lazy: Bool) -> Value? {
        lazy || paramsType != nil ? nil : injectNowOrWait(self, nil)
    }

    /// Takes the params; injects now or when the source is registered, unless lazy.
    ///
    /// - Returns: the value when it was injected now.
    @discardableResult
    func setParameters<Params>(_ params: Params, lazyInject lazy: Bool?, call: InjectSite) -> Value? {
        let outcome: Result<Bool, InjectFailure.Message> = state.withLock { state in
            let injected = published.value != nil
            if state.params != nil || injected {
                let message = InjectFailure.paramsAlreadySetMessage(
                    service: Value.self, injected: injected, site: site, call: call
                )
                return .failure(InjectFailure.Message(text: message))
            }
            state.params = params
            return .success(lazy ?? state.lazyInject)
        }
        switch outcome {
        case .failure(let failure): InjectFailure.crash(failure.text, site: site)
        case .success(true): return nil
        case .success(false): return injectNowOrWait(self, params)
        }
    }

    /// Whether the value is injected (its ready handlers may still be running).
    var isReady: Bool {
        published.value != nil
    }

    /// Publishes `made` unless a value is already published, runs the ready handlers, and
    /// returns the published value.
    @discardableResult
    func publish(_ made: @autoclosure () -> Value) -> Value {
        if let value = published.value { return value }
        let candidate = made()
        let (winner, handlers, waiter): (Value, [(Value) -> Void], UInt64?) = state.withLock { state in
            if let value = published.value {
                return (value, [], nil)
            }
            published.publish(candidate)
            defer {
                state.handlers = []
                state.waiter = nil
            }
            return (candidate, state.handlers, state.waiter)
        }
        if let waiter {
            registry.cancelWaiter(waiter)
        }
        for handler in handlers { handler(winner) }
        return winner
    }

    /// Runs `handler` with the value: at once when it is injected, else right after injection.
    func addReadyHandler(_ handler: @escaping (Value) -> Void) {
        let value: Value? = state.withLock { state in
            if let value = published.value { return value }
            state.handlers.append(handler)
            return nil
        }
        if let value { handler(value) }
    }

    /// Injects from the newest `Source` in the registry now, or as soon as one is registered.
    private func injectNowOrWait<Source>(
        _ source: Source.Type,
        params: Any?,
        make: @escaping (Source) -> Value
    ) -> Value? {
        let resolution = registry.resolveOrWait(Source.self) { [weak self] found in
            self?.publish(make(found))
        }
        switch resolution {
        case .found(let found):
            return publish(make(found))
        case .waiting(let id):
            // A registration on another thread may have injected the value already; its waiter
            // is gone then, and its id is not kept.
            state.withLock { state in
                if published.value == nil { state.waiter = id }
            }
            return nil
        }
    }
}
