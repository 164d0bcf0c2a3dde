/// The services of a locator, shared by `ServiceLocator` and `ServiceEasyLocator`.
///
/// Every get goes through one look-up, `slot(_:)`, and the typed gets are thin wrappers that
/// cast what it finds. A writable locator keeps its slots in `state`, under its lock, held only
/// to read or write the dictionaries, never while a provider runs, so a factory may use the
/// same locator; whatever a change replaces or removes is released after the lock, so a
/// service's `deinit` may use the locator too. `setReadOnly` publishes the slots in `frozen`,
/// a `OnceCell`: from then on a get reads them with one acquire load and no lock, but for the
/// provider made for a slot's bare instance (`provider(holding:)`), kept under the lock.
///
/// Slots named by a type are kept by the type's identity, apart from those named by a string,
/// so finding a type slot costs one lookup in an `[IdentityKey: LocatorSlot]` dictionary, a slot
/// being one reference; the key hashes the identity in a few instructions, where an
/// `ObjectIdentifier` key would run SipHash (`IdentityKey` says what that pays for).
///
/// A service added as an instance of exactly the class that names its slot is kept in the slot
/// as it is (`LocatorSlot.instance`), without a provider: a get compares its type with the one
/// asked for and hands it out (`exactly(_:as:)`). Its
/// provider is made when something asks for one (`getServiceProvider`, a recorded get, a
/// validation, a clone) and kept in `state`, so that every such ask gets the same provider.
@usableFromInline
package final class LocatorStorage: Sendable {
    private let state: Locked<LocatorState>
    /// The slots and parent of a read-only locator, published once by `setReadOnly`.
    private let frozen = OnceCell<FrozenSlots?>()

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

    /// The parent's storage, read without a copy of the slots: a copy could be the last owner
    /// of slots that another thread replaced meanwhile, and release their services where it is
    /// dropped (`setParent` walks the chain under a lock).
    private var parentStorage: LocatorStorage? {
        if let frozen = frozen.value {
            return frozen.slots.parent?.storage
        }
        return state.withLock { $0.isReadOnly ? frozen.value!.slots.parent?.storage : $0.slots.parent?.storage }
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
    @usableFromInline @inline(__always)
    package func slot(_ id: ServiceLocatorKeyID) -> LocatorSlot? {
        // This locator is asked first, so that a hit here (the usual case) holds no extra
        // reference to it and goes through no loop.
        let (found, parent) = localSlot(id)
        guard let parent else { return found }
        return parent.slotHereOrAbove(id)
    }

    /// What the slot of `id` holds (as `slot(_:)` finds it) as one reference, and whether it is
    /// an instance rather than an entry: what a typed get reads.
    @usableFromInline
    package func slotObject(_ id: ServiceLocatorKeyID) -> (object: AnyObject, isInstance: Bool)? {
        switch slot(id) {
        case .entry(let object)?: return (object, false)
        case .instance(let object)?: return (object.value, true)
        case nil: return nil
        }
    }

    /// `slot(_:)` asked of this locator and then of its parents, one after the other.
    private func slotHereOrAbove(_ id: ServiceLocatorKeyID) -> LocatorSlot? {
        var (found, next) = localSlot(id)
        while found == nil, let storage = next {
            (found, next) = storage.localSlot(id)
        }
        return found
    }

    /// What the slot of `id` holds here, or the parent to ask next.
    @inline(__always)
    private func localSlot(_ id: ServiceLocatorKeyID) -> (LocatorSlot?, LocatorStorage?) {
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
            if let slot = slots.typeSlot(named: name) { return current.entry(of: slot) }
            storage = slots.parent?.storage
        }
        return nil
    }

    /// The entry of the slot of `id`, for callers that know the service type only at run time.
    package func lookup(_ id: ServiceLocatorKeyID) -> (any LocatorEntry)? {
        ownedSlot(id).map { $0.owner.entry(of: $0.slot) }
    }

    /// What the slot of `id` holds, and the locator whose slot it is (this one or a parent): for
    /// the asks that may make the provider of an instance slot, which that locator keeps.
    private func ownedSlot(_ id: ServiceLocatorKeyID) -> (slot: LocatorSlot, owner: LocatorStorage)? {
        var current = self
        while true {
            let (found, next) = current.localSlot(id)
            if let found { return (found, current) }
            guard let next else { return nil }
            current = next
        }
    }

    /// The entry a slot of this locator holds: its provider or params entry, or for an instance
    /// slot, the provider of the instance.
    func entry(of slot: LocatorSlot) -> any LocatorEntry {
        switch slot {
        case .entry(let object): return Self.entry(object)
        case .instance(let object): return provider(holding: object.value)
        }
    }

    static func entry(_ object: AnyObject) -> any LocatorEntry {
        // Only providers and params entries are stored as entries.
        object as! any LocatorEntry
    }

    /// The service of an instance slot read by a get of a `Service`: the instance, when its type
    /// is `Service` itself, which is the slot's (a `ServiceLocatorKey` names its slot as it
    /// likes, so the get's service type may be another, a protocol of the instance's included,
    /// which `tryService` refuses too), and no get is recorded now (a recorded get goes through
    /// the instance's provider, whose identity it is recorded under).
    @inlinable @inline(__always)
    package static func instance<Service>(_ object: AnyObject, as type: Service.Type) -> Service? {
        guard !GetRecording.isOn else { return nil }
        return exactly(object, as: Service.self)
    }

    /// The `Service` service for `id` without params, or `nil` when there is none (missing, of
    /// another type, needing params, or failing): the get of both locators' `getService`.
    @inlinable @inline(__always)
    package func optionalService<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) -> Service? {
        guard let (object, isInstance) = slotObject(id) else { return nil }
        if isInstance {
            if let service = Self.instance(object, as: Service.self) {
                return service
            }
            return plainProvider(id, as: Service.self)?.getServiceAsOptional()
        }
        return Self.plainProvider(object, as: Service.self)?.getServiceAsOptional()
    }

    /// The provider that gives the `Service` service for `id` without params, or `nil` when
    /// there is none (missing, of another type, or needing params).
    @inlinable
    package func plainProvider<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) -> ServiceProvider<Service>? {
        switch slot(id) {
        case .entry(let object)?: return Self.plainProvider(object, as: Service.self)
        case .instance?: return instanceProvider(id) as? ServiceProvider<Service>
        case nil: return nil
        }
    }

    /// The provider that gives the `Service` service of an entry without params, or `nil`.
    @inlinable @inline(__always)
    static func plainProvider<Service>(_ object: AnyObject, as type: Service.Type) -> ServiceProvider<Service>? {
        if let provider = object as? ServiceProvider<Service> {
            return provider
        }
        // Unwrapped before the cast, as everywhere an optional object is cast: swiftc -O
        // (Swift 6.3) can turn a generic `as?` of a nil `AnyObject?` into a cast of a null
        // pointer, which crashes (see `ServiceHolder.load()`).
        guard let plain = plainProvider(of: object) else { return nil }
        return plain as? ServiceProvider<Service>
    }

    /// The provider without params of an entry that is no plain provider.
    @usableFromInline
    static func plainProvider(of object: AnyObject) -> AnyObject? {
        entry(object).plainProvider
    }

    /// The provider of the instance slot of `id` (the slot was found holding an instance).
    @usableFromInline
    func instanceProvider(_ id: ServiceLocatorKeyID) -> AnyObject? {
        lookup(id)?.plainProvider
    }

    /// The entry for `id`, checked to hold a `Service` service.
    package func entry<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) throws(ServiceLocatorError)
        -> any LocatorEntry
    {
        let (slot, owner) = try checkedSlot(id, as: Service.self)
        return owner.entry(of: slot)
    }

    /// What the slot of `id` holds and whose slot it is, checked to hold a `Service` service.
    private func checkedSlot<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) throws(ServiceLocatorError)
        -> (slot: LocatorSlot, owner: LocatorStorage)
    {
        guard let found = ownedSlot(id) else {
            throw .serviceNotFound(key: id, service: Service.self)  // the hint: `explained(_:)`
        }
        let stored = found.slot.serviceType
        guard stored == Service.self else {
            throw .serviceNotFound(key: id, service: Service.self, stored: stored)
        }
        return found
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

    /// The service for `id` without params: the get of both locators' `tryService`.
    ///
    /// Inlinable, so that the caller's code, compiled for its service type, finds a provider
    /// with one cast, as `optionalService` does; out of line, a get of a made service ran the
    /// runtime's generic metadata look-ups and a protocol conformance check (2,474 instructions
    /// an easy locator's `tryService()` of a made `lazy` provider among 1,000 services, now
    /// 382–442 with the code's layout). What the cast does not serve takes `slowService`: a
    /// miss, which it explains, a params entry whose params are optional, or a recorded get of
    /// an instance. (The cast is `plainProvider(_:as:)`'s without its fallback for those params
    /// entries, whose inlined branch cost every hit 6 instructions.)
    @inlinable
    package func service<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) throws -> Service {
        if let (object, isInstance) = slotObject(id) {
            if !isInstance, let provider = object as? ServiceProvider<Service> {
                return try provider.getService()
            }
            if isInstance, let service = Self.instance(object, as: Service.self) {
                return service
            }
        }
        return try slowService(id, as: Service.self)
    }

    /// `service(_:as:)` for a slot its cast did not serve: missing, holding a service of another
    /// type (asked for as a protocol or a superclass of it), an entry with params, or an
    /// instance while a get is recorded (its provider records it). A slot another thread changed
    /// since the cast is served here too, through its entry.
    @usableFromInline
    package func slowService<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) throws -> Service {
        let (slot, owner) = try checkedSlot(id, as: Service.self)
        let entry = owner.entry(of: slot)
        // Unwrapped before the cast (see `plainProvider(_:as:)`).
        guard let plain = entry.plainProvider, let provider = plain as? ServiceProvider<Service> else {
            throw ServiceLocatorError.wrongParams(key: id, service: Service.self, expected: entry.paramsType, received: nil)
        }
        return try provider.getService()
    }

    /// The service for `id` made from `params`. Params of exactly the stored params type (or
    /// of the type it is the optional of) take the typed path; others are cast (an `Int` fits
    /// `Any`) or refused with `wrongParams`.
    ///
    /// Inlinable, as `service(_:as:)` is and for the same reason: params of the stored type
    /// find their provider with one cast in the caller's code (2,751 instructions an easy
    /// locator's `getService(params:)` of a `many` provider out of line).
    @inlinable
    package func service<Service, Params>(_ id: ServiceLocatorKeyID, as type: Service.Type, params: Params) throws
        -> Service
    {
        if let (object, isInstance) = slotObject(id), !isInstance,
            let typed = object as? ParamsServiceEntry<Service, Params>
        {
            return try typed.paramsProvider.getService(params: params)
        }
        return try slowService(id, as: Service.self, params: params)
    }

    /// `service(_:as:params:)` for a slot its cast did not serve: missing, of another type,
    /// without params, or taking params of another type (cast there). A slot another thread
    /// changed since the cast is served here too, by the cast of its params.
    @usableFromInline
    package func slowService<Service, Params>(_ id: ServiceLocatorKeyID, as type: Service.Type, params: Params) throws
        -> Service
    {
        let entry = try entry(id, as: Service.self)
        if let typed = entry as? ParamsServiceEntry<Service, Params?> {
            return try typed.paramsProvider.getService(params: params)
        }
        return try entry.anyService(key: id, params: params).get() as! Service
    }

    /// The service for `id` as `Any`, checked to be a `serviceType`; `nil` params means none.
    package func anyService(_ id: ServiceLocatorKeyID, serviceType: Any.Type, params: Any?) throws -> Any {
        guard let (slot, owner) = ownedSlot(id) else {
            throw ServiceLocatorError.serviceNotFound(key: id, service: serviceType)  // the hint: `explained(_:)`
        }
        let stored = slot.serviceType
        guard stored == serviceType else {
            throw ServiceLocatorError.serviceNotFound(key: id, service: serviceType, stored: stored)
        }
        return try owner.entry(of: slot).anyService(key: id, params: params).get()
    }

    /// `get`, whose error goes to the caller, with the hint `explained(_:)` adds: the gets whose
    /// error is dropped (`try?`, an Objective-C style get without an error pointer) run without
    /// it, so that a miss costs them the same with 10 or 10,000 services.
    @inlinable
    package func explaining<Value>(_ get: () throws -> Value) throws -> Value {
        do {
            return try get()
        } catch let error as ServiceLocatorError {
            throw explained(error)
        }
    }

    /// `error`, for a miss of a type's slot, with the type of a service stored under its own
    /// type that is the one asked for too (`implementation(of:missing:)`): a scan of every type
    /// stored, so made only for an error handed to the caller.
    @usableFromInline
    package func explained(_ error: ServiceLocatorError) -> ServiceLocatorError {
        guard case .serviceNotFound(let key, let service, nil) = error,
            let stored = implementation(of: service, missing: key)
        else { return error }
        return .serviceNotFound(key: key, service: service, stored: stored)
    }

    /// For a miss of the type slot of `service`: the type of a service stored under its own
    /// type (here or in a parent) that is a `service` too, such as the implementation of a
    /// protocol that was added as itself; else the optional of such a type (a value added while
    /// optional, or a provider of an optional, is kept under the optional's type). For an
    /// optional `service` (a get whose result was declared optional), a type stored that is the
    /// type it wraps. Else, for a `service` that is not optional, the type under which a service
    /// that is a `service` was added (`ConsoleAnalytics() as Analytics` for a miss of
    /// `ConsoleAnalytics`), as far as a slot holds its service ready: a provider's service that
    /// was not made yet is not made for an error. With several, the one whose name sorts first.
    func implementation(of service: Any.Type, missing id: ServiceLocatorKeyID) -> Any.Type? {
        guard id.serviceType.map({ ObjectIdentifier($0) == ObjectIdentifier(service) }) == true else { return nil }
        let wrapped = TypeRelation.wrapped(in: service)
        let isService = TypeRelation.test(for: wrapped ?? service)
        let byName = { (first: Any.Type, second: Any.Type) in String(reflecting: first) < String(reflecting: second) }
        var storage: LocatorStorage? = self
        while let current = storage {
            let slots = current.slots
            let types = slots.types.values.map(\.serviceType)
            // In this order, each looked for only when the one before found nothing: a type that
            // is one; an optional of one, which is a service only once it is registered
            // unwrapped; the type a ready service that is one was added as.
            if let found = types.filter(isService).min(by: byName) { return found }
            if wrapped == nil {
                if let found = types.filter({ TypeRelation.wrapped(in: $0).map(isService) == true }).min(by: byName) {
                    return found
                }
                let addedAs = slots.types.values.compactMap { slot -> Any.Type? in
                    guard case .entry(let object) = slot, let ready = Self.entry(object).readyServiceType, isService(ready)
                    else { return nil }
                    return slot.serviceType
                }
                if let found = addedAs.min(by: byName) { return found }
            }
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
            let entry = entry(of: slot)
            return ("[\(TypeName.of(entry.serviceType))]", entry.storedProvider)
        }
        let named = slots.names.map { name, slot -> (name: String, value: Any) in
            ("[\(name)]", entry(of: slot).storedProvider)
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
        add(id, slot: .entry(entry), serviceType: entry.serviceType, owner: owner, at: site)
    }

    /// Stores `service` for `id` as an `atOne` provider would give it, unless the locator is
    /// read-only: in the slot itself when it is an instance of exactly the class that names the
    /// slot (so that the instance tells the slot's service type) and no validation or graph
    /// recorder runs (whose providers made now are recorded ones), else in a provider.
    package func add<Service>(
        _ id: ServiceLocatorKeyID,
        service: Service,
        owner: AnyObject & Sendable,
        at site: CallSite
    ) -> Result<Void, ServiceLocatorError> {
        if !GetRecording.isOn, case .type(let type) = id.storage,
            ObjectIdentifier(type) == ObjectIdentifier(Service.self),
            ObjectIdentifier(Swift.type(of: service)) == ObjectIdentifier(Service.self),
            let object = classReference(service)
        {
            // A class instance is one reference: taken as it is, without the runtime's bridging.
            let slot = LocatorSlot.instance(UncheckedSendable(object))
            return add(id, slot: slot, serviceType: Service.self, owner: owner, at: site)
        }
        return add(id, entry: ServiceProvider(keptByLocator: service), owner: owner, at: site)
    }

    private func add(
        _ id: ServiceLocatorKeyID,
        slot: LocatorSlot,
        serviceType: Any.Type,
        owner: AnyObject & Sendable,
        at site: CallSite
    ) -> Result<Void, ServiceLocatorError> {
        var replaced: (LocatorSlot?, InstanceProvider?)
        let refusedAssert: Bool? = state.withLock { state in
            if state.isReadOnly { return state.assertOnRefusal }
            replaced = state.update(slot, for: id)
            return nil
        }
        // The replaced service is released after the lock, not under it.
        withExtendedLifetime(replaced) {}
        guard let assert = refusedAssert else { return .success(()) }
        let change = "add service \(TypeName.of(serviceType)) for key '\(id)'"
        return Self.refuse(.readOnly(locator: type(of: owner), change: change), owner: owner, assert: assert, at: site)
    }

    /// The provider of `object`, the instance that a slot of this locator holds (or held when it
    /// was read): made on the first ask and kept while the slot holds `object`, so that every ask
    /// gets the same provider, as it would of a stored one.
    func provider(holding object: AnyObject) -> any LocatorEntry {
        let type: Any.Type = Swift.type(of: object)
        let key = ObjectIdentifier(type)
        var replaced: InstanceProvider?
        defer { withExtendedLifetime(replaced) {} }  // released after the lock
        return state.withLock { state in
            if let kept = state.instanceProviders[key], kept.object === object {
                return kept.provider
            }
            let provider = Self.provider(of: type, holding: object)
            // A writable locator's slot may have changed since it was read: the provider is kept
            // only for the instance the slot holds now. A read-only locator's slots never change.
            let slots = state.isReadOnly ? frozen.value!.slots : state.slots
            let current = slots.types[IdentityKey(key)]
            if case .instance(let held)? = current, held.value === object {
                replaced = state.instanceProviders.updateValue(
                    InstanceProvider(instance: UncheckedSendable(object), provider: provider), forKey: key
                )
            }
            return provider
        }
    }

    /// A new provider of `object`, which was added as a `type`, its class.
    static func provider(of type: Any.Type, holding object: AnyObject) -> any LocatorEntry {
        func make<Service>(_: Service.Type) -> any LocatorEntry {
            ServiceProvider(instance: object as! Service)
        }
        return make(type)
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
        var removed: (LocatorSlot?, InstanceProvider?)
        let outcome: Outcome = state.withLock { state in
            if state.isReadOnly { return .refused(assert: state.assertOnRefusal) }
            guard let current = state.slots[id] else { return .missing }
            let stored = current.serviceType
            guard stored == serviceType else { return .otherType(stored) }
            removed = state.update(nil, for: id)
            return .removed
        }
        // The removed service is released after the lock, not under it.
        withExtendedLifetime(removed) {}
        switch outcome {
        case .refused(let assert):
            let change = "remove service \(TypeName.of(serviceType)) for key '\(id)'"
            return Self.refuse(
                .readOnly(locator: type(of: owner), change: change), owner: owner, assert: assert, at: site
            )
        case .removed:
            return .success(())
        case .missing:
            guard parentStorage?.slotHereOrAbove(id) == nil else {
                return .failure(.storedInParent(key: id, service: serviceType))
            }
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
            // `instanceProviders` stays in the lock: the providers of instance slots are made
            // on demand after this too.
            return nil
        }
        guard let assert = refusedAssert else { return .success(()) }
        let change = "change denyClone to \(denyClone)"
        return Self.refuse(.readOnly(locator: type(of: owner), change: change), owner: owner, assert: assert, at: site)
    }

    /// Fills `copy`, the storage of a new locator `copyOwner`, with this locator's services and
    /// parent: the work of `clone()`. When clones are denied, the refusal is reported and `copy`
    /// stays empty. A copy that its own initializer already made read-only is left as that made
    /// it, and the refusal to fill it is reported, as a change of a read-only locator.
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
        // The copy holds the same providers: an instance slot gets this locator's provider of
        // the instance, which this locator keeps for its own later asks.
        for (key, slot) in slots.types {
            if case .instance(let object) = slot {
                slots.types[key] = .entry(provider(holding: object.value))
            }
        }
        // The copy gets storage of its own here, outside its lock: storage shared with this
        // locator would make the first change of either one copy every slot under its lock.
        slots.makeUnique()
        let (filled, assertOnCopy): (Bool, Bool) = copy.state.withLock { state in
            guard !state.isReadOnly else { return (false, state.assertOnRefusal) }
            swap(&state.slots, &slots)
            return (true, false)
        }
        // What the copy held before is released after its lock, not under it.
        withExtendedLifetime(slots) {}
        guard filled else {
            // A subclass whose `init(parent:)` makes it read-only: the copy keeps what that made.
            _ = Self.refuse(
                .readOnly(locator: type(of: copyOwner), change: "fill a clone"), owner: copyOwner, assert: assertOnCopy,
                at: site
            )
            return
        }
        if let parent {
            _ = copy.setParent(parent, owner: copyOwner, at: site)
        }
    }

    /// Sets the parent, unless the locator is read-only (which is said first, as for every other
    /// change) or the chain would loop.
    package func setParent(
        _ newParent: LocatorParent?,
        owner: AnyObject & Sendable,
        at site: CallSite
    ) -> Result<Void, ServiceLocatorError> {
        var replaced = newParent
        let refusal: (error: ServiceLocatorError, assert: Bool)? = Self.parentChanges.withLock { _ in
            let readOnly = { (state: inout LocatorState) -> (error: ServiceLocatorError, assert: Bool)? in
                state.isReadOnly ? (.readOnly(locator: type(of: owner), change: "set parent"), state.assertOnRefusal) : nil
            }
            if let refusal = state.withLock(readOnly) {
                return refusal
            }
            var ancestor = newParent?.storage
            while let current = ancestor {
                if current === self {
                    return (.parentCycle(locator: type(of: owner)), false)
                }
                ancestor = current.parentStorage
            }
            // Read-only again under the lock that changes the parent: `setReadOnly()` may have
            // run meanwhile.
            return state.withLock { state in
                if let refusal = readOnly(&state) {
                    return refusal
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
        LogRecorder.record(ServiceLocatorLogger.self) {
            $0.serviceLocatorRefused(owner, error: error, file: site.file, line: site.line)
        }
        if assert {
            assertionFailure(error.description, file: site.file, line: site.line)
        }
        return .failure(error)
    }
}

/// What may change in a locator, under its lock.
struct LocatorState {
    /// The slots and parent while the locator is writable (empty once they are published).
    var slots: LocatorSlots
    var isReadOnly = false
    var denyClone = false
    var assertOnRefusal = false
    /// The providers made for the instance slots that were asked for one, by slot.
    var instanceProviders: [ObjectIdentifier: InstanceProvider] = [:]

    /// Stores `slot` for `id` (or removes the slot when `nil`); returns what the slot held, and
    /// the provider made for the instance it held, to be released after the lock.
    mutating func update(_ slot: LocatorSlot?, for id: ServiceLocatorKeyID) -> (LocatorSlot?, InstanceProvider?) {
        let replaced = slots.update(slot, for: id)
        guard case .instance? = replaced, case .type(let type) = id.storage else { return (replaced, nil) }
        return (replaced, instanceProviders.removeValue(forKey: ObjectIdentifier(type)))
    }
}

/// The provider made for an instance slot, and the instance it was made for.
struct InstanceProvider: Sendable {
    /// Compared by identity only; released with the provider, which holds it too.
    let instance: UncheckedSendable<AnyObject>
    let provider: any LocatorEntry

    var object: AnyObject { instance.value }
}

/// What a slot holds: a provider or a params entry, or a service added as an instance of the
/// class that names the slot, kept without a provider (`LocatorStorage` says when).
///
/// Both payloads are single references, so a slot is one word, as the reference it was before
/// instance slots.
@usableFromInline
package enum LocatorSlot: Sendable {
    /// A `LocatorEntry`.
    case entry(any AnyObject & Sendable)
    /// The service itself, an instance of the class that names the slot, handed to every thread
    /// as an `atOne` provider hands its service (see `UncheckedSendable`).
    case instance(UncheckedSendable<AnyObject>)

    /// The type of the service: for an instance, its class, which names the slot.
    var serviceType: Any.Type {
        switch self {
        case .entry(let object): return LocatorStorage.entry(object).serviceType
        case .instance(let object): return type(of: object.value)
        }
    }
}

/// A locator's services by slot, and its parent.
struct LocatorSlots: Sendable {
    var types: [IdentityKey: LocatorSlot] = [:]
    var names: [String: LocatorSlot] = [:]
    var parent: LocatorParent?

    init(parent: LocatorParent?) {
        self.parent = parent
    }

    var count: Int { types.count + names.count }

    @inline(__always)
    subscript(id: ServiceLocatorKeyID) -> LocatorSlot? {
        switch id.storage {
        case .type(let type): return types[IdentityKey(ObjectIdentifier(type))]
        case .name(let name): return names[name]
        }
    }

    /// What the slot of `id` holds, or else the parent's storage to ask next.
    @inline(__always)
    func local(_ id: ServiceLocatorKeyID) -> (LocatorSlot?, LocatorStorage?) {
        if let found = self[id] {
            return (found, nil)
        }
        return (nil, parent?.storage)
    }

    /// Stores `slot` (or removes the slot when `nil`); returns what the slot held.
    mutating func update(_ slot: LocatorSlot?, for id: ServiceLocatorKeyID) -> LocatorSlot? {
        switch (id.storage, slot) {
        case (.type(let type), let slot?): return types.updateValue(slot, forKey: IdentityKey(ObjectIdentifier(type)))
        case (.type(let type), nil): return types.removeValue(forKey: IdentityKey(ObjectIdentifier(type)))
        case (.name(let name), let slot?): return names.updateValue(slot, forKey: name)
        case (.name(let name), nil): return names.removeValue(forKey: name)
        }
    }

    /// Gives the dictionaries buffers of their own.
    mutating func makeUnique() {
        types.reserveCapacity(types.count)
        names.reserveCapacity(names.count)
    }

    /// The type slot whose service type is called `name` (see `lookup(typeNamed:)`).
    func typeSlot(named name: String) -> LocatorSlot? {
        var shortMatches: [LocatorSlot] = []
        for slot in types.values {
            let serviceType = slot.serviceType
            if String(reflecting: serviceType) == name { return slot }
            if String(describing: serviceType) == name { shortMatches.append(slot) }
        }
        return shortMatches.count == 1 ? shortMatches[0] : nil
    }
}

/// The slots of a read-only locator, published once.
final class FrozenSlots: Sendable {
    let slots: LocatorSlots

    init(slots: LocatorSlots) {
        self.slots = slots
    }
}
