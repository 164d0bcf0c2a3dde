/// Marks a making of a singleton (or a session switch) in progress: the thread doing it holds
/// `makingLock` from the moment it marks the provider until the service is published, its
/// factory included, and another get of the same service waits by taking that lock. It is the
/// one lock of the package held while user code runs, and only gets of that same service wait on
/// it.
///
/// A thread waits for a making only through `wait(_:)`, which keeps a graph of who waits for
/// whom: a wait that would close a loop (thread 1 makes A and waits for B, which thread 2 makes
/// and waits for A) fails as a dependency cycle instead of deadlocking.
@usableFromInline
final class Making: Sendable {
    @usableFromInline let makingLock = Locked(())
    /// The thread that holds `makingLock`: the one that made this mark.
    @usableFromInline let owner = ThreadContext.currentThread

    @inlinable
    init() {}

    /// The making each waiting thread waits for, by thread.
    private static let waits = Locked<[Int: Making]>([:])

    /// Waits until this making is over.
    ///
    /// - Throws: a dependency cycle for `Service` when its owner waits, directly or through
    ///   other threads, for a making of this thread: waiting would never end.
    @usableFromInline
    func wait<Service>(_ service: Service.Type) throws(ServiceObtainError) {
        let thread = ThreadContext.currentThread
        let closesLoop: Bool = Self.waits.withLock { waits in
            var owner = self.owner
            while owner != thread {
                guard let next = waits[owner] else {
                    waits[thread] = self
                    return false
                }
                owner = next.owner
            }
            return true
        }
        if closesLoop {
            throw ThreadContext.cycleError(Service.self)
        }
        makingLock.withLock { _ in }
        Self.waits.withLock { $0[thread] = nil }
    }
}

/// What a get of a kept singleton does next, decided under its cell's lock.
@usableFromInline
enum MakingStep<Service, Input> {
    /// The service is there.
    case found(Service)
    /// It cannot be had now.
    case failed(ServiceObtainError)
    /// Another making or switch is in progress: wait for its `makingLock`, then look again.
    case wait(Making)
    /// This get makes the service from `Input`: its `Making` is now the cell's mark.
    case make(Input)
}

/// The one way `lazy`, `weak` and session services are made: at most once at a time, with only
/// the making's own `makingLock` held while the factory runs (no provider's state lock, which
/// every get of that provider takes), and never by a thread that is already making the same
/// service (a dependency cycle).
@usableFromInline
enum SingletonMaking {
    /// Enters the cycle check, then loops: `step` looks at the cell under its lock and either
    /// finds the service, fails, says to wait for the making in progress, or marks the cell with
    /// this get's `Making` (whose `makingLock` this get holds) and hands over what `make`
    /// needs; `make` runs the factory with no state lock held; `finish` publishes the result under the
    /// cell's lock (or not, when an update overtook the making) and clears the mark.
    @inlinable
    static func obtain<Service, Input>(
        id: ObjectIdentifier,
        step: (Making) -> MakingStep<Service, Input>,
        make: (Input) -> Result<Service, ServiceObtainError>,
        finish: (Making, Result<Service, ServiceObtainError>) -> Result<Service, ServiceObtainError>
    ) throws(ServiceObtainError) -> Service {
        try ThreadContext.withEntered(id, service: Service.self) { () throws(ServiceObtainError) -> Service in
            while true {
                let making = Making()
                let outcome: MakingStep<Service, Never> = making.makingLock.withLock { _ in
                    switch step(making) {
                    case .found(let service): return .found(service)
                    case .failed(let error): return .failed(error)
                    case .wait(let other): return .wait(other)
                    case .make(let input):
                        switch finish(making, make(input)) {
                        case .success(let service): return .found(service)
                        case .failure(let error): return .failed(error)
                        }
                    }
                }
                switch outcome {
                case .found(let service): return service
                case .failed(let error): throw error
                case .wait(let other): try other.wait(Service.self)
                }
            }
        }
    }
}
