/// The source of a `ServiceSafeProvider`: every get of the plain provider inside it runs under
/// the serializer. A get of a service the inner provider holds ready only reads it under the
/// lock; any other get runs the inner provider's source (which may run a factory) marked on
/// the thread, so that a re-entry fails as a cycle.
@usableFromInline
final class SafeSource<Service>: Sendable {
    @usableFromInline let serializer: Serializer
    @usableFromInline let inner: ServiceProvider<Service>
    /// `inner`, used without retaining it on every get (`inner` keeps it alive): retained, it
    /// would be retained and released around the serializer's lock calls.
    @usableFromInline let unretainedInner: UnretainedReference<ServiceProvider<Service>>

    init(serializer: Serializer, inner: ServiceProvider<Service>) {
        self.serializer = serializer
        self.inner = inner
        self.unretainedInner = UnretainedReference(inner)
    }

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        try serializer.run(
            Service.self,
            ready: { unretainedInner.withObject { $0.readyService } },
            make: { () throws(ServiceObtainError) -> Service in try inner.getService() }
        )
    }
}
