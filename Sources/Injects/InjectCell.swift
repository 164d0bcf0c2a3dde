import Synchronization

/// The shared storage of one injected property: the value once injected, the ready handlers,
/// and the pending injection in a registry.
///
/// The value is written once, under `lock`, before `ready` is stored with release ordering; a
/// read that sees `ready` with acquire ordering reads it with no lock and no lookup. Subclasses
/// say how the value is obtained at the first read.
@usableFromInline
class InjectCell<Value>: @unchecked Sendable {  // guarded by `lock` and `ready`, as said above
    @usableFromInline final let ready = Atomic<Bool>(false)
    // Written once under `lock` (see above); read without it only after `ready` was seen. Those
    // two rules already make every access exclusive, so the dynamic exclusivity check, which
    // would cost more than the read itself, is left out.
    @exclusivity(unchecked) @usableFromInline final var stored: Value?
    final let site: InjectSite
    // Guards `stored` until `ready` is set, `handlers` and `waiter`.
    final let lock = ServiceLock()
    private final var handlers: [(Value) -> Void] = []
    private final var waiter: (registry: InjectRegistry, id: UInt64)?

    init(site: InjectSite) {
        self.site = site
    }

    deinit {
        if let waiter {
            waiter.registry.cancelWaiter(waiter.id)
        }
    }

    /// The injected value, injecting it now when it is not yet.
    @inlinable
    final var value: Value {
        if ready.load(ordering: .acquiring) {
            return stored.unsafelyUnwrapped
        }
        return valueAtFirstRead()
    }

    /// The value of `cell`, read without retaining the cell.
    ///
    /// A wrapper's getter calls it with its `unmanagedCell`, which its `cell` keeps alive as long
    /// as the wrapper, so as long as the getter runs (its owner holds it). Reading through the
    /// strong `cell` would copy it out of the owner's storage: a retain and a release around
    /// every read, which only the first read needs; here only that first read
    /// (`valueAtFirstRead(of:)`) holds the cell.
    ///
    /// Specialized in the caller but not inlined: inlined into a getter, it would leave the
    /// first-read call in the getter, and the optimizer keeps a copy of the wrapper (a retained
    /// cell) alive around such a call.
    @inlinable @inline(never)
    static func value(of cell: Unmanaged<InjectCell<Value>>) -> Value {
        let ready = cell._withUnsafeGuaranteedRef { $0.ready.load(ordering: .acquiring) }
        if ready {
            return cell._withUnsafeGuaranteedRef { $0.stored.unsafelyUnwrapped }
        }
        return valueAtFirstRead(of: cell)
    }

    // Out of line: the read above stays a few instructions.
    @usableFromInline @inline(never)
    static func valueAtFirstRead(of cell: Unmanaged<InjectCell<Value>>) -> Value {
        cell.takeUnretainedValue().value
    }

    @usableFromInline
    final func valueAtFirstRead() -> Value {
        if let value = lock.withLock({ stored }) {
            return value
        }
        return publish(obtainAtFirstRead())
    }

    /// Obtains the value at a first read that found it not injected; crashes when it cannot.
    func obtainAtFirstRead() -> Value { preconditionFailure("overridden by every subclass") }

    /// Whether the value is injected (its ready handlers may still be running).
    final var isReady: Bool {
        lock.withLock { stored != nil }
    }

    /// Stores `made` unless a value is already stored, runs the ready handlers, and returns the
    /// stored value.
    @discardableResult
    final func publish(_ made: @autoclosure () -> Value) -> Value {
        if let value = lock.withLock({ stored }) { return value }
        let candidate = made()
        let (winner, handlers, waiter): (Value, [(Value) -> Void], (InjectRegistry, UInt64)?) = lock.withLock {
            if let value = stored {
                return (value, [], nil)
            }
            stored = candidate
            defer {
                self.handlers = []
                self.waiter = nil
            }
            return (candidate, self.handlers, self.waiter)
        }
        if let (registry, id) = waiter {
            registry.cancelWaiter(id)
        }
        for handler in handlers { handler(winner) }
        ready.store(true, ordering: .releasing)
        return winner
    }

    /// Runs `handler` with the value: at once when it is injected, else right after injection.
    final func addReadyHandler(_ handler: @escaping (Value) -> Void) {
        let value: Value? = lock.withLock {
            if let value = stored { return value }
            handlers.append(handler)
            return nil
        }
        if let value { handler(value) }
    }

    /// Injects from the newest `Source` in `registry` now, or as soon as one is registered.
    ///
    /// - Returns: the value when it was injected now.
    final func injectNowOrWait<Source>(
        from registry: InjectRegistry,
        _ source: Source.Type,
        make: @escaping (Source) -> Value
    ) -> Value? {
        let resolution = registry.resolveOrWait(Source.self) { [weak self] found in
            self?.publish(make(found))
        }
        switch resolution {
        case .found(let found):
            return publish(make(found))
        case .waiting(let id):
            lock.withLock { waiter = (registry, id) }
            return nil
        }
    }
}
