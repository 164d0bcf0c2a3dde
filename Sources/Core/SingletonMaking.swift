/// Marks a making of a singleton (or a session switch) in progress: the thread doing it holds
/// `gate` until it is over, and another get of the same service waits by taking the gate.
@usableFromInline
final class Making: Sendable {
    @usableFromInline let gate = Locked(())

    @inlinable
    init() {}
}

/// What a get of a kept singleton does next, decided under its cell's lock.
@usableFromInline
enum MakingStep<Service, Input> {
    /// The service is there.
    case found(Service)
    /// It cannot be had now.
    case failed(ServiceObtainError)
    /// Another making or switch is in progress: wait for its gate, then look again.
    case wait(Making)
    /// This get makes the service from `Input`: its `Making` is now the cell's mark.
    case make(Input)
}

/// The one way `lazy`, `weak` and session services are made: at most once at a time, with no
/// lock held while the factory runs, and never by a thread that is already making the same
/// service (a dependency cycle).
@usableFromInline
enum SingletonMaking {
    /// Enters the cycle check, then loops: `step` looks at the cell under its lock and either
    /// finds the service, fails, says to wait for the making in progress, or marks the cell with
    /// this get's `Making` (whose gate this get holds) and hands over what `make` needs;
    /// `make` runs the factory with no lock held; `finish` publishes the result under the
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
                let outcome: MakingStep<Service, Never> = making.gate.withLock { _ in
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
                case .wait(let other): other.gate.withLock { _ in }
                }
            }
        }
    }
}
