import Foundation

/// Runs the gets of a safe provider one at a time, the way its `ServiceSafeProviderKind` says.
@usableFromInline
final class ServiceSerializer: @unchecked Sendable {
    // Immutable; each primitive is thread-safe itself.
    @usableFromInline
    enum Primitive {
        case lock(NSLock)
        case semaphore(DispatchSemaphore)
        case queue(DispatchQueue)
    }

    /// Owns the primitive.
    @usableFromInline let primitive: Primitive
    // Unretained views of the lock or the semaphore that `primitive` owns: a get uses them in
    // place, where taking the primitive out of the enum would cost a retain and a release
    // (atomic operations on a count that every thread using the provider shares).
    @usableFromInline let lockReference: Unmanaged<NSLock>?
    @usableFromInline let semaphoreReference: Unmanaged<DispatchSemaphore>?

    init(kind: ServiceSafeProviderKind) {
        switch kind {
        case .lock:
            let lock = NSLock()
            primitive = .lock(lock)
            lockReference = .passUnretained(lock)
            semaphoreReference = nil
        case .semaphore:
            let semaphore = DispatchSemaphore(value: 1)
            primitive = .semaphore(semaphore)
            lockReference = nil
            semaphoreReference = .passUnretained(semaphore)
        case let .queue(qos, label):
            primitive = .queue(DispatchQueue(label: label, qos: qos))
            lockReference = nil
            semaphoreReference = nil
        }
    }

    @inlinable
    func run<Value>(_ body: () throws(ServiceObtainError) -> Value) throws(ServiceObtainError) -> Value {
        if let lock = lockReference {
            lock._withUnsafeGuaranteedRef { $0.lock() }
            defer { lock._withUnsafeGuaranteedRef { $0.unlock() } }
            return try body()
        }
        if let semaphore = semaphoreReference {
            semaphore._withUnsafeGuaranteedRef { $0.wait() }
            defer { _ = semaphore._withUnsafeGuaranteedRef { $0.signal() } }
            return try body()
        }
        guard case .queue(let queue) = primitive else {
            preconditionFailure("a serializer has no primitive")
        }
        return try queue.sync { Result(catching: body) }.get()
    }
}

/// Serializes every get of the storage it wraps.
///
/// Providers that share a serializer (a safe params provider and the providers made by its
/// `convert(params:)`) share the cycle check too, so re-entering any of them on the same
/// thread fails instead of deadlocking.
@usableFromInline
final class SafeServiceCell<Service>: @unchecked Sendable {
    // Immutable.
    @usableFromInline let serializer: ServiceSerializer
    @usableFromInline let inner: ProviderStorage<Service>

    init(serializer: ServiceSerializer, inner: ProviderStorage<Service>) {
        self.serializer = serializer
        self.inner = inner
    }

    @inlinable
    func get() throws(ServiceObtainError) -> Service {
        try ObtainStack.withEntered(ObjectIdentifier(serializer), service: Service.self) {
            () throws(ServiceObtainError) -> Service in
            try serializer.run { () throws(ServiceObtainError) -> Service in try inner.get() }
        }
    }
}
