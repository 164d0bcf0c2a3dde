/// Makes the service of a `many` provider anew on every get, concurrently on the threads that
/// ask (a `ServiceSafeProvider` serializes a factory with mutable state).
@usableFromInline
final class ManySource<Service>: @unchecked Sendable {  // immutable
    @usableFromInline let factory: () throws -> Service
    /// What the cycle check tracks: this source, or the params provider whose params it binds.
    @usableFromInline let id: ObjectIdentifier?

    @inlinable
    init(id: ObjectIdentifier? = nil, factory: @escaping () throws -> Service) {
        self.factory = factory
        self.id = id
    }

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        let node = ObjectIdentifier(self)
        return try ThreadContext.withEntered(id ?? node, service: Service.self, node: node) {
            () throws(ServiceObtainError) -> Service in
            try ServiceMaking.make(Service.self, factory)
        }
    }
}
