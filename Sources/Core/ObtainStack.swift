#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The providers whose service is being obtained on the current thread, innermost last.
///
/// A get that finds its own provider already on the stack is a dependency cycle: it fails at
/// once instead of deadlocking on the provider's lock or recursing until the stack overflows.
/// Each thread has its own stack, so no synchronization is needed.
@usableFromInline
final class ObtainStack {
    private var entries: UnsafeMutablePointer<ObjectIdentifier>
    private var capacity: Int
    private var count = 0

    private init() {
        capacity = 16
        entries = .allocate(capacity: capacity)
    }

    deinit {
        entries.deallocate()
    }

    /// The stack of the calling thread, made on first use and freed when the thread exits.
    @usableFromInline
    static var current: ObtainStack {
        if let raw = pthread_getspecific(obtainStackKey) {
            return Unmanaged<ObtainStack>.fromOpaque(raw).takeUnretainedValue()
        }
        let stack = ObtainStack()
        pthread_setspecific(obtainStackKey, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    private func contains(_ id: ObjectIdentifier) -> Bool {
        var index = 0
        while index < count {
            if entries[index] == id { return true }
            index += 1
        }
        return false
    }

    private func push(_ id: ObjectIdentifier) {
        if count == capacity {
            let grown = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: entries, count: count)
            entries.deallocate()
            entries = grown
            capacity *= 2
        }
        entries[count] = id
        count += 1
    }

    /// Runs `body` with `id` marked as being obtained on this thread.
    ///
    /// - Throws: a `ServiceObtainError` with `ServiceFactoryError.dependencyCycle` when `id` is
    ///   already being obtained on this thread; `body` is not run then.
    @usableFromInline
    static func withEntered<Service, Value>(
        _ id: ObjectIdentifier,
        service: Service.Type,
        _ body: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        let stack = current
        if stack.contains(id) {
            let error = ServiceObtainError(
                service: Service.self,
                error: ServiceFactoryError.dependencyCycle(service: Service.self)
            )
            LogRecorder.shared.providerMakeFailure(type: Service.self, error: error)
            throw error
        }
        stack.push(id)
        defer { stack.count -= 1 }
        return try body()
    }
}

private let obtainStackKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key) { raw in
        #if canImport(Darwin)
        Unmanaged<ObtainStack>.fromOpaque(raw).release()
        #else
        if let raw { Unmanaged<ObtainStack>.fromOpaque(raw).release() }
        #endif
    }
    precondition(rc == 0, "pthread_key_create failed: \(rc)")
    return key
}()
