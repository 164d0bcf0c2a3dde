import Synchronization

// Every construct of the package that leaves out a check the compiler or the runtime would make
// lives in this file (but for six stored properties, `LazySource.factory` and `LazySource.madeAt`,
// `SessionServiceCell.subscription`, `ServiceMainActorProvider.state` and `InjectCell`'s `box` and
// `make`, the `OnceCell` fields that `LazySource` keeps itself, and four captured values, which
// must sit where they are used and are described here), with the invariant that makes it safe and
// what it pays for: the benchmark case that misses its target without it (`swift run -c release
// ServiceContainerKitBenchmarks`), each measured by putting the checked form back, or, for
// `UncheckedSendable`, the documented contract of the providers. (The other raw memory of the
// package is the per-thread `ThreadContext`, reached through a C thread-local pointer that only its
// own file touches; that pointer, the count of running validations and recorders, whether a scope
// or a scoped provider was ever made, and the count of singleton makings that chains of tasks name
// are the four C globals of `Sources/CServiceContainerKit`, whose header says why each is in C and
// which case measures it.)
//
// Outside this file, the only unchecked `Sendable` conformances are those of the public classes
// that can be subclassed (`ServiceProvider`, `ServiceParamsProvider`, `ServiceLocator`,
// `ServiceEasyLocator`), which Swift never checks, and of their subclasses, which Swift asks to
// restate it; each says so beside it.

// MARK: - A value guarded by a lock beside it

// `LazySource.factory` and `LazySource.madeAt` are the two stored properties that a `Locked`
// guards from outside: `nonisolated(unsafe) var`s of the source, next to the source's
// `inProgress: Locked<Making?>`, with their run-time exclusivity check left out too
// (`@exclusivity(unchecked)`).
//
// **Invariant.** `factory` is read and written only inside `inProgress.withLock` (by the get that
// marks the making, and by the one that publishes the service and releases it), and the source's
// `deinit` runs when no other thread can reach it. Every access is therefore serialized by that
// lock, as if the factory were part of its state, and no two accesses can overlap. `madeAt` is
// written once, under the same lock, before the service is published (the release store of
// `isSet`), and read only by whoever saw it published (an acquire load): as `stored` is, under
// `OnceCell`'s invariant.
//
// **Pays for** `hand-written/cold start, 200 lazy providers` (`--instructions`): inside the
// lock's state, the factory made that state generic over the service, and every lazy provider
// released looked up the metadata of three generic types (the state, its box and the mutex's
// storage) to destroy it: 1,388,000 instructions a container instead of 1,222,000 (2.55 times
// the closures written by hand instead of 2.24). The exclusivity check called into the runtime
// on both accesses of each making: 1,115,000 instructions instead of 1,066,000 (2.05 times the
// closures by hand, past the ceiling of 2.0, instead of 1.95).

// MARK: - Closures an injected property was given

// `InjectCell.box` and `InjectCell.make` (ServiceInjects) are `nonisolated(unsafe) let`s: the
// closures a property wrapper was given, which run on whichever thread injects the property.
//
// **Invariant.** They are what `UncheckedSendable` would hold for an injected property (see
// its invariant below): set once in the cell's initializer, never changed, and called with the
// registered value that the registry hands to that thread the same way.
//
// **Pays for** `injects/handler per request, 1 lazy inject` (`--instructions`): in the box, a
// closure is stored as a value of a generic type, so each is wrapped in a thunk of its own when
// the cell is made, two allocations more per cell: 3,744 instructions instead of 3,038, past
// the ceiling of 3,000 over the handler taking its service in `init`.

// MARK: - Values a closure captures

// Four closures that a provider keeps capture a value that is not `Sendable` through a
// `nonisolated(unsafe) let`, where the box below would do the same: the fixed params of a
// provider (`ServiceProvider.init(factory:params:)`, `ParamsMaker.bound(to:)`, behind
// `convert(params:)`), and the factory of a safe provider (`ServiceSafeProvider.serialized`,
// `ServiceParamsSafeProvider.serialized`), which need not be `Sendable`.
//
// **Invariant.** The params are handed to every call of the factory, on any thread, as a kept
// service is (see the box's invariant); a safe provider's factory is run one call at a time by
// the provider's serializer (its `NotSafe` gets leave the serialization out, as they say).
//
// **Pays for** `core/convert(params:) get`: these closures are compiled once for all types, and
// reading a value out of the generic box there looks up the box's type at run time on every
// get: 1.9 times the factory called by hand instead of 1.2, past the target of 1.3.

// MARK: - The object a value is

/// `value` taken as the reference it is when `Value` is a class type; `nil` otherwise.
///
/// ```swift
/// if let object = classReference(service) { slots[id] = object }  // no bridging
/// ```
///
/// **Invariant.** A value of a class type is one strong reference, which `unsafeBitCast` hands
/// over as it is (it checks the sizes itself).
///
/// **Pays for** `locator/register a service` (`--instructions`) and `core/shutdown, 1,000 made
/// closable services`: `value as AnyObject` asks the runtime whether the value bridges, through
/// protocol conformance look-ups, and `as? AnyObject` after a check of the type costs twice the
/// reference taken here. Registering an instance in a locator took 3,797 instructions instead of
/// 1,247, past its ceiling of 2.5 times an insert into a dictionary by type (973), and a
/// shutdown's look for services listed twice took about 0.5 µs per service instead of 0.05.
@inlinable @inline(__always)
package func classReference<Value>(_ value: Value) -> AnyObject? {
    Value.self is AnyClass ? unsafeBitCast(value, to: AnyObject.self) : nil
}

/// `object` as a `Value` when the type it has at run time is `Value` itself (not a subclass, not
/// a protocol it conforms to); `nil` otherwise.
///
/// ```swift
/// let service = exactly(object, as: Settings.self)  // the same object, typed; or nil
/// ```
///
/// **Invariant.** The object's run-time type is `Value`, so `Value` is a class type and the
/// object is one strong reference of it, which `unsafeBitCast` hands over as it is.
///
/// **Pays for** `lookup among 1,000 types`: a locator's get of an instance it keeps compared the
/// slot's type and then cast with `as?`, a call of `swift_dynamicCastClass`; the instance's type
/// is the slot's, so the compare alone decides.
@inlinable @inline(__always)
package func exactly<Value>(_ object: AnyObject, as type: Value.Type) -> Value? {
    ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(Value.self) ? unsafeBitCast(object, to: Value.self) : nil
}

/// `value`'s object when the type it has at run time is a class; `nil` for any other value.
///
/// ```swift
/// let object = objectReference(of: service)  // the same object as `service`, or nil
/// ```
///
/// A value passed as `Any` opens to the type it has at run time (`classReference` takes it).
/// A value that code generic over its type passed while that type was a protocol (a
/// `ServiceProvider<any Pool>`'s service) opens to the protocol's existential instead, which is
/// no class: the runtime's own conversion takes its object.
@inlinable
package func objectReference(of value: Any) -> AnyObject? {
    if let object = classReference(value) {
        return object
    }
    return type(of: value) is AnyClass ? value as AnyObject : nil
}

// MARK: - Set in init, read in deinit

// `SessionServiceCell.subscription` is a `nonisolated(unsafe) var`: the cell's place among its
// mediator's subscribers, known only once the cell, already made, has subscribed.
//
// **Invariant.** It is written once, at the end of the cell's `init`, before the cell is handed
// to anyone, and read once, in its `deinit`, when no other thread can reach the cell.
//
// **Pays for** `core/session release, 10,000`: kept in the cell's locked state instead, it was
// read under the lock in the `deinit`, which is compiled once for all service types and looked
// up the state's generic types there: releasing 10,000 session providers took about 8.2 ms
// (27 times releasing plain objects) instead of 5.5 ms (18 times).

// MARK: - The main actor's state

// `ServiceMainActorProvider.state` is a `var` of a main-actor class with its run-time
// exclusivity check left out (`@exclusivity(unchecked)`).
//
// **Invariant.** Only the main actor reaches it, which runs one access at a time, and no access
// spans a call: a get copies the state out and switches on the copy; a making stores the new
// state after its factory returned, and the factory, which may get this provider again (a
// cycle) or others, runs between accesses, never inside one. What a store replaces is nothing
// (`unmade`) or the holder of a `weak` service that has died, so its release runs no code of
// the app's inside the access. No two accesses can overlap.
//
// **Pays for** `core/main-actor get (made)` (`--instructions`): the check called into the
// runtime on every get, 144 instructions instead of 208 (+40 over the stored reference read
// instead of +104, past its ceiling of +50).

// MARK: - IdentityKey

/// An object's or a type's identity as a dictionary key, hashed with a few instructions of mixing
/// instead of `Hasher`'s SipHash: the key of a scope's cells (`ServiceScope`) and of a locator's
/// slots named by a type (`LocatorSlots`).
///
/// ```swift
/// var names: [IdentityKey: String] = [:]
/// names[IdentityKey(ObjectIdentifier(Settings.self))] = "settings"  // no SipHash
/// ```
///
/// **Invariant.** `_rawHashValue(seed:)` is the hash that `Dictionary` and `Set` ask of their
/// keys; Swift underscores it, with `Hasher` behind its default. Here it mixes the address with
/// the table's seed (the finalizer of SplitMix64, a bijection whose every output bit depends on
/// every input bit), so equal keys hash alike for a seed, as `Hashable` asks, and distinct keys
/// apart. What SipHash adds is resistance to keys chosen to collide, and these keys are the
/// addresses of objects and types the process made, which nobody chooses. `hash(into:)` stays
/// the identity's own.
///
/// **Pays for** `core/scoped get (made)` (`--instructions`, each pair counted in one build with
/// `ObjectIdentifier` put back as the key): 551 instructions with this key, 647 with the cells
/// keyed by `ObjectIdentifier`; and the locators' look-up by type: `locator/get, 1,000
/// services` 257 and 373, `hand-written/lookup among 1,000 types` 0.73x and 1.18x a dictionary
/// keyed by `ObjectIdentifier`, `locator/register a service` 1,011 and 1,263.
@usableFromInline
package struct IdentityKey: Hashable, Sendable {
    @usableFromInline let id: ObjectIdentifier

    @inlinable
    package init(_ id: ObjectIdentifier) {
        self.id = id
    }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    @inlinable
    package func _rawHashValue(seed: Int) -> Int {
        var mixed = UInt64(UInt(bitPattern: id)) ^ UInt64(UInt(bitPattern: seed))
        mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: mixed ^ (mixed &>> 31))
    }
}

// MARK: - A scope's cell, typed

/// The cell that a scope keeps for a source, as the type that source makes its cells of.
///
/// **Invariant.** A scope keeps its cells by their source's identity (`ServiceScope.cell(for:)`),
/// made by that source on the first ask, and each cell holds its source alive: no other object
/// can take that identity while the cell is kept, so the cell under a source's key is of the type
/// the source makes, which `unsafeDowncast` takes without checking (a debug build still checks).
///
/// **Pays for** `core/scoped get (made)` (`--instructions`): the checked cast looks up the
/// cell's generic type and asks the runtime, 587 instructions instead of 551.
@inlinable @inline(__always)
func cellOfItsSource<Cell: ScopeCell>(_ cell: any ScopeCell, as type: Cell.Type) -> Cell {
    unsafeDowncast(cell, to: Cell.self)
}

// MARK: - UncheckedSendable

/// A value that the compiler cannot see is safe to share, kept by a type that is `Sendable`:
/// the one box of the package for such a value, so that the types built around it (sources,
/// cells, states, registries) are checked by the compiler for everything else they hold.
///
/// ```swift
/// let key = UncheckedSendable(session.key)  // an `AnyHashable`, which a `Sendable` session gives
/// let copy = key.value                // on any thread
/// ```
///
/// **Invariant.** A box holds only a value that the package shares the way its documentation
/// says it does, whatever the value's type:
///
/// - the service a provider keeps (`HeldService`, `ServiceHolder`), or a locator keeps in a slot
///   in place of a provider (`LocatorSlot.instance`), which is the same instance for every
///   thread that gets it:
///   the contract of a plain provider, `Sendable` whatever its service (`docs/concurrency.md`);
/// - a session's key (`AnyHashable`), which a `Sendable` session gives (`SessionKey`);
/// - what an injected property was given (its ready handlers, its params; the closures that
///   box and make its value are `InjectCell`'s fields, above) and what a registry of
///   ServiceInjects holds (the registered containers and entities, the waiters): each runs on,
///   or goes to, whichever thread injects, as `docs/injects.md` ("Threading") says;
/// - in `Locked`, the state and the results passing through the mutex, which makes every
///   access exclusive (the `Locked` itself is `Sendable` only when its state is).
///
/// **Pays for** the `Sendable` providers, containers and wrappers of services that are not
/// `Sendable`: without the box, each type that keeps such a value would skip the compiler's
/// check whole.
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {  // its value's type is any type: see the invariant above
    @usableFromInline package var value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }
}

extension UncheckedSendable: Equatable where Value: Equatable {}

extension UncheckedSendable: Hashable where Value: Hashable {}

// MARK: - OnceCell

/// A value published once, then read by any thread with one acquire load and no lock: the
/// service of an async `atOne` or `lazy` provider or of a scoped provider in one scope, an
/// injected property, the services of a read-only locator. (`LazySource` keeps the same two
/// fields itself; see below.)
///
/// ```swift
/// let cell = OnceCell<Settings?>()
/// creationLock.withLock { _ in if cell.value == nil { cell.publish(Settings()) } }
/// let settings = cell.value  // any thread, no lock
/// ```
///
/// **Invariant.** `stored` is written at most once, before `isSet` is stored with release
/// ordering, by the one thread its owner lets publish (the owner serializes publishing with its
/// own lock, or publishes in its initializer); it is read only after `isSet` was loaded with
/// acquire ordering. A read therefore never overlaps a write, and the run-time exclusivity
/// check on `stored` (`@exclusivity(unchecked)`), which costs more than the read itself, is
/// left out. `takeAtDeinit()` is the one other write, made when nothing else can reach the
/// cell. For the same reason `stored`, the one mutable property, is left out of the compiler's
/// `Sendable` check (`nonisolated(unsafe)`), and the cell is `Sendable` whatever its value,
/// which it shares as `UncheckedSendable`'s invariant says (a service, an injected value, a
/// locator's slots); the rest of the class is checked.
///
/// **Pays for** `core/lazy get (made)` (and every other read of a published value): with the
/// check, each read calls into the runtime twice, and the get costs 105 instructions more than
/// a stored reference read instead of 20, past its ceiling of 25 (`--instructions`).
///
/// `LazySource` keeps the same two fields (`isSet`, `stored`) itself, under the same invariant
/// (it publishes under its `inProgress` lock), rather than in a cell of its own: a lazy
/// provider is then one object fewer to make and release, and `hand-written/cold start, 200
/// lazy providers` costs 1,115,000 instructions a container instead of 1,221,000 (2.05 times
/// the closures written by hand instead of 2.24).
///
/// The cell is generic over the optional it keeps (`OnceCell<Settings?>`), not over the value,
/// so that its release destroys `stored` without looking up the metadata of `Value?`
/// (`OptionalValue` says why).
@usableFromInline
package final class OnceCell<Stored: OptionalValue>: Sendable {
    @usableFromInline package typealias Value = Stored.Wrapped

    @usableFromInline let isSet: Atomic<Bool>
    // Unchecked for `Sendable` and for exclusivity: see the invariant above.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var stored: Stored = nil

    /// A cell with no value yet.
    @inlinable
    package init() {
        isSet = Atomic(false)
    }

    /// A cell published at once with `value`.
    @inlinable
    package init(_ value: Value) {
        stored = Stored(value)
        isSet = Atomic(true)
    }

    /// The value, or `nil` before it is published.
    @inlinable
    package var value: Value? {
        isSet.load(ordering: .acquiring) ? stored.wrapped : nil
    }

    /// Whether the value is published, without reading it: code that is not specialized for
    /// `Value` asks this rather than `value != nil`, which would look up `Value?` at run time.
    @inlinable
    package var isPublished: Bool {
        isSet.load(ordering: .acquiring)
    }

    /// Publishes `value`. The caller holds the lock under which its owner publishes.
    @inlinable
    package func publish(_ value: Value) {
        precondition(!isSet.load(ordering: .relaxed), "a once-published value was published twice")
        stored = Stored(value)
        isSet.store(true, ordering: .releasing)
    }

    /// Takes the value out, in the owner's `deinit`, when no other thread can reach the cell.
    package func takeAtDeinit() -> Value? {
        defer { stored = nil }
        return stored.wrapped
    }
}

// MARK: - UnretainedReference

/// A reference read without retaining the object, because something else keeps it alive.
///
/// ```swift
/// let reference = UnretainedReference(cell)   // `cell`, an InjectCell<Value>, kept by the wrapper
/// reference.withObject { $0.published.value }  // no retain, no release
/// ```
///
/// **Invariant.** Whoever holds an `UnretainedReference` also holds a strong reference to the
/// same object for at least as long (a property wrapper keeps its cell in a `let` beside it), so
/// the object is alive whenever `withObject` runs. It skips only the retain: it is `Sendable`
/// when its object is, as the compiler checks through `Unmanaged`.
///
/// **Pays for** `injects/@ServiceInject read, late`: reading through the wrapper's strong
/// reference copies the wrapper out of its owner, and the read costs 6.8 times a stored
/// property read instead of 1.14 (its target is 1.5).
@usableFromInline
package struct UnretainedReference<Object: AnyObject> {
    @usableFromInline let unmanaged: Unmanaged<Object>

    @inlinable
    package init(_ object: Object) {
        unmanaged = .passUnretained(object)
    }

    /// Runs `body` with the object, which is not retained for it.
    @inlinable
    package func withObject<Result>(_ body: (Object) -> Result) -> Result {
        unmanaged._withUnsafeGuaranteedRef(body)
    }
}

extension UnretainedReference: Sendable where Object: Sendable {}
