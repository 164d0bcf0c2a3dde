/// What an inject wrapper keeps (`@ServiceInject`, `@ServiceProviderInject`, `@EntityInject`):
/// the value when it was injected as the wrapper was made, else the cell that injects it.
///
/// Each of these wrappers has it as its one stored property, so that they make, read and
/// project their value with the same code. Making and reading it are inlinable: once inlined,
/// the storage costs what its three fields stored in the wrapper itself would.
///
/// `@ServiceParamsInject` keeps fields of its own: it always has a cell (its projected value
/// gives the params to it), and is never injected when it is made.
@usableFromInline
struct InjectStorage<Value> {
    /// The value when it was injected as the wrapper was made, or by the cell as it started.
    @usableFromInline let early: Value?
    /// The injection's cell, unless the value was injected when the wrapper was made.
    @usableFromInline let cell: InjectCell<Value>?
    // The same cell for reads, which need not retain it: `cell` keeps it alive as long as the
    // wrapper is.
    @usableFromInline let reader: UnretainedReference<InjectCell<Value>>?

    /// The storage of a wrapper injected when it is made: no cell, nothing to wait for.
    @inlinable
    init(injected value: Value) {
        early = value
        cell = nil
        reader = nil
    }

    /// The storage of a wrapper that injects from `registry`, with a cell that `make`s the
    /// value from the box of the newest registered `Source` (a container or an entity): now when
    /// one is registered, else as soon as one is, unless `lazy` leaves it to the first read.
    ///
    /// Always inlined into the wrapper's `waiting` function, which is kept out of its owner's
    /// initializer: `make` is then specialized there, and reads the source at the key path the
    /// owner wrote. The cell takes `registry` over (`consuming`): no retain and release of it
    /// around `start`.
    @inlinable @inline(__always)
    init<Source>(
        waitingFor source: Source.Type,
        in registry: consuming InjectRegistry,
        site: InjectSite,
        lazy: Bool,
        madeInScope: UInt64 = 0,
        make: @escaping (_ box: AnyObject, _ cell: InjectCell<Value>) -> Value
    ) {
        let cell = InjectCell<Value>(
            source,
            box: InjectBox<Source>.boxing,
            in: registry,
            site: site,
            madeInScope: madeInScope,
            make: make
        )
        self.cell = cell
        self.reader = UnretainedReference(cell)
        self.early = cell.start(lazy: lazy)
    }

    /// The injected value: a stored read once injected; a read that finds it not injected yet
    /// injects it now, or stops the program naming the wrapper's declaration.
    @inlinable
    var value: Value {
        if let early { return early }
        return InjectCell.value(of: reader!)
    }

    /// The injection state, for the wrapper's projected value.
    var state: InjectState<Value> {
        InjectState(cell: cell, early: early)
    }
}

extension InjectStorage: Sendable where Value: Sendable {}
