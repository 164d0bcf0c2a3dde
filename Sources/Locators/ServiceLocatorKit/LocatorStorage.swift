/// The services of a locator, shared by `ServiceLocator` and `ServiceEasyLocator`.
///
/// Every get goes through one look-up, `slot(_:)`, and the typed gets are thin wrappers that
/// cast what it finds. A writable locator keeps its slots in `state`, under its lock, held only
/// to read or write the dictionaries, never while a provider runs, so a factory may use the
/// same locator; whatever a change replaces or removes is released after the lock, so a
/// service's `deinit` may use the locator too. `setReadOnly` publishes the slots in `frozen`,
/// a `OnceCell`: from then on a get reads them with one acquire load and no lock.
///
/// Slots named by a type are kept by the type's `ObjectIdentifier`, apart from those named by a
/// string, so finding a type slot costs one lookup in an `[ObjectIdentifier: AnyObject]`
/// dictionary.
@usableFromInline
package final class LocatorStorage: Sendable {
    @usableFromInline let state: Locked<LocatorState>
    /// The slots and parent of a read-only locator, published once by `setReadOnly`.
    @usableFromInline let frozen = OnceCell<FrozenSlots>()

    /// Serializes parent changes of all locators, so that two concurrent changes cannot build a
    /// loop that each check alone would miss.
    private static let parentChanges = Locked(())

    package init(parent: LocatorParent?) {
        state = Locked(LocatorState(slots: LocatorSlots(parent: parent)))
    }

    /// Releases the parent chain one link at a time: a chain released by nested `deinit`s
    /// would overflow the stack when it is long.
    deinit {
        // Moved out, so that nothing here holds a reference when the release is done.
        ThreadContext.releaseIteratively(takeParent())
    }

    /// The references of this locator's parent link, taken out as it is about to be released.
    private func takeParent() -> [AnyObject] {
        let parent = frozen.takeAtDeinit()?.slots.parent ?? state.withLock { $0.slots.parent.take() }
        return parent.map { [$0.locator, $0.storage] } ?? []
    }

    // MARK: - Reading

    /// The slots, for a read: the published ones of a read-only locator, else a copy of the
    /// writable ones taken under the lock.
    private var slots: LocatorSlots {
        if let frozen = frozen.value {
            return frozen.slots
        }
        return state.withLock { $0.isReadOnly ? frozen.value!.slots : $0.slots }
    }

    /// Whether the locator is read-only.
    package var isReadOnly: Bool { frozen.value != nil }

    /// Whether clones are refused.
    package var denyClone: Bool { state.withLock { $0.denyClone } }

    /// The parent locator as a `Locator`, or `nil` when there is none or it is another type:
    /// the `parent` of either locator.
    package func parentLocator<Locator: AnyObject>(as type: Locator.Type) -> Locator? {
        // Unwrapped before the cast, as every optional object the package casts (see
        // `ServiceHolder.load()` on what the optimizer does otherwise).
        guard let parent = slots.parent?.locator else { return nil }
        return parent as? Locator
    }

    /// The number of services stored here (parents excluded).
    package var count: Int { slots.count }

    /// What the slot of `id` holds in this locator or the nearest parent that has one: the one
    /// look-up of every get.
    @usableFromInline
    package func slot(_ id: ServiceLocatorKeyID) -> AnyObject? {
        // This locator is asked first, so that a hit here (the usual case) holds no extra
        // reference to it and goes through no loop.
        let (found, parent) = localSlot(id)
        guard let parent else { return found }
        return parent.slotHereOrAbove(id)
    }

    /// `slot(_:)` asked of this locator and then of its parents, one after the other.
    @usableFromInline
    func slotHereOrAbove(_ id: ServiceLocatorKeyID) -> AnyObject? {
        var (found, next) = localSlot(id)
        while found == nil, let storage = next {
            (found, next) = storage.localSlot(id)
        }
        return found
    }

    /// What the slot of `id` holds here, or the parent to ask next.
    @inline(__always)
    private func localSlot(_ id: ServiceLocatorKeyID) -> (AnyObject?, LocatorStorage?) {
        if let frozen = frozen.value {
            return frozen.slots.local(id)
        }
        // `setReadOnly` may have moved the slots to `frozen` since the load above: under the
        // lock, `isReadOnly` tells where they are.
        return state.withLock { $0.isReadOnly ? frozen.value!.slots.local(id) : $0.slots.local(id) }
    }

    /// The entry of the slot of a type that is called `name`, in this locator or the nearest
    /// parent that has one: how a bare store key finds a service added with an easy key, whose
    /// `storeKey` is its type's name. `name` is the full name (`String(reflecting:)`, the easy
    /// keys' `storeKey`) or, when only one type of the locator has it, the short name that 2.x
    /// easy keys used. Scans the type slots (names are not kept), so it is for the rare gets by
    /// a bare store key that missed their string slot.
    package func lookup(typeNamed name: String) -> (any LocatorEntry)? {
        var storage: LocatorStorage? = self
        while let current = storage {
            let slots = current.slots
            if let entry = slots.typeEntry(named: name) { return entry }
            storage = slots.parent?.storage
        }
        return nil
    }

    /// The entry of the slot of `id`, for callers that know the service type only at run time.
    package func lookup(_ id: ServiceLocatorKeyID) -> (any LocatorEntry)? {
        slot(id).map(Self.entry)
    }

    static func entry(_ slot: AnyObject) -> any LocatorEntry {
        // Only providers and params entries are stored.
        slot as! any LocatorEntry
    }

    /// The `Service` service for `id` without params, or `nil` when it is missing or cannot be
    /// made: the get of both locators.
    ///
    /// A service that a plain provider of this locator holds ready is read under the lock, with
    /// the slot, so that the provider is neither retained nor released; any other is got from
    /// the provider after the lock.
    @inlinable @inline(__always)
    package func plainService<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) -> Service? {
        // A get recorded for a validation or a graph recorder is left to the provider. Checked
        // first: the check is a call the slots would be copied around.
        guard !GetRecording.isOn else {
            return plainProvider(id, as: Service.self)?.getServiceAsOptional()
        }
        let found: AnyObject
        switch localService(id, as: Service.self) {
        case .ready(let service):
            return service
        case .provider(let provider):
            return provider.getServiceAsOptional()
        case .other(let slot):
            found = slot
        case .missing(let parent):
            guard let slot = parent?.slotHereOrAbove(id) else { return nil }
            found = slot
        }
        return Self.plainProvider(found, as: Service.self)?.getServiceAsOptional()
    }

    /// What a get of `id` finds in this locator: see `plainService(_:as:)`.
    @inlinable @inline(__always)
    func localService<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) -> LocalService<Service> {
        if let frozen = frozen.value {
            return frozen.slots.service(id, as: Service.self)
        }
        // As in `localSlot(_:)`: under the lock, `isReadOnly` tells where the slots are.
        return state.withLock { state in
            state.isReadOnly ? frozen.value!.slots.service(id, as: Service.self) : state.slots.service(id, as: Service.self)
        }
    }

    /// The provider that gives the `Service` service for `id` without params, or `nil` when
    /// there is none (missing, of another type, or needing params).
    @inlinable @inline(__always)
    package func plainProvider<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) -> ServiceProvider<Service>? {
        guard let found = slot(id) else { return nil }
        return Self.plainProvider(found, as: Service.self)
    }

    /// The provider that gives the `Service` service of a slot without params, or `nil`.
    @inlinable @inline(__always)
    static func plainProvider<Service>(_ found: AnyObject, as type: Service.Type) -> ServiceProvider<Service>? {
        if let provider = found as? ServiceProvider<Service> {
            return provider
        }
        // Unwrapped before the cast, as everywhere an optional object is cast: swiftc -O
        // (Swift 6.3) can turn a generic `as?` of a nil `AnyObject?` into a cast of a null
        // pointer, which crashes (see `ServiceHolder.load()`).
        guard let plain = Self.plainProvider(of: found) else { return nil }
        return plain as? ServiceProvider<Service>
    }

    /// The provider without params of a slot that holds no plain provider.
    @usableFromInline
    static func plainProvider(of slot: AnyObject) -> AnyObject? {
        entry(slot).plainProvider
    }

    /// The entry for `id`, checked to hold a `Service` service.
    package func entry<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) throws(ServiceLocatorError)
        -> any LocatorEntry
    {
        guard let found = slot(id) else {
            throw .serviceNotFound(
                key: id, service: Service.self, stored: implementation(of: Service.self, missing: id)
            )
        }
        let entry = Self.entry(found)
        guard entry.serviceType == Service.self else {
            throw .serviceNotFound(key: id, service: Service.self, stored: entry.serviceType)
        }
        return entry
    }

    /// The provider that gives the service for `id` without params.
    package func provider<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) throws(ServiceLocatorError)
        -> ServiceProvider<Service>
    {
        let entry = try entry(id, as: Service.self)
        // Unwrapped before the cast (see `plainProvider(_:as:)`).
        guard let plain = entry.plainProvider, let provider = plain as? ServiceProvider<Service> else {
            throw .wrongParams(key: id, service: Service.self, expected: entry.paramsType, received: nil)
        }
        return provider
    }

    /// The params provider stored for `id`.
    package func paramsProvider<Service, Params>(
        _ id: ServiceLocatorKeyID,
        as type: Service.Type,
        params: Params.Type
    ) throws(ServiceLocatorError) -> ServiceParamsProvider<Service, Params> {
        let entry = try entry(id, as: Service.self)
        guard let params = entry as? ParamsServiceEntry<Service, Params> else {
            throw .wrongParams(key: id, service: Service.self, expected: entry.paramsType, received: Params.self)
        }
        return params.paramsProvider
    }

    /// The service for `id` without params.
    package func service<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) throws -> Service {
        try provider(id, as: Service.self).getService()
    }

    /// The service for `id` made from `params`. Params of exactly the stored params type (or
    /// of the type it is the optional of) take the typed path; others are cast (an `Int` fits
    /// `Any`) or refused with `wrongParams`.
    package func service<Service, Params>(_ id: ServiceLocatorKeyID, as type: Service.Type, params: Params) throws
        -> Service
    {
        let entry = try entry(id, as: Service.self)
        if let typed = entry as? ParamsServiceEntry<Service, Params> {
            return try typed.paramsProvider.getService(params: params)
        }
        if let typed = entry as? ParamsServiceEntry<Service, Params?> {
            return try typed.paramsProvider.getService(params: params)
        }
        return try entry.anyService(key: id, params: params).get() as! Service
    }

    /// The service for `id` as `Any`, checked to be a `serviceType`; `nil` params means none.
    package func anyService(_ id: ServiceLocatorKeyID, serviceType: Any.Type, params: Any?) throws -> Any {
        guard let found = slot(id) else {
            throw ServiceLocatorError.serviceNotFound(
                key: id, service: serviceType, stored: implementation(of: serviceType, missing: id)
            )
        }
        let entry = Self.entry(found)
        guard entry.serviceType == serviceType else {
            throw ServiceLocatorError.serviceNotFound(key: id, service: serviceType, stored: entry.serviceType)
        }
        return try entry.anyService(key: id, params: params).get()
    }

    /// For a miss of the type slot of `service`: the type of a service stored under its own
    /// type (here or in a parent) that is a `service` too, such as the implementation of a
    /// protocol that was added as itself. With several, the one whose name sorts first.
    func implementation(of service: Any.Type, missing id: ServiceLocatorKeyID) -> Any.Type? {
        guard id.serviceType.map({ ObjectIdentifier($0) == ObjectIdentifier(service) }) == true else { return nil }
        var storage: LocatorStorage? = self
        while let current = storage {
            let slots = current.slots
            let implementations = slots.types.values.map { Self.entry($0).serviceType }
                .filter { TypeRelation.isType($0, a: service) }
                .sorted { String(reflecting: $0) < String(reflecting: $1) }
            if let first = implementations.first { return first }
            storage = slots.parent?.storage
        }
        return nil
    }

    /// The parent locator, which `ServiceValidator` walks after the slots (a shutdown does not:
    /// its services are the parent's).
    package var validationParent: AnyObject? {
        slots.parent?.locator
    }

    /// What `ServiceValidator` walks: every slot of this locator, named `[key]`, in the order of
    /// the keys.
    package var validationEntries: [(name: String, value: Any)] {
        let slots = self.slots
        let typed = slots.types.values.map { slot -> (name: String, value: Any) in
            let entry = Self.entry(slot)
            return ("[\(String(reflecting: entry.serviceType))]", entry.storedProvider)
        }
        let named = slots.names.map { name, slot -> (name: String, value: Any) in
            ("[\(name)]", Self.entry(slot).storedProvider)
        }
        return (typed + named).sorted { $0.name < $1.name }
    }

    // MARK: - Changing

    /// Stores `entry` for `id`, replacing what was there, unless the locator is read-only.
    package func add(
        _ id: ServiceLocatorKeyID,
        entry: any LocatorEntry,
        owner: AnyObject & Sendable,
        at site: CallSite
    ) -> Result<Void, ServiceLocatorError> {
        var replaced: AnyObject?
        let refusedAssert: Bool? = state.withLock { state in
            if state.isReadOnly { return state.assertOnRefusal }
            replaced = state.slots.update(entry, for: id)
            return nil
        }
        // The replaced service is released after the lock, not under it.
        withExtendedLifetime(replaced) {}
        guard let assert = refusedAssert else { return .success(()) }
        let change = "add service \(ServiceLocatorError.name(entry.serviceType)) for key '\(id)'"
        return Self.refuse(.readOnly(locator: type(of: owner), change: change), owner: owner, assert: assert, at: site)
    }

    /// Removes the service for `id` here (not in parents), unless the locator is read-only.
    package func remove(
        _ id: ServiceLocatorKeyID,
        serviceType: Any.Type,
        owner: AnyObject & Sendable,
        at site: CallSite
    ) -> Result<Void, ServiceLocatorError> {
        enum Outcome {
            case refused(assert: Bool)
            case removed
            case missing
            // The slot holds a service of another type than the key's: it is left alone, as a
            // get with that key would not return it either.
            case otherType(Any.Type)
        }
        var removed: AnyObject?
        let outcome: Outcome = state.withLock { state in
            if state.isReadOnly { return .refused(assert: state.assertOnRefusal) }
            guard let current = state.slots[id] else { return .missing }
            let stored = Self.entry(current).serviceType
            guard stored == serviceType else { return .otherType(stored) }
            removed = state.slots.update(nil, for: id)
            return .removed
        }
        // The removed service is released after the lock, not under it.
        withExtendedLifetime(removed) {}
        switch outcome {
        case .refused(let assert):
            let change = "remove service \(ServiceLocatorError.name(serviceType)) for key '\(id)'"
            return Self.refuse(
                .readOnly(locator: type(of: owner), change: change), owner: owner, assert: assert, at: site
            )
        case .removed:
            return .success(())
        case .missing:
            return .failure(.serviceNotFound(key: id, service: serviceType))
        case .otherType(let stored):
            return .failure(.serviceNotFound(key: id, service: serviceType, stored: stored))
        }
    }

    /// Makes the locator read-only. A later call may tighten `denyClone` (`true` after `false`,
    /// as 2.0.1 did) and otherwise does nothing; one that would allow clones again is refused.
    package func setReadOnly(
        denyClone: Bool,
        assertionFailure: Bool,
        owner: AnyObject & Sendable,
        at site: CallSite
    ) -> Result<Void, ServiceLocatorError> {
        let refusedAssert: Bool? = state.withLock { state in
            if state.isReadOnly {
                if denyClone || !state.denyClone {
                    state.denyClone = state.denyClone || denyClone
                    return nil
                }
                return state.assertOnRefusal
            }
            state.denyClone = denyClone
            state.assertOnRefusal = assertionFailure
            state.isReadOnly = true
            // The slots move to `frozen`; the lock keeps only what may still change.
            frozen.publish(FrozenSlots(slots: state.slots))
            state.slots = LocatorSlots(parent: nil)
            return nil
        }
        guard let assert = refusedAssert else { return .success(()) }
        let change = "change denyClone to \(denyClone)"
        return Self.refuse(.readOnly(locator: type(of: owner), change: change), owner: owner, assert: assert, at: site)
    }

    /// Fills `copy`, the storage of a new locator `copyOwner`, with this locator's services and
    /// parent: the work of `clone()`. When clones are denied, the refusal is reported and `copy`
    /// stays empty. A copy that its own initializer already made read-only is left as it is.
    package func fillClone(
        _ copy: LocatorStorage,
        owner: AnyObject & Sendable,
        copyOwner: AnyObject & Sendable,
        at site: CallSite
    ) {
        // Whether clones are denied and the slots, read together: a `setReadOnly(denyClone:)`
        // in between must not let a clone through.
        let (copied, assert): (LocatorSlots?, Bool) = state.withLock { state in
            if state.denyClone { return (nil, state.assertOnRefusal) }
            return (state.isReadOnly ? frozen.value!.slots : state.slots, false)
        }
        guard var slots = copied else {
            _ = Self.refuse(.cloneDenied(locator: type(of: owner)), owner: owner, assert: assert, at: site)
            return
        }
        let parent = slots.parent
        slots.parent = nil
        // The copy gets storage of its own here, outside its lock: storage shared with this
        // locator would make the first change of either one copy every slot under its lock.
        slots.makeUnique()
        let filled: Bool = copy.state.withLock { state in
            guard !state.isReadOnly else { return false }
            swap(&state.slots, &slots)
            return true
        }
        // What the copy held before is released after its lock, not under it.
        withExtendedLifetime(slots) {}
        if filled, let parent {
            _ = copy.setParent(parent, owner: copyOwner, at: site)
        }
    }

    /// Sets the parent, unless the locator is read-only or the chain would loop.
    package func setParent(
        _ newParent: LocatorParent?,
        owner: AnyObject & Sendable,
        at site: CallSite
    ) -> Result<Void, ServiceLocatorError> {
        var replaced = newParent
        let refusal: (error: ServiceLocatorError, assert: Bool)? = Self.parentChanges.withLock { _ in
            var ancestor = newParent?.storage
            while let current = ancestor {
                if current === self {
                    return (.parentCycle(locator: type(of: owner)), false)
                }
                ancestor = current.slots.parent?.storage
            }
            return state.withLock { state in
                if state.isReadOnly {
                    return (.readOnly(locator: type(of: owner), change: "set parent"), state.assertOnRefusal)
                }
                swap(&state.slots.parent, &replaced)
                return nil
            }
        }
        // The old parent is released after both locks, not under them.
        withExtendedLifetime(replaced) {}
        guard let refusal else { return .success(()) }
        return Self.refuse(refusal.error, owner: owner, assert: refusal.assert, at: site)
    }

    /// Reports a refusal to the `ServiceLocatorLogger`s, asserts when asked to (naming `site`,
    /// the caller's line), and returns it.
    package static func refuse(
        _ error: ServiceLocatorError,
        owner: AnyObject & Sendable,
        assert: Bool,
        at site: CallSite
    ) -> Result<Void, ServiceLocatorError> {
        LogRecorder.record(ServiceLocatorLogger.self) { $0.serviceLocatorRefused(owner, error: error) }
        if assert {
            assertionFailure(error.description, file: site.file, line: site.line)
        }
        return .failure(error)
    }
}

/// What may change in a locator, under its lock.
@usableFromInline
struct LocatorState: Sendable {
    /// The slots and parent while the locator is writable (empty once they are published).
    @usableFromInline var slots: LocatorSlots
    @usableFromInline var isReadOnly = false
    var denyClone = false
    var assertOnRefusal = false
}

/// A locator's services by slot, and its parent.
@usableFromInline
struct LocatorSlots: Sendable {
    // `LocatorEntry` objects, kept as one reference each.
    @usableFromInline var types: [ObjectIdentifier: any AnyObject & Sendable] = [:]
    @usableFromInline var names: [String: any AnyObject & Sendable] = [:]
    @usableFromInline var parent: LocatorParent?

    init(parent: LocatorParent?) {
        self.parent = parent
    }

    var count: Int { types.count + names.count }

    @inlinable @inline(__always)
    subscript(id: ServiceLocatorKeyID) -> AnyObject? {
        switch id.storage {
        case .type(let type): return types[ObjectIdentifier(type)]
        case .name(let name): return names[name]
        }
    }

    /// What the slot of `id` holds, or else the parent's storage to ask next.
    @inline(__always)
    func local(_ id: ServiceLocatorKeyID) -> (AnyObject?, LocatorStorage?) {
        if let found = self[id] {
            return (found, nil)
        }
        return (nil, parent?.storage)
    }

    /// What a get of `id` finds in these slots (see `LocalService`). Reading a ready service
    /// runs no user code, so it is done under the locator's lock.
    @inlinable @inline(__always)
    func service<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) -> LocalService<Service> {
        // Unretained (`UnretainedReference`, `Unchecked.swift`): these slots, under their
        // locator's lock or published read-only, hold the slot's object while it is read here;
        // what leaves is retained (the service, or the provider to get it from).
        guard let found = self[id].map(UnretainedReference.init) else {
            return .missing(parent: parent?.storage)
        }
        return found.withObject { object in
            guard let provider = (object as? ServiceProvider<Service>).map(UnretainedReference.init) else {
                return .other(object)
            }
            return provider.withObject { provider in
                if let service = provider.readyService {
                    return .ready(service)
                }
                return .provider(provider)
            }
        }
    }

    /// Stores `entry` (or removes the slot when `nil`); returns what the slot held.
    mutating func update(_ entry: (any LocatorEntry)?, for id: ServiceLocatorKeyID) -> AnyObject? {
        switch (id.storage, entry) {
        case (.type(let type), let entry?): return types.updateValue(entry, forKey: ObjectIdentifier(type))
        case (.type(let type), nil): return types.removeValue(forKey: ObjectIdentifier(type))
        case (.name(let name), let entry?): return names.updateValue(entry, forKey: name)
        case (.name(let name), nil): return names.removeValue(forKey: name)
        }
    }

    /// Gives the dictionaries buffers of their own.
    mutating func makeUnique() {
        types.reserveCapacity(types.count)
        names.reserveCapacity(names.count)
    }

    /// The entry of the type slot whose type is called `name` (see `lookup(typeNamed:)`).
    func typeEntry(named name: String) -> (any LocatorEntry)? {
        var shortMatches: [any LocatorEntry] = []
        for slot in types.values {
            let entry = LocatorStorage.entry(slot)
            if String(reflecting: entry.serviceType) == name { return entry }
            if String(describing: entry.serviceType) == name { shortMatches.append(entry) }
        }
        return shortMatches.count == 1 ? shortMatches[0] : nil
    }
}

/// What a get finds in one locator (`LocatorSlots.service(_:as:)`).
@usableFromInline
enum LocalService<Service> {
    /// The service that the slot's plain provider holds ready.
    case ready(Service)
    /// The slot's plain provider, to get the service from.
    case provider(ServiceProvider<Service>)
    /// Another entry: a params provider, or a service of another type.
    case other(AnyObject)
    /// No slot here: the parent to ask, if any.
    case missing(parent: LocatorStorage?)
}

/// The slots of a read-only locator, published once.
@usableFromInline
final class FrozenSlots: Sendable {
    @usableFromInline let slots: LocatorSlots

    init(slots: LocatorSlots) {
        self.slots = slots
    }
}
