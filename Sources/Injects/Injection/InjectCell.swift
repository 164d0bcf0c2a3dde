/// The shared storage of an injected property that was not injected when its wrapper was made:
/// the value once injected, its ready handlers, its pending injection in a registry, and the
/// params of a `@ServiceParamsInject` property.
///
/// The value is made by `make` from the box of the newest registered value of the type
/// `source` names (a container or an entity; see `InjectRegistry.newestBox(_:box:)`). It is
/// published once in a `OnceCell`, so a read of an injected property is an acquire load and a
/// read; everything else is under `state`'s lock, which is never held while a handler or
/// `make` runs.
///
/// The wrappers make the cell, and run what injects it (`start`, the first read), in code
/// specialized for their types: the cell's own state does not depend on `Value`, so that
/// nothing it does, its `deinit` included, looks up a generic type at run time.
@usableFromInline
final class InjectCell<Value>: Sendable {
    @usableFromInline let published = OnceCell<Value?>()
    @usableFromInline let site: InjectSite
    @usableFromInline let registry: InjectRegistry
    /// The type of the registered value the value is made from.
    @usableFromInline let source: Any.Type
    // `box` and `make` run on whichever thread injects, as the value they are given does: not
    // checked for `Sendable` (see `Unchecked.swift`, "Closures an injected property was given").
    /// Casts a registered value to `source` and boxes it (`InjectBox.boxing`).
    @usableFromInline nonisolated(unsafe) let box: (Any) -> AnyObject?
    /// Makes the value from such a box; it is given this cell, whose `site` it names and whose
    /// `givenParams` a params cell's closure reads. So the closure need not capture them: one
    /// that captures its key path alone is that key path, not a context allocated for it.
    @usableFromInline nonisolated(unsafe) let make: (_ box: AnyObject, _ cell: InjectCell<Value>) -> Value
    /// The params type of a cell whose value is made from params, which must be given before
    /// it is injected; `nil` for other cells.
    @usableFromInline let paramsType: Any.Type?
    @usableFromInline let state: Locked<InjectCellState>
    /// The number of the scope that the property's object was made in, for a `@ServiceInject`
    /// cell (`ServiceScope.numberForObjectMadeNow`; 0 for the others): a scoped service is
    /// injected in that scope only.
    @usableFromInline let madeInScope: UInt64

    /// A cell of the newest registered `source` value in `registry`, boxed by `box`, made into
    /// the value by `make`; `paramsType` for a cell whose value needs params.
    @inlinable
    init(
        _ source: Any.Type,
        box: @escaping (Any) -> AnyObject?,
        in registry: InjectRegistry,
        site: InjectSite,
        paramsType: Any.Type? = nil,
        lazyInject: Bool = false,
        madeInScope: UInt64 = 0,
        make: @escaping (_ box: AnyObject, _ cell: InjectCell<Value>) -> Value
    ) {
        self.source = source
        self.box = box
        self.registry = registry
        self.site = site
        self.paramsType = paramsType
        self.make = make
        state = Locked(InjectCellState(lazyInject: lazyInject))
        self.madeInScope = madeInScope
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

    /// Injects the value at a first read that finds it not injected; stops the program when it
    /// cannot.
    @inlinable
    func valueAtFirstRead() -> Value {
        if let value = published.value {
            return value
        }
        if paramsType != nil, state.withLock({ $0.params == nil }) {
            crashForMissingParams()
        }
        return publish(make(newestBoxOrCrash(), self))
    }

    /// The params given to `setParameters`, which a params cell's `make` reads; `nil` before.
    @inlinable
    var givenParams: Any? {
        state.withLock { $0.params }
    }

    /// The box of the newest registered source; stops the program when there is none.
    @inlinable
    func newestBoxOrCrash() -> AnyObject {
        guard let found = registry.newestBox(ObjectIdentifier(source), box: box) else {
            crashForMissingSource()
        }
        return found
    }

    @usableFromInline
    func crashForMissingParams() -> Never {
        let message = InjectFailure.missingParamsMessage(service: Value.self, params: paramsType!, site: site)
        InjectFailure.crash(message, site: site)
    }

    @usableFromInline
    func crashForMissingSource() -> Never {
        InjectFailure.crash(InjectFailure.missingMessage(source, injecting: Value.self, in: registry, site: site), site: site)
    }

    /// Injects now when a source is registered, else as soon as one is (unless `lazy`); a
    /// params cell waits for its params.
    ///
    /// - Returns: the value when it was injected now.
    @inlinable
    func start(lazy: Bool) -> Value? {
        lazy || paramsType != nil ? nil : injectNowOrWait()
    }

    /// Takes the params; injects now or when the source is registered, unless lazy.
    ///
    /// - Returns: the value when it was injected now.
    @inlinable @discardableResult
    func setParameters<Params>(_ params: Params, lazyInject lazy: Bool?, call: InjectSite) -> Value? {
        let outcome: (alreadySet: Bool, injected: Bool, injectNow: Bool) = state.withLock { state in
            let injected = published.isPublished
            if state.params != nil || injected {
                return (true, injected, false)
            }
            state.params = params
            return (false, false, !(lazy ?? state.lazyInject))
        }
        if outcome.alreadySet {
            crashForParamsAlreadySet(injected: outcome.injected, call: call)
        }
        return outcome.injectNow ? injectNowOrWait() : nil
    }

    @usableFromInline
    func crashForParamsAlreadySet(injected: Bool, call: InjectSite) -> Never {
        let message = InjectFailure.paramsAlreadySetMessage(service: Value.self, injected: injected, site: site, call: call)
        InjectFailure.crash(message, site: call)  // the mistaken call, which the message tells from the attribute
    }

    /// Whether the value is injected (its ready handlers may still be running).
    var isReady: Bool {
        published.isPublished
    }

    /// Publishes `candidate` unless a value is already published, runs the ready handlers, and
    /// returns the published value.
    ///
    /// It takes the value made rather than a closure making it, which would be a context to
    /// allocate. Callers check that nothing is published before they make the value.
    @inlinable @discardableResult
    func publish(_ candidate: Value) -> Value {
        let work: (handlers: [(Any) -> Void], waiter: UInt64?)? = state.withLock { state in
            if published.isPublished {
                return nil
            }
            published.publish(candidate)
            defer {
                state.handlers = []
                state.waiter = nil
            }
            return (state.handlers, state.waiter)
        }
        guard let work else {
            // Another thread published first: its value wins.
            return published.value!
        }
        if let waiter = work.waiter {
            registry.cancelWaiter(waiter)
        }
        for handler in work.handlers { handler(candidate) }
        return candidate
    }

    /// Runs `handler` with the value: at once when it is injected, else right after injection.
    func addReadyHandler(_ handler: @escaping (Value) -> Void) {
        let value: Value? = state.withLock { state in
            if let value = published.value { return value }
            // Called with the published value only (see `publish`). Appended in the box itself:
            // through `handlers`, each append would copy the whole list.
            state.boxedHandlers.value.append { handler($0 as! Value) }
            return nil
        }
        if let value { handler(value) }
    }

    /// Injects from the newest registered source now, or as soon as one is registered.
    @inlinable
    func injectNowOrWait() -> Value? {
        let resolution = registry.newestBoxOrWait(ObjectIdentifier(source), box: box) { [weak self] found in
            // A first read may have injected the value since the cell started waiting.
            guard let self, !self.published.isPublished else { return }
            self.publish(self.make(found, self))
        }
        switch resolution {
        case .found(let found):
            // A first read on another thread may have injected the value since the params were
            // given: then it is not made a second time.
            if let value = published.value { return value }
            return publish(make(found, self))
        case .waiting(let id):
            // A registration on another thread may have injected the value already; its waiter
            // is gone then, and its id is not kept.
            state.withLock { state in
                if !published.isPublished { state.waiter = id }
            }
            return nil
        }
    }
}

/// The state of an `InjectCell` under its lock. It does not depend on the cell's value type, so
/// that the cell's unspecialized code (its `deinit`) looks up no generic type at run time.
@usableFromInline
struct InjectCellState: Sendable {
    // The handlers run on, and the params go to, whichever thread injects (`UncheckedSendable`).
    @usableFromInline var boxedHandlers = UncheckedSendable<[(Any) -> Void]>([])
    @usableFromInline var boxedParams = UncheckedSendable<Any?>(nil)
    @usableFromInline var waiter: UInt64?

    /// The ready handlers, each taking the value as `Any` (see `addReadyHandler`).
    @inlinable
    var handlers: [(Any) -> Void] {
        get { boxedHandlers.value }
        set { boxedHandlers.value = newValue }
    }
    /// The params, once given (an `Optional.none` params is a given value).
    @inlinable
    var params: Any? {
        get { boxedParams.value }
        set { boxedParams.value = newValue }
    }
    /// For a params cell: whether `setParameters` leaves the injection to the first read.
    @usableFromInline var lazyInject: Bool

    // Inlinable, so that the state is made in place in the cell's lock: made by a call, it was
    // copied there and the original destroyed, both through its value witnesses.
    @inlinable
    init(lazyInject: Bool) {
        self.lazyInject = lazyInject
    }
}
