/// The one way every kept singleton (lazy, weak, session) is made: at most once at a time,
/// under the cell's lock, and never by a thread that is already making it (a cycle).
@usableFromInline
enum SingletonCreation {
    /// Returns the kept service, or makes one with `create` when `cached` has none.
    ///
    /// `cached` and `create` run with `lock` held. The fast path only *tries* the lock: when it
    /// is busy (another thread is making the service, or this thread is, which is a cycle) the
    /// get takes the slow path, whose cycle check comes before it waits for the lock. So a
    /// factory that asks for its own service fails instead of deadlocking.
    @usableFromInline
    static func obtain<Service>(
        id: ObjectIdentifier,
        lock: ServiceLock,
        cached: () throws(ServiceObtainError) -> Service?,
        create: () throws(ServiceObtainError) -> Service
    ) throws(ServiceObtainError) -> Service {
        if lock.tryLock() {
            let service: Service?
            do {
                service = try cached()
            } catch {
                lock.unlock()
                throw error
            }
            lock.unlock()
            if let service { return service }
        }
        return try makeLocked(id: id, lock: lock, cached: cached, create: create)
    }

    /// The slow half of `obtain`: enter the cycle check, take the lock, look again, make.
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
