/// Makes a `many` service: a new one on every get.
@usableFromInline
final class ManyServiceMaker<Service>: @unchecked Sendable {
    // Immutable; the factory itself is called concurrently (wrap in a safe provider to
    // serialize a factory with mutable state).
    @usableFromInline let factory: () throws -> Service

    init(factory: @escaping () throws -> Service) {
        self.factory = factory
    }

    @inlinable
    func get() throws(ServiceObtainError) -> Service {
        try ObtainStack.withEntered(ObjectIdentifier(self), service: Service.self) {
            () throws(ServiceObtainError) -> Service in
            try ServiceMaking.make(Service.self, factory)
        }
    }
}
