import Foundation

/// Runs the gets of a safe provider one at a time, the way its `ServiceSafeProviderKind` says.
@usableFromInline
final class ServiceSerializer: @unchecked Sendable {
    // Each primitive below is thread-safe itself; nothing else is stored.
    private enum Primitive {
        case lock(NSLock)
        case semaphore(DispatchSemaphore)
        case queue(DispatchQueue)
    }

    private let primitive: Primitive

    init(kind: ServiceSafeProviderKind) {
        switch kind {
        case .lock:
            primitive = .lock(NSLock())
        case .semaphore:
            primitive = .semaphore(DispatchSemaphore(value: 1))
        case let .queue(qos, label):
            primitive = .queue(DispatchQueue(label: label, qos: qos))
        }
    }

    @usableFromInline
    func run<Value>(_ body: () throws(ServiceObtainError) -> Value) throws(ServiceObtainError) -> Value {
        switch primitive {
        case .lock(let lock):
            lock.lock()
            defer { lock.unlock() }
            return try body()
        case .semaphore(let semaphore):
            semaphore.wait()
            defer { semaphore.signal() }
            return try body()
        case .queue(let queue):
            return try queue.sync { Result(catching: body) }.get()
        }
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

    @usableFromInline
    func get() throws(ServiceObtainError) -> Service {
        try ObtainStack.withEntered(ObjectIdentifier(serializer), service: Service.self) {
            () throws(ServiceObtainError) -> Service in
            try serializer.run { () throws(ServiceObtainError) -> Service in try inner.get() }
        }
    }
}
