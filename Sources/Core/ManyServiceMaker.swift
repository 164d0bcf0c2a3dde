#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a `many` service: a new one on every get.
@usableFromInline
final class ManyServiceMaker<Service>: @unchecked Sendable {
    // Immutable; the factory itself is called concurrently (wrap in a safe provider to
    // serialize a factory with mutable state).
    @usableFromInline let factory: () throws -> Service
    /// What the cycle check tracks instead of this maker: the params maker whose params it binds.
    @usableFromInline let boundID: ObjectIdentifier?
    /// `obtainStackKey`, kept here so a get need not check that the global is initialized.
    @usableFromInline let stackKey = obtainStackKey

    init(factory: @escaping () throws -> Service) {
        self.factory = factory
        self.boundID = nil
    }

    @usableFromInline
    init(id: ObjectIdentifier, factory: @escaping () throws -> Service) {
        self.factory = factory
        self.boundID = id
    }

    @inlinable @inline(__always)
    func get() throws(ServiceObtainError) -> Service {
        try ObtainStack.withEntered(boundID ?? ObjectIdentifier(self), service: Service.self, key: stackKey) {
            () throws(ServiceObtainError) -> Service in
            try ServiceMaking.make(Service.self, factory)
        }
    }
}
