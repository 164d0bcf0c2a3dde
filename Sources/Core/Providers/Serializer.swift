import Foundation

/// Runs the gets of a safe provider one at a time, the way its `ServiceSafeProviderKind` says:
/// the one serialization of both `ServiceSafeProvider` and `ServiceParamsSafeProvider` (and the
/// providers made by `convert(params:)`, which share their params provider's serializer).
///
/// The `.lock` kind holds the package's lock, a `Locked` with no state (a mutex, as `NSLock`
/// was in 3.0), while the get runs; the other kinds hold the primitive the user picks, a
/// `DispatchSemaphore` or a serial `DispatchQueue`. None of them guards state of the package's,
/// which all lives in the `Locked` that guards it.
///
/// A get that re-enters the same serializer on its thread (a factory that asks for its own
/// service, directly or through other providers) fails with a dependency cycle instead of
/// deadlocking: a get that runs user code marks the serializer on the thread's `ThreadContext`,
/// and a get that finds the serializer busy looks for that mark before it waits. The mark is
/// not recorded for a validation or a graph: a serializer is shared by the providers
/// `convert(params:)` makes, which are nodes of their own; the gets it runs record themselves,
/// and a cycle it finds is recorded under the node of the provider whose get it refused. A get of a
/// made service reads it, then takes the lock and leaves, with no mark and no cycle check
/// (`readyWhenFree`).
@usableFromInline
final class Serializer: Sendable {
    /// Held by every get of the `.lock` kind, user code included (a factory runs under it, as
    /// under `Making.makingLock`); it is never taken twice on one thread, which a `Mutex`
    /// does not allow: a get that finds it busy checks for a cycle before it waits. Kept for
    /// every kind, so that the default kind's get tests no optional.
    @usableFromInline let lock = Locked(())
    /// The `DispatchSemaphore` or the serial `DispatchQueue` of the other kinds; `nil` for
    /// `.lock`, whose get tests this one reference.
    @usableFromInline let primitive: (any AnyObject & Sendable)?

    init(kind: ServiceSafeProviderKind) {
        switch kind {
        case .lock:
            primitive = nil
        case .semaphore:
            primitive = DispatchSemaphore(value: 1)
        case let .queue(qos, label):
            primitive = DispatchQueue(label: label, qos: qos)
        }
    }

    /// A ready value, read without the lock, once no other get holds it; `nil` when `ready`
    /// has none, when the lock is busy (or this thread holds it) or for the other kinds: the
    /// get then goes through `run`. The fast path of a safe provider's get of a made service.
    ///
    /// A ready value is published once and never changes, so it is read before the lock; the
    /// get still takes the lock and leaves it, so that it waits for a get in progress as every
    /// get does.
    @inlinable @inline(__always)
    func readyWhenFree<Value>(_ ready: () -> Value?) -> Value? {
        guard primitive == nil, let value = ready(), lock.withLockIfAvailable({ _ in true }) != nil else {
            return nil
        }
        return value
    }

    /// Runs a get serialized: the value `ready` gives when it has one (a read: nothing else
    /// runs), else what `make` makes, with this serializer marked on the thread while it runs.
    /// `node` is the identity the get is recorded under, which a cycle is recorded against.
    @inlinable @inline(__always)
    func run<Service, Value>(
        _ service: Service.Type,
        node: ObjectIdentifier,
        ready: () -> Value? = { nil },
        make: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        guard primitive == nil else {
            return try runSlowly(Service.self, node: node, ready: ready, make: make)
        }
        if let value = try lock.withLockIfAvailable({ _ throws(ServiceObtainError) -> Value in
            try readyOrMade(Service.self, ready: ready, make: make)
        }) {
            return value
        }
        try checkCycle(Service.self, node: node)
        return try lock.withLock { _ throws(ServiceObtainError) -> Value in
            try readyOrMade(Service.self, ready: ready, make: make)
        }
    }

    /// What `run` does once serialized.
    @inlinable @inline(__always)
    func readyOrMade<Service, Value>(
        _ service: Service.Type,
        ready: () -> Value?,
        make: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        if let value = ready() {
            return value
        }
        // This thread holds the serializer now, so it was not marked: `withMarked` need not look.
        return try ThreadContext.withMarked(ObjectIdentifier(self), make)
    }

    /// Fails when this thread is making a value under this serializer: waiting for the
    /// serializer would wait for itself. The cycle is recorded against `node`.
    @usableFromInline
    func checkCycle<Service>(_ service: Service.Type, node: ObjectIdentifier) throws(ServiceObtainError) {
        if ThreadContext.isObtaining(ObjectIdentifier(self)) {
            throw ThreadContext.cycleError(Service.self, id: node)
        }
    }

    /// `run` for the semaphore and queue kinds.
    @usableFromInline
    func runSlowly<Service, Value>(
        _ service: Service.Type,
        node: ObjectIdentifier,
        ready: () -> Value?,
        make: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        if let semaphore = primitive as? DispatchSemaphore {
            if semaphore.wait(timeout: .now()) != .success {
                try checkCycle(Service.self, node: node)
                semaphore.wait()
            }
            defer { semaphore.signal() }
            return try readyOrMade(Service.self, ready: ready, make: make)
        }
        try checkCycle(Service.self, node: node)
        return try (primitive as! DispatchQueue).sync {
            Result { () throws(ServiceObtainError) -> Value in try readyOrMade(Service.self, ready: ready, make: make) }
        }.get()
    }
}
