/// The one way every kept singleton (lazy, weak, session) is made: at most once at a time,
/// under the cell's lock, and never by a thread that is already making it (a cycle).
@usableFromInline
enum SingletonCreation {
    /// Enters the cycle check, takes the lock, looks again with `cached`, and makes the service
    /// with `create` if there is still none.
    ///
    /// A cell's fast path reads its service without this lock (a `lazy` cell with an acquire
    /// load, a weak or session cell under its `ServiceSpinLock`, which it only tries); when
    /// there is no service yet, or the read lock is busy, the get comes here. The cycle check
    /// comes before the wait for the lock, so a factory that asks for its own service (this
    /// thread holds the lock while making it) fails instead of deadlocking.
    @usableFromInline
    static func makeLocked<Service>(
        id: ObjectIdentifier,
        lock: ServiceLock,
        cached: () throws(ServiceObtainError) -> Service?,
        create: () throws(ServiceObtainError) -> Service
    ) throws(ServiceObtainError) -> Service {
        try ObtainStack.withEntered(id, service: Service.self) { () throws(ServiceObtainError) -> Service in
            try lock.withLock { () throws(ServiceObtainError) -> Service in
                if let service = try cached() {
                    return service
                }
                return try create()
            }
        }
    }
}
