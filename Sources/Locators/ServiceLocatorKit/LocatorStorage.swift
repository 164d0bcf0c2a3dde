import Synchronization

/// The services of a locator, shared by `ServiceLocator` and `ServiceEasyLocator`.
///
/// A writable locator guards its state with a `ServiceSpinLock` held only to read or write the
/// dictionary, never while a provider runs, so a factory may use the same locator; whatever a
/// change replaces or removes is released after the lock, so a service's `deinit` may use the
/// locator too. `setReadOnly` freezes the state: from then on a get reads it without any lock,
/// after one acquire load.
///
/// Slots named by a type are kept by the type's `ObjectIdentifier`, apart from those named by a
/// string, so finding a type slot costs one lookup in an `[ObjectIdentifier: LocatorEntry]`
/// dictionary. The typed gets are `@inlinable`, so that the caller's specialized code reaches
/// the provider and its inlinable get without generic indirection.
@usableFromInline
package final class LocatorStorage: @unchecked Sendable {
    // `typeEntries`, `nameEntries`, `parent`, `denyCloneValue` and `assertOnRefusal` are
    // guarded by `lock`. `frozen` is set once, under `lock` and with release ordering, after the
    // last write to the entries and `parent`; none is written again, so a reader that saw
    // `frozen` set (with acquire ordering) reads them without the lock.
    private let lock = ServiceSpinLock()
    private let frozen = Atomic<Bool>(false)
    // Every access is under `lock` or after `frozen` was set, which already excludes
    // overlapping writes: the run-time exclusivity check would only add cost to every get.
    @exclusivity(unchecked) private var typeEntries: [ObjectIdentifier: LocatorEntry] = [:]
    @exclusivity(unchecked) private var nameEntries: [String: LocatorEntry] = [:]
    private var parent: LocatorParent?
    private var denyCloneValue = false
    private var assertOnRefusal = false

    /// Serializes parent changes of all locators, so that two concurrent changes cannot build a
    /// loop that each check alone would miss.
    private static let parentLock = ServiceLock()

    package init(parent: LocatorParent?) {
        self.parent = parent
    }

    // MARK: - Reading

    /// Whether the locator is read-only.
    package var isReadOnly: Bool { frozen.load(ordering: .acquiring) }

    /// Whether clones are refused.
    package var denyClone: Bool { lock.withLock { denyCloneValue } }

    /// The parent locator.
    package var parentLocator: (AnyObject & Sendable)? { currentParent?.locator }

    private var currentParent: LocatorParent? {
        if frozen.load(ordering: .acquiring) { return parent }
        return lock.withLock { parent }
    }

    /// The number of services stored here (parents excluded).
    package var count: Int {
        if frozen.load(ordering: .acquiring) { return typeEntries.count + nameEntries.count }
        return lock.withLock { typeEntries.count + nameEntries.count }
    }

    /// What a look-up found in one locator: `found` made from the entry of the slot, or the
    /// parent to ask next (`nil`: the chain ends).
    private enum Step<Found> {
        case found(Found)
        case next(LocatorStorage?)
    }

    /// `use` applied to the entry that `read` finds here, or else the parent to ask next.
    @inline(__always)
    private func step<Found>(
        _ read: (LocatorStorage) -> LocatorEntry?,
        _ use: (LocatorEntry) -> Found
    ) -> Step<Found> {
        if frozen.load(ordering: .acquiring) {
            if let entry = read(self) { return .found(use(entry)) }
            return .next(parent?.storage)
        }
        return lock.withLock {
            if let entry = read(self) { return .found(use(entry)) }
            return .next(parent?.storage)
        }
    }

    /// `use` applied to the entry that `read` finds in this locator or the nearest parent where
    /// it finds one; `nil` when none has one. This locator is asked first, outside the loop, so
    /// that a hit here (the usual case) holds no extra reference to it.
    @inline(__always)
    private func find<Found>(
        _ read: (LocatorStorage) -> LocatorEntry?,
        _ use: (LocatorEntry) -> Found
    ) -> Found? {
        var storage: LocatorStorage
        switch step(read, use) {
        case .found(let found): return found
        case .next(let next?): storage = next
        case .next(nil): return nil
        }
        while true {
            switch storage.step(read, use) {
            case .found(let found): return found
            case .next(let next?): storage = next
            case .next(nil): return nil
            }
        }
    }

    /// The entry for `id` in this locator or the nearest parent that has one.
    package func lookup(_ id: ServiceLocatorKeyID) -> LocatorEntry? {
        switch id.storage {
        case .type(let type):
            let typeID = ObjectIdentifier(type)
            return find({ $0.typeEntries[typeID] }, { $0 })
        case .name(let name):
            return find({ $0.nameEntries[name] }, { $0 })
        }
    }

    /// The entry of a slot named by a type that is called `name`, in this locator or the nearest
    /// parent that has one: how a bare store key finds a service added with an easy key, whose
    /// `storeKey` is its type's name. `name` is the full name (`String(reflecting:)`, the easy
    /// keys' `storeKey`) or, when only one type of the locator has it, the short name that 2.x
    /// easy keys used. Scans the type slots (names are not kept), so it is for the rare gets by
    /// a bare store key that missed their string slot.
    package func lookup(typeNamed name: String) -> LocatorEntry? {
        find({ $0.typeEntry(named: name) }, { $0 })
    }

    private func typeEntry(named name: String) -> LocatorEntry? {
        var shortMatches: [LocatorEntry] = []
        for (_, entry) in typeEntries {
            if String(reflecting: entry.serviceType) == name { return entry }
            if String(describing: entry.serviceType) == name { shortMatches.append(entry) }
        }
        return shortMatches.count == 1 ? shortMatches[0] : nil
    }

    /// The `plainProvider` of the entry of the slot named by the type whose identifier is
    /// `typeID`, here or in the nearest parent that has one, when that entry holds a service of
    /// the type whose identifier is `serviceTypeID`; `nil` otherwise.
    @usableFromInline
    package func plainProvider(typeID: ObjectIdentifier, serviceTypeID: ObjectIdentifier) -> AnyObject? {
        find({ $0.typeEntries[typeID] }, { $0.plainProvider(serving: serviceTypeID) }) ?? nil
    }

    /// The same as `plainProvider(typeID:serviceTypeID:)` for the slot named `name`.
    @usableFromInline
    package func plainProvider(name: String, serviceTypeID: ObjectIdentifier) -> AnyObject? {
        find({ $0.nameEntries[name] }, { $0.plainProvider(serving: serviceTypeID) }) ?? nil
    }

    /// The provider that gives the `Service` service for `id` without params, or `nil` when
    /// there is none (missing, of another type, or needing params): the path of the typed gets
    /// that answer `nil` on failure. Inlined into the caller, where `Service` is known, so the
    /// only call left is the non-generic look-up.
    @inlinable
    package func plainProvider<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) -> ServiceProvider<Service>? {
        let serviceTypeID = ObjectIdentifier(Service.self)
        let found: AnyObject?
        switch id.storage {
        case .type(let type): found = plainProvider(typeID: ObjectIdentifier(type), serviceTypeID: serviceTypeID)
        case .name(let name): found = plainProvider(name: name, serviceTypeID: serviceTypeID)
        }
        // `serviceTypeID` was checked, so the entry is a `ServiceEntry<Service>` whose
        // `plainProvider` is a `ServiceProvider<Service>`.
        return found.map { unsafeDowncast($0, to: ServiceProvider<Service>.self) }
    }

    /// The entry for `id`, checked to hold a `Service` service.
    package func entry<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) throws(ServiceLocatorError)
        -> ServiceEntry<Service>
    {
        guard let entry = lookup(id) else {
            throw .serviceNotFound(key: id, service: Service.self)
        }
        guard entry.serviceTypeID == ObjectIdentifier(Service.self) else {
            throw .serviceNotFound(key: id, service: Service.self, stored: entry.serviceType)
        }
        return unsafeDowncast(entry, to: ServiceEntry<Service>.self)
    }

    /// The provider that gives the service for `id` without params.
    package func provider<Service>(_ id: ServiceLocatorKeyID, as type: Service.Type) throws(ServiceLocatorError)
        -> ServiceProvider<Service>
    {
        let entry = try entry(id, as: Service.self)
        guard let provider = entry.provider else {
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
        guard entry.paramsTypeID == ObjectIdentifier(Params.self) else {
            throw .wrongParams(key: id, service: Service.self, expected: entry.paramsType, received: Params.self)
        }
        return unsafeDowncast(entry, to: ParamsServiceEntry<Service, Params>.self).paramsProvider
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
        if entry.paramsTypeID == ObjectIdentifier(Params.self) {
            return try unsafeDowncast(entry, to: ParamsServiceEntry<Service, Params>.self)
                .paramsProvider.getService(params: params)
        }
        if entry.paramsTypeID == ObjectIdentifier(Params?.self) {
            return try unsafeDowncast(entry, to: ParamsServiceEntry<Service, Params?>.self)
                .paramsProvider.getService(params: params)
        }
        return try entry.service(key: id, untypedParams: params).get()
    }

    /// The service for `id` as `Any`, checked to be a `serviceType`; `nil` params means none.
    package func anyService(_ id: ServiceLocatorKeyID, serviceType: Any.Type, params: Any?) throws -> Any {
        guard let entry = lookup(id) else {
            throw ServiceLocatorError.serviceNotFound(key: id, service: serviceType)
        }
        guard entry.serviceTypeID == ObjectIdentifier(serviceType) else {
            throw ServiceLocatorError.serviceNotFound(key: id, service: serviceType, stored: entry.serviceType)
        }
        return try entry.anyService(key: id, params: params).get()
    }

    // MARK: - Changing

    /// Stores `entry` for `id`, replacing what was there, unless the locator is read-only.
    package func add(
        _ id: ServiceLocatorKeyID,
        entry: LocatorEntry,
        owner: AnyObject & Sendable
    ) -> Result<Void, ServiceLocatorError> {
        var replaced: LocatorEntry?
        let refusedAssert: Bool? = lock.withLock {
            if frozen.load(ordering: .relaxed) { return assertOnRefusal }
            switch id.storage {
            case .type(let type): replaced = typeEntries.updateValue(entry, forKey: ObjectIdentifier(type))
            case .name(let name): replaced = nameEntries.updateValue(entry, forKey: name)
            }
            return nil
        }
        // The replaced service is released after the lock, not under it.
        withExtendedLifetime(replaced) {}
        guard let assert = refusedAssert else { return .success(()) }
        let change = "add service \(ServiceLocatorError.name(entry.serviceType)) for key '\(id)'"
        return Self.refuse(.readOnly(locator: type(of: owner), change: change), owner: owner, assert: assert)
    }

    /// Removes the service for `id` here (not in parents), unless the locator is read-only.
    package func remove(
        _ id: ServiceLocatorKeyID,
        serviceType: Any.Type,
        owner: AnyObject & Sendable
    ) -> Result<Void, ServiceLocatorError> {
        enum Outcome {
            case refused(assert: Bool)
            case removed
            case missing
            // The slot holds a service of another type than the key's: it is left alone, as a
            // get with that key would not return it either.
            case otherType(Any.Type)
        }
        var removed: LocatorEntry?
        let outcome: Outcome = lock.withLock {
            if frozen.load(ordering: .relaxed) { return .refused(assert: assertOnRefusal) }
            let current: LocatorEntry?
            switch id.storage {
            case .type(let type): current = typeEntries[ObjectIdentifier(type)]
            case .name(let name): current = nameEntries[name]
            }
            guard let current else { return .missing }
            guard current.serviceTypeID == ObjectIdentifier(serviceType) else { return .otherType(current.serviceType) }
            switch id.storage {
            case .type(let type): removed = typeEntries.removeValue(forKey: ObjectIdentifier(type))
            case .name(let name): removed = nameEntries.removeValue(forKey: name)
            }
            return .removed
        }
        // The removed service is released after the lock, not under it.
        withExtendedLifetime(removed) {}
        switch outcome {
        case .refused(let assert):
            let change = "remove service \(ServiceLocatorError.name(serviceType)) for key '\(id)'"
            return Self.refuse(.readOnly(locator: type(of: owner), change: change), owner: owner, assert: assert)
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
        owner: AnyObject & Sendable
    ) -> Result<Void, ServiceLocatorError> {
        let refusedAssert: Bool? = lock.withLock {
            if frozen.load(ordering: .relaxed) {
                if denyClone || !denyCloneValue {
                    denyCloneValue = denyCloneValue || denyClone
                    return nil
                }
                return assertOnRefusal
            }
            denyCloneValue = denyClone
            assertOnRefusal = assertionFailure
            frozen.store(true, ordering: .releasing)
            return nil
        }
        guard let assert = refusedAssert else { return .success(()) }
        let change = "change denyClone to \(denyClone)"
        return Self.refuse(.readOnly(locator: type(of: owner), change: change), owner: owner, assert: assert)
    }

    /// The services and parent to copy into a clone, or `nil` (reported) when clones are denied.
    private func cloneState(owner: AnyObject & Sendable) -> LocatorCloneState? {
        let state: (denied: Bool, assert: Bool, copy: LocatorCloneState?) = lock.withLock {
            if denyCloneValue { return (true, assertOnRefusal, nil) }
            return (false, false, LocatorCloneState(typeEntries: typeEntries, nameEntries: nameEntries, parent: parent))
        }
        if state.denied {
            _ = Self.refuse(.cloneDenied(locator: type(of: owner)), owner: owner, assert: state.assert)
        }
        return state.copy
    }

    /// Fills `copy`, the storage of a new locator `copyOwner`, with this locator's services and
    /// parent: the work of `clone()`. When clones are denied, the refusal is reported and `copy`
    /// stays empty. A copy that its own initializer already made read-only is left as it is.
    package func fillClone(_ copy: LocatorStorage, owner: AnyObject & Sendable, copyOwner: AnyObject & Sendable) {
        guard let state = cloneState(owner: owner) else { return }
        var (typeEntries, nameEntries) = (state.typeEntries, state.nameEntries)
        // The copy gets storage of its own here, outside its lock: storage shared with this
        // locator would make the first change of either one copy every entry under its lock.
        typeEntries.reserveCapacity(typeEntries.count)
        nameEntries.reserveCapacity(nameEntries.count)
        let filled: Bool = copy.lock.withLock {
            guard !copy.frozen.load(ordering: .relaxed) else { return false }
            swap(&copy.typeEntries, &typeEntries)
            swap(&copy.nameEntries, &nameEntries)
            return true
        }
        // What the copy held before is released after its lock, not under it.
        withExtendedLifetime((typeEntries, nameEntries)) {}
        if filled, let parent = state.parent {
            _ = copy.setParent(parent, owner: copyOwner)
        }
    }

    /// Sets the parent, unless the locator is read-only or the chain would loop.
    package func setParent(_ newParent: LocatorParent?, owner: AnyObject & Sendable) -> Result<Void, ServiceLocatorError> {
        var replaced = newParent
        let refusal: (error: ServiceLocatorError, assert: Bool)? = Self.parentLock.withLock {
            var ancestor = newParent?.storage
            while let current = ancestor {
                if current === self {
                    return (.parentCycle(locator: type(of: owner)), false)
                }
                ancestor = current.currentParent?.storage
            }
            return lock.withLock {
                if frozen.load(ordering: .relaxed) {
                    return (.readOnly(locator: type(of: owner), change: "set parent"), assertOnRefusal)
                }
                swap(&parent, &replaced)
                return nil
            }
        }
        // The old parent is released after both locks, not under them.
        withExtendedLifetime(replaced) {}
        guard let refusal else { return .success(()) }
        return Self.refuse(refusal.error, owner: owner, assert: refusal.assert)
    }

    /// Reports a refusal to the `ServiceLocatorLogger`s, asserts when asked to, and returns it.
    package static func refuse(
        _ error: ServiceLocatorError,
        owner: AnyObject & Sendable,
        assert: Bool
    ) -> Result<Void, ServiceLocatorError> {
        LogRecorder.record(ServiceLocatorLogger.self) { $0.serviceLocatorRefused(owner, error: error) }
        if assert {
            assertionFailure(error.description)
        }
        return .failure(error)
    }
}
