/// A synchronized list of registered values (containers or entities) resolved by cast, newest
/// first, with the waiters that want a value of some type as soon as one is registered.
///
/// Both resolvers are built on it. Waiters run outside the lock, on the registering thread, in
/// the order they were added, so they may register or resolve again.
///
/// A wrapper takes its value with `newestBox(_:box:)` (or `newestBoxOrWait(_:box:inject:)`):
/// one look-up in a short list of the values already cast, boxed, to the types asked for, kept
/// until the registered values change (see `InjectBox`).
@usableFromInline
final class InjectRegistry: Sendable {
    /// A registered value. `firstInject` values are removed after their first injection.
    struct Entry {
        let id: UInt64
        /// Handed to whichever thread injects it (`UncheckedSendable`).
        private let boxedValue: UncheckedSendable<Any>
        let firstInject: Bool
        var injected = false

        init(id: UInt64, value: Any, firstInject: Bool) {
            self.id = id
            self.boxedValue = UncheckedSendable(value)
            self.firstInject = firstInject
        }

        var value: Any { boxedValue.value }
    }

    /// Something waiting for a value of one type: a pending injection or a ready handler.
    struct Waiter {
        /// A pending injection counts as an injection of the value it gets; a ready handler does not.
        let isInjection: Bool
        /// Run on whichever thread registers the value (`UncheckedSendable`).
        private let boxedMatch: UncheckedSendable<(Any) -> (() -> Void)?>

        init(isInjection: Bool, match: @escaping (Any) -> (() -> Void)?) {
            self.isInjection = isInjection
            self.boxedMatch = UncheckedSendable(match)
        }

        /// Returns the work to run with `value` when it is of the awaited type, else `nil`.
        var match: (Any) -> (() -> Void)? { boxedMatch.value }
    }

    /// The box of the newest value castable to the type `type` names (see `newestBox(_:box:)`).
    struct CachedBox {
        let type: ObjectIdentifier
        /// Handed to whichever thread injects it, as the value it boxes is (`UncheckedSendable`).
        private let boxed: UncheckedSendable<AnyObject>

        init(type: ObjectIdentifier, box: AnyObject) {
            self.type = type
            self.boxed = UncheckedSendable(box)
        }

        var box: AnyObject { boxed.value }
    }

    /// What a pending injection found: the boxed value at once, or a waiter to cancel later.
    @usableFromInline
    enum Resolution {
        case found(AnyObject)
        case waiting(UInt64)
    }

    /// Names for messages: the resolver's type name and what it holds ("container", "entity";
    /// "containers", "entities").
    let resolverName: String
    let itemName: String
    let itemsName: String
    /// Called outside the lock with this registry and each `firstInject` entry at its first
    /// injection.
    private let firstInjected: (@Sendable (_ registry: InjectRegistry, _ id: UInt64) -> Void)?

    private let state = Locked(State())

    private struct State {
        var entries: [Entry] = []
        /// By id, so that a cancel (the release of every wrapper still waiting) is one removal,
        /// not a pass over them all: releasing n waiting wrappers took time in n², 2 s for
        /// 10,000. The ids grow, so sorting them gives the order in which the waiters came.
        var waiters: [UInt64: Waiter] = [:]
        /// The waiters a registration took out of `waiters` and has not run yet: a cancel or a
        /// `removeAll()` in between takes its waiter out of here, and the registration does not
        /// run it.
        var firing: Set<UInt64> = []
        var lastID: UInt64 = 0
        /// The newest entry castable to each type asked for by `newestBox(_:box:)`, cast and
        /// boxed.
        var boxes: [CachedBox] = []
        /// The registrations that registered nothing, their value being `nil`, as messages name
        /// them: the newest three, which the message of a wrapper that finds no value names.
        var nilRegistrations: [String] = []

        /// Forgets the boxes, when the entries change; they are released by the caller, after
        /// the lock.
        mutating func takeBoxes() -> [CachedBox] {
            defer { boxes = [] }
            return boxes
        }

        /// Takes the waiter `id` out of `waiters`. A registration and a cancel take waiters out
        /// one at a time, so `waiters` and `firing` are made anew, smaller, once they are large
        /// and mostly empty: a table keeps the size it grew to, and 400,000 properties waiting
        /// at once (100,000 handlers of four) would otherwise hold 33 MB for as long as the
        /// process runs. Made anew at an eighth full, a table's copy moves fewer waiters than a
        /// third of those taken out since it grew or was made. A table whose room is 65,536
        /// waiters or less is kept as it is (as tables grow, room for 49,152 in 65,536 slots of
        /// 32 bytes, 2 MB): handlers made and released in rounds before the registration would
        /// otherwise grow it again at each round, hashing every waiter anew (340 instructions
        /// more a waiter, 6%, in `injects/waiting release`, rounds of 10,000, when a room of
        /// 4,096 was kept). The waiters are moved, not released, under the lock.
        mutating func removeWaiter(_ id: UInt64) -> Waiter? {
            let removed = waiters.removeValue(forKey: id)
            if Self.isSparse(count: waiters.count, capacity: waiters.capacity) {
                shrinkWaiters()
            }
            return removed
        }

        // Out of line, as `shrinkFiring()`: the code of a cancel, inlined where a waiting
        // property is released, stays as short as it was (3 instructions more a cancel).
        @inline(never)
        mutating func shrinkWaiters() {
            // Lazy, as `shrinkFiring()`'s: given a `Dictionary`, the new one would keep its storage.
            waiters = Dictionary(uniqueKeysWithValues: waiters.lazy.map { ($0.key, $0.value) })
        }

        /// Takes `id` out of `firing`; whether it was there (see `removeWaiter`).
        mutating func removeFiring(_ id: UInt64) -> Bool {
            let removed = firing.remove(id) != nil
            if Self.isSparse(count: firing.count, capacity: firing.capacity) {
                shrinkFiring()
            }
            return removed
        }

        @inline(never)
        mutating func shrinkFiring() {
            firing = Set(firing.lazy)  // a `Set` given a `Set` keeps its storage
        }

        /// Whether a table of `capacity` holding `count` entries is worth making anew, smaller.
        static func isSparse(count: Int, capacity: Int) -> Bool {
            capacity > keptCapacity && count <= capacity / 8
        }

        /// The room for waiters a table keeps however few are left (see `removeWaiter`).
        static let keptCapacity = 65_536

        mutating func nextID() -> UInt64 {
            lastID += 1
            return lastID
        }

        /// Marks the entry at `index` injected; returns its id when that was its first injection.
        mutating func markInjected(at index: Int) -> UInt64? {
            guard entries[index].firstInject, !entries[index].injected else { return nil }
            entries[index].injected = true
            return entries[index].id
        }

        /// The box of the newest entry of the type `type` names, made by `box` and kept at the
        /// first look-up since the entries changed; with the entry's index when it was made now.
        @inline(__always)
        mutating func newestBox(_ type: ObjectIdentifier, box: (Any) -> AnyObject?) -> (AnyObject, Int?)? {
            for cached in boxes where cached.type == type {
                return (cached.box, nil)
            }
            for index in entries.indices.reversed() {
                guard let boxed = box(entries[index].value) else { continue }
                boxes.append(CachedBox(type: type, box: boxed))
                return (boxed, index)
            }
            return nil
        }

        /// The index of the newest entry castable to `Value`, with the cast value.
        func newest<Value>(_ type: Value.Type) -> (Int, Value)? {
            for index in entries.indices.reversed() {
                if let value = entries[index].value as? Value {
                    return (index, value)
                }
            }
            return nil
        }
    }

    init(
        resolverName: String,
        itemName: String,
        itemsName: String,
        firstInjected: (@Sendable (_ registry: InjectRegistry, _ id: UInt64) -> Void)? = nil
    ) {
        self.resolverName = resolverName
        self.itemName = itemName
        self.itemsName = itemsName
        self.firstInjected = firstInjected
    }

    /// Registers `values` (the last one newest) and runs the waiters they satisfy.
    ///
    /// - Returns: the ids of the new entries and the dynamic types of the values of which one
    ///   was already registered.
    @discardableResult
    func add(_ values: [Any], firstInject: Bool = false) -> (ids: [UInt64], duplicates: [Any.Type]) {
        var work: [(id: UInt64, run: () -> Void)] = []
        var injected: [UInt64] = []
        var fired: [Waiter] = []
        var staleBoxes: [CachedBox] = []
        let result: (ids: [UInt64], duplicates: [Any.Type]) = state.withLock { state in
            staleBoxes = state.takeBoxes()
            let first = state.entries.count
            var duplicates: [Any.Type] = []
            var ids: [UInt64] = []
            for value in values {
                // A duplicate of one registered before or of one earlier in `values`.
                let type = Swift.type(of: value)
                let typeID = ObjectIdentifier(type)
                if state.entries.contains(where: { ObjectIdentifier(Swift.type(of: $0.value)) == typeID }) {
                    duplicates.append(type)
                }
                let id = state.nextID()
                ids.append(id)
                state.entries.append(Entry(id: id, value: value, firstInject: firstInject))
            }
            // In the order the waiters came: a registration is rare, a sort of their ids cheap.
            next: for (id, waiter) in state.waiters.sorted(by: { $0.key < $1.key }) {
                for index in (first..<state.entries.count).reversed() {
                    guard let run = waiter.match(state.entries[index].value) else { continue }
                    work.append((id, run))
                    fired.append(waiter)
                    _ = state.removeWaiter(id)
                    state.firing.insert(id)
                    if waiter.isInjection, let mark = state.markInjected(at: index) {
                        injected.append(mark)
                    }
                    continue next
                }
            }
            return (ids, duplicates)
        }
        report(injected)
        // Each runs unless it was cancelled or removed since the lock was left (by a waiter run
        // before it, or by another thread): a cancel or a `removeAll()` that returned means that
        // its waiter does not run.
        for (id, run) in work where state.withLock({ $0.removeFiring(id) }) {
            run()
        }
        // The fired waiters are released here, outside the lock: their captures may re-enter.
        fired.removeAll()
        staleBoxes.removeAll()
        return result
    }

    private func report(_ injected: [UInt64]) {
        guard let firstInjected else { return }
        for id in injected { firstInjected(self, id) }
    }

    /// Whether a value castable to `type` is registered.
    func contains<Value>(_ type: Value.Type) -> Bool {
        state.withLock { state in state.newest(type) != nil }
    }

    /// The newest value of the type `type` names, taken for an injection and boxed by `box`
    /// (which casts a value to that type and boxes it, or returns `nil`); `nil` when none is
    /// registered. A value registered for its first injection only is marked injected.
    ///
    /// The box is made at the first look-up of the type since the registered values changed,
    /// and kept for the next ones: a look-up is then one search of a short list under the lock,
    /// and the wrapper, specialized for the type, reads its provider from the box after one
    /// class cast. A cast of the registered value for every wrapper would copy the container,
    /// and, in unspecialized code, look up generic types at run time.
    @usableFromInline @inline(__always)
    func newestBox(_ type: ObjectIdentifier, box: (Any) -> AnyObject?) -> AnyObject? {
        var injected: UInt64?
        let found: AnyObject? = state.withLock { state in
            if let (boxed, index) = state.newestBox(type, box: box) {
                injected = index.flatMap { state.markInjected(at: $0) }
                return boxed
            }
            return nil
        }
        if let injected { report([injected]) }
        return found
    }

    /// The box of the newest value of the type `type` names (see `newestBox(_:box:)`), or,
    /// when there is none, a waiter that runs `inject` with the box of the first such value
    /// registered.
    @usableFromInline
    func newestBoxOrWait(
        _ type: ObjectIdentifier,
        box: @escaping (Any) -> AnyObject?,
        inject: @escaping (AnyObject) -> Void
    ) -> Resolution {
        var injected: UInt64?
        let resolution: Resolution = state.withLock { state in
            if let (boxed, index) = state.newestBox(type, box: box) {
                injected = index.flatMap { state.markInjected(at: $0) }
                return .found(boxed)
            }
            let id = state.nextID()
            state.waiters[id] = Waiter(isInjection: true) { value in
                guard let boxed = box(value) else { return nil }
                return { inject(boxed) }
            }
            return .waiting(id)
        }
        if let injected { report([injected]) }
        return resolution
    }

    /// Runs `handler` at once when a value castable to `type` is registered (returning `nil`),
    /// else when the first one is registered (returning the waiter's id).
    func addReadyHandler<Value>(_ type: Value.Type, handler: @escaping () -> Void) -> UInt64? {
        let id: UInt64? = state.withLock { state in
            if state.newest(type) != nil { return nil }
            let id = state.nextID()
            state.waiters[id] = Waiter(isInjection: false) { $0 is Value ? handler : nil }
            return id
        }
        if id == nil { handler() }
        return id
    }

    /// Forgets the waiter `id`, if it has not started to run: also one that a registration on
    /// another thread has taken out and is about to run.
    @usableFromInline
    func cancelWaiter(_ id: UInt64) {
        let removed: Waiter? = state.withLock { state in
            // Rarely there: `add` takes the room of `firing` back as it runs them.
            if state.firing.remove(id) != nil { return nil }
            return state.removeWaiter(id)
        }
        _ = removed  // released outside the lock: its captures may re-enter
    }

    /// Whether the waiter `id` is still waiting: it has neither started to run nor been cancelled.
    func isWaiting(_ id: UInt64) -> Bool {
        state.withLock { state in state.waiters[id] != nil || state.firing.contains(id) }
    }

    /// Removes the values castable to `type` (only the newest one when `onlyLast`).
    func remove<Value>(_ type: Value.Type, onlyLast: Bool) -> Bool {
        let removed: ([Entry], [CachedBox]) = state.withLock { state in
            let boxes = state.takeBoxes()
            if onlyLast {
                guard let (index, _) = state.newest(type) else { return ([], boxes) }
                return ([state.entries.remove(at: index)], boxes)
            }
            let matching = state.entries.filter { $0.value is Value }
            state.entries.removeAll { $0.value is Value }
            return (matching, boxes)
        }
        return !removed.0.isEmpty
    }

    /// Removes the entries `ids`; returns the removed ones (released outside the lock).
    @discardableResult
    func remove(ids: [UInt64]) -> [Entry] {
        let (removed, boxes) = state.withLock { state in
            let removed = state.entries.filter { ids.contains($0.id) }
            state.entries.removeAll { ids.contains($0.id) }
            return (removed, state.takeBoxes())
        }
        _ = boxes  // released outside the lock, as the entries are
        return removed
    }

    /// Removes the entry `id` when it was never injected; returns its value's type when removed.
    func removeIfNotInjected(_ id: UInt64) -> Any.Type? {
        let (removed, boxes): (Entry?, [CachedBox]) = state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.id == id }), !state.entries[index].injected
            else {
                return (nil, [])
            }
            return (state.entries.remove(at: index), state.takeBoxes())
        }
        _ = boxes  // released outside the lock, as the entry is
        return removed.map { Swift.type(of: $0.value) }
    }

    /// Forgets every value and every waiter (also those that a registration has taken out and
    /// is about to run, as `cancelWaiter` does), and the registrations of `nil`.
    func removeAll() {
        let old: ([Entry], [UInt64: Waiter], [CachedBox]) = state.withLock { state in
            defer {
                state.entries = []
                state.waiters = [:]
                state.firing = []
                state.nilRegistrations = []
            }
            return (state.entries, state.waiters, state.takeBoxes())
        }
        _ = old  // released outside the lock: values and state.waiters may re-enter on release
    }

    /// Notes `call` ("ServiceInjectResolver.register(_:) at File.swift:12 was given nil (a
    /// Swift.Optional<App.Services>)"), a registration that registered nothing (a debug build
    /// stops there; a release build goes on): the message of a wrapper that then finds no value
    /// names it, so that the mistake and its line are not lost.
    func noteNilRegistration(_ call: String) {
        state.withLock { state in
            state.nilRegistrations.removeAll { $0 == call }
            state.nilRegistrations.append(call)
            if state.nilRegistrations.count > 3 {
                state.nilRegistrations.removeFirst()
            }
        }
    }

    /// What the message of a wrapper that finds no value of the type it asks for adds: the
    /// types of the values registered instead (none of them is one, or it would have been
    /// found), newest first, and the registrations of `nil`; empty when there are neither.
    func missingHints() -> String {
        let (registered, nils) = state.withLock { state in
            (state.entries.map { Swift.type(of: $0.value) }, state.nilRegistrations)
        }
        var names: [String] = []
        for value in registered.reversed() {
            let name = TypeName.of(value)
            if !names.contains(name) { names.append(name) }
        }
        var hints = ""
        if !names.isEmpty {
            let shown = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", ..." : "")
            hints += "; the \(itemsName) registered there are of other types: \(shown)"
        }
        for call in nils.reversed() {
            hints += "; \(call), which registered nothing"
        }
        return hints
    }

    /// The number of registered values and waiting waiters, for tests.
    var counts: (entries: Int, waiters: Int) {
        state.withLock { state in (state.entries.count, state.waiters.count) }
    }

    /// The room for waiters a table keeps however few are left, for tests.
    static var keptWaiterCapacity: Int { State.keptCapacity }

    /// How many waiters the tables of waiters and of waiters being run have room for, for tests.
    var waiterCapacities: (waiting: Int, firing: Int) {
        state.withLock { state in (state.waiters.capacity, state.firing.capacity) }
    }
}

/// A registered value cast to the type a wrapper asks for, shared by the wrappers made until
/// the registered values change: a wrapper reads its provider from the box in place, where
/// casting the registered value again would copy the whole container (a retain and a release
/// of each of its providers) for every wrapper made.
@usableFromInline
final class InjectBox<Value> {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }

    /// `value` boxed when it casts to `Value`: the `box` of `InjectRegistry.newestBox`.
    @inlinable
    static func boxing(_ value: Any) -> AnyObject? {
        (value as? Value).map { InjectBox($0) }
    }

    /// The box of the newest registered value castable to `Value` that `newestBox` finds (a
    /// resolver's look-up in its registry of the current scope, given `boxing`), for a wrapper
    /// injected when it is made; `nil` when none is registered.
    @inlinable
    static func newest(in newestBox: (_ type: ObjectIdentifier, _ box: (Any) -> AnyObject?) -> AnyObject?)
        -> InjectBox?
    {
        guard let box = newestBox(ObjectIdentifier(Value.self), boxing) else { return nil }
        // `boxing` made it, for this very type.
        return (box as! InjectBox)
    }
}
