import Foundation

/// Runs the gets of a safe provider one at a time, the way its `ServiceSafeProviderKind` says:
/// the one serialization of both `ServiceSafeProvider` and `ServiceParamsSafeProvider` (and the
/// providers made by `convert(params:)`, which share their params provider's serializer).
///
/// A get holds the serializer as a making holds a singleton's cell: it puts its thread's
/// `Making` mark in `holder`, runs holding the mark's `makingLock`, and clears `holder` at the
/// end. A get that finds `holder` set waits for that mark with `Making.wait`, the one wait of the
/// package, so a wait that would close a loop fails as a dependency cycle instead of
/// deadlocking: on one thread (a factory that asks for its own service, directly or through
/// other providers) and between threads (thread 1 runs A's factory and waits for B, whose
/// factory thread 2 runs and which waits for A), whether the other wait is for a serializer, a
/// singleton's making or a session switch. The cycle is recorded for a validation or a graph
/// against the node of the provider whose get was refused: a serializer is shared by the
/// providers `convert(params:)` makes, which are nodes of their own.
///
/// The `.lock` kind holds nothing else; the other kinds also hold the primitive the user picks,
/// a `DispatchSemaphore` or a serial `DispatchQueue`, while the get runs, which `holder` leaves
/// free for it. A get of a service the inner provider holds ready (an instance, an `atOne` or a
/// made `lazy` one) reads it without the serializer (`SafeSource.get()`): it is published once
/// and never changes, so the read runs nothing a serialization could order.
@usableFromInline
final class Serializer: Sendable {
    /// The mark of the get that holds the serializer, whose thread runs it; `nil` when none does.
    @usableFromInline let holder = Locked<Making?>(nil)
    /// The primitive of the other kinds; `nil` for `.lock`.
    @usableFromInline let primitive: Primitive?

    /// What a get holds besides the serializer, for the semaphore and queue kinds.
    @usableFromInline
    enum Primitive: Sendable {
        case semaphore(DispatchSemaphore)
        /// A serial queue, which runs the get in `sync`.
        case queue(DispatchQueue)
    }

    init(kind: ServiceSafeProviderKind) {
        switch kind {
        case .lock:
            primitive = nil
        case .semaphore:
            primitive = .semaphore(DispatchSemaphore(value: 1))
        case let .queue(qos, label):
            primitive = .queue(DispatchQueue(label: label ?? "ServiceContainerKit.ServiceSafeProvider", qos: qos))
        }
    }

    /// Runs a get serialized: the value `ready` gives when it has one (a read: nothing else
    /// runs), else what `make` makes. `node` is the identity the get is recorded under, which a
    /// cycle is recorded against.
    @inlinable @inline(__always)
    func run<Service, Value>(
        _ service: Service.Type,
        node: @autoclosure () -> ObjectIdentifier,
        ready: () -> Value? = { nil },
        make: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        try Making.untilDone(Service.self, node: node()) { making in
            let other: Making? = holder.withLock { holder in
                if let holder { return holder }
                holder = making
                return nil
            }
            if let other {
                return .wait(other)
            }
            defer { holder.withLock { $0 = nil } }
            if let value = ready() {
                return .found(value)
            }
            do throws(ServiceObtainError) {
                return .found(try holdingPrimitive(make))
            } catch {
                return .failed(error)
            }
        }
    }

    /// Runs `body` holding the primitive of the semaphore and queue kinds; nothing else waits for
    /// it, since only the get that holds the serializer takes it.
    @inlinable @inline(__always)
    func holdingPrimitive<Value>(_ body: () throws(ServiceObtainError) -> Value) throws(ServiceObtainError) -> Value {
        guard let primitive else {
            return try body()
        }
        return try runHoldingPrimitive(primitive, body)
    }

    /// `holdingPrimitive` for the semaphore and queue kinds.
    @usableFromInline
    func runHoldingPrimitive<Value>(
        _ primitive: Primitive,
        _ body: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        switch primitive {
        case .semaphore(let semaphore):
            semaphore.wait()
            defer { semaphore.signal() }
            return try body()
        case .queue(let queue):
            return try queue.sync {
                Result { () throws(ServiceObtainError) -> Value in try body() }
            }.get()
        }
    }
}
