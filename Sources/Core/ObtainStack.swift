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
///
/// The stack is plain memory reached through a thread-specific pointer, not an object, so
/// entering and leaving it on every get costs no reference counting; `withEntered` is inlined
/// into each provider's get.
@usableFromInline
struct ObtainStack {
    @usableFromInline var entries: UnsafeMutablePointer<ObjectIdentifier>
    @usableFromInline var capacity: Int
    @usableFromInline var count: Int

    /// The stack of the calling thread, made on first use and freed when the thread exits.
    @inlinable
    static var current: UnsafeMutablePointer<ObtainStack> {
        current(key: obtainStackKey)
    }

    /// `current`, for callers that keep `obtainStackKey` at hand (reading the global checks
    /// that it is initialized, on every get).
    @inlinable
    static func current(key: pthread_key_t) -> UnsafeMutablePointer<ObtainStack> {
        if let raw = pthread_getspecific(key) {
            return raw.assumingMemoryBound(to: ObtainStack.self)
        }
        return makeCurrent()
    }

    @usableFromInline
    static func makeCurrent() -> UnsafeMutablePointer<ObtainStack> {
        let stack = UnsafeMutablePointer<ObtainStack>.allocate(capacity: 1)
        stack.initialize(to: ObtainStack(entries: .allocate(capacity: 16), capacity: 16, count: 0))
        pthread_setspecific(obtainStackKey, stack)
        return stack
    }

    @inlinable
    func contains(_ id: ObjectIdentifier) -> Bool {
        var index = 0
        while index < count {
            if entries[index] == id { return true }
            index += 1
        }
        return false
    }

    @inlinable
    mutating func push(_ id: ObjectIdentifier) {
        if count == capacity {
            grow()
        }
        entries[count] = id
        count &+= 1
    }

    @usableFromInline
    mutating func grow() {
        let grown = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = grown
        capacity *= 2
    }

    /// Runs `body` with `id` marked as being obtained on this thread.
    ///
    /// - Throws: a `ServiceObtainError` with `ServiceFactoryError.dependencyCycle` when `id` is
    ///   already being obtained on this thread; `body` is not run then.
    @inlinable
    static func withEntered<Service, Value>(
        _ id: ObjectIdentifier,
        service: Service.Type,
        key: pthread_key_t = obtainStackKey,
        _ body: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        let stack = current(key: key)
        if stack.pointee.contains(id) {
            throw cycleError(Service.self)
        }
        stack.pointee.push(id)
        defer { stack.pointee.count &-= 1 }
        return try body()
    }

    /// Runs `body` with `id` marked as being obtained on this thread, whether or not it is
    /// already: a get of `id` that `body` makes fails as a cycle.
    @inlinable
    static func withMarked<Value>(_ id: ObjectIdentifier, _ body: () -> Value) -> Value {
        let stack = current
        stack.pointee.push(id)
        defer { stack.pointee.count &-= 1 }
        return body()
    }

    /// Whether `id` is being obtained on this thread.
    @inlinable
    static func isObtaining(_ id: ObjectIdentifier) -> Bool {
        current.pointee.contains(id)
    }

    /// The error of a get that found its provider already being obtained; it is logged.
    @usableFromInline
    static func cycleError<Service>(_ service: Service.Type) -> ServiceObtainError {
        let error = ServiceObtainError(
            service: Service.self,
            error: ServiceFactoryError.dependencyCycle(service: Service.self)
        )
        LogRecorder.recorder.providerMakeFailure(type: Service.self, error: error)
        return error
    }
}

@usableFromInline
let obtainStackKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key) { raw in
        #if canImport(Darwin)
        let stack = raw.assumingMemoryBound(to: ObtainStack.self)
        #else
        guard let stack = raw?.assumingMemoryBound(to: ObtainStack.self) else { return }
        #endif
        stack.pointee.entries.deallocate()
        stack.deinitialize(count: 1)
        stack.deallocate()
    }
    precondition(rc == 0, "pthread_key_create failed: \(rc)")
    return key
}()
