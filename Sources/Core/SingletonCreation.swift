/// The one way every kept singleton (lazy, weak, session) is made: at most once at a time,
/// under the cell's lock, and never by a thread that is already making it (a cycle).
@usableFromInline
enum SingletonCreation {
    /// Enters the cycle check, takes the lock, looks again with `cached`, and makes the service
    /// with `create` if there is still none.
    ///
    /// A cell's fast path only *tries* its lock and reads its service; when the lock is busy
    /// (another thread is making the service, or this thread is, which is a cycle) or there is
    /// no service, the get comes here. The cycle check comes before the wait for the lock, so a
    /// factory that asks for its own service fails instead of deadlocking.
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
