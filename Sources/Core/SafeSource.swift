/// The source of a `ServiceSafeProvider`: every get of the plain provider inside it runs under
/// the serializer. A get of a service the inner provider holds ready only reads it under the
/// lock; any other get runs the inner provider's source (which may run a factory) marked on
/// the thread, so that a re-entry fails as a cycle.
@usableFromInline
final class SafeSource<Service>: Sendable {
    @usableFromInline let serializer: Serializer
    @usableFromInline let inner: ServiceProvider<Service>

    init(serializer: Serializer, inner: ServiceProvider<Service>) {
        self.serializer = serializer
        self.inner = inner
    }

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        try serializer.run(Service.self, ready: { inner.readyService }, make: inner.getService)
    }
}
