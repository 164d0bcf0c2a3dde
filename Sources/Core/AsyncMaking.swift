/// One creation of an async singleton (`atOne`, `lazy`, `weak`) in flight: a task of its own
/// runs the factory, and every get that asks meanwhile suspends until the result is there. No
/// thread is blocked: a waiter is a continuation kept in `state`, resumed by the creation.
///
/// The creation does not belong to any waiter, so cancelling the task that started it (or any
/// other waiter) does not stop it: the other waiters get its result. A waiter whose task is
/// cancelled stops waiting at once and gets a `ServiceObtainError` whose `error` is a
/// `CancellationError`.
final class AsyncMaking<Service: Sendable>: Sendable {
    typealias Outcome = Result<Service, ServiceObtainError>

    private let state = Locked(State())

    private struct State {
        /// The result, once the creation is over.
        var outcome: Outcome?
        /// The waiting gets, by the number each got.
        var waiters: [UInt64: CheckedContinuation<Outcome, Never>] = [:]
        /// Waiters whose task was cancelled before they were kept in `waiters`.
        var cancelled: Set<UInt64> = []
        var lastWaiter: UInt64 = 0
    }

    /// The result, when the creation is over.
    var outcome: Outcome? {
        state.withLock { $0.outcome }
    }

    /// Starts the creation in a task of its own, with `context` (the starter's) plus `provider`
    /// being obtained by this making. `make` runs the factory; `finish` hands the result to the
    /// provider's source (under its lock) before any waiter is resumed, so that a waiter that
    /// gets again finds the service.
    func start(
        for provider: ObjectIdentifier,
        in context: TaskContext,
        make: @escaping @Sendable () async -> Outcome,
        finish: @escaping @Sendable (Outcome) -> Void
    ) {
        let inner = context.entering(provider, making: ObjectIdentifier(self))
        Task {
            let outcome = await TaskContext.with(inner, make)
            finish(outcome)
            self.complete(with: outcome)
        }
    }

    /// Keeps `outcome` and resumes every waiter with it.
    private func complete(with outcome: Outcome) {
        let waiters = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters {
            waiter.resume(returning: outcome)
        }
    }

    /// The result of the creation, awaited by a get whose task has `context`; a cancelled task
    /// gets `cancelled` at once, and a wait that would close a loop of makings waiting for each
    /// other gets the dependency-cycle error.
    func wait(in context: TaskContext) async -> Outcome {
        if let outcome {
            return outcome
        }
        guard let from = context.making else {
            return await suspend()
        }
        let to = ObjectIdentifier(self)
        guard AsyncWaits.begin(from: from, to: to) else {
            return .failure(ThreadContext.cycleError(Service.self))
        }
        defer { AsyncWaits.end(from: from, to: to) }
        return await suspend()
    }

    /// Suspends until the outcome is there or the task is cancelled.
    private func suspend() async -> Outcome {
        let waiter = state.withLock { state in
            state.lastWaiter &+= 1
            return state.lastWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Outcome? = state.withLock { state in
                    if let outcome = state.outcome {
                        return outcome
                    }
                    if state.cancelled.remove(waiter) != nil {
                        return .failure(Self.cancelled)
                    }
                    state.waiters[waiter] = continuation
                    return nil
                }
                if let now {
                    continuation.resume(returning: now)
                }
            }
        } onCancel: {
            let continuation = state.withLock { state in
                let continuation = state.waiters.removeValue(forKey: waiter)
                if continuation == nil, state.outcome == nil {
                    state.cancelled.insert(waiter)
                }
                return continuation
            }
            continuation?.resume(returning: .failure(Self.cancelled))
        }
    }

    /// What a cancelled waiter gets: the error is a `CancellationError`. It is not a failure of
    /// the factory, so it is not logged.
    static var cancelled: ServiceObtainError {
        ServiceObtainError(service: Service.self, error: CancellationError())
    }
}

/// What a get of an async singleton does next, decided under its source's lock.
enum AsyncMakingStep<Service: Sendable> {
    /// The service is there.
    case found(Service)
    /// A making is in progress: await it.
    case wait(AsyncMaking<Service>)
    /// This get starts `making` (now the source's mark) with `factory`.
    case start(AsyncMaking<Service>, @Sendable () async throws -> Service)
    /// There is no service, and the task is cancelled: it neither waits nor starts a making.
    case cancelled
}

extension AsyncMaking {
    /// The one way `lazy` and `weak` async services are obtained: checks for a cycle, then
    /// `step` looks at the source under its lock, given whether the task is cancelled, and
    /// either finds the service, says which making to await, or marks the source with a new
    /// making that this get starts; `finish` hands the making's result to the source.
    static func obtain(
        id: ObjectIdentifier,
        step: (_ isCancelled: Bool) -> AsyncMakingStep<Service>,
        finish: @escaping @Sendable (Outcome) -> Void
    ) async throws(ServiceObtainError) -> Service {
        let context = TaskContext.current
        if let cycle = context.cycle(at: id, Service.self) {
            throw cycle
        }
        switch step(Task.isCancelled) {
        case .found(let service):
            return service
        case .cancelled:
            throw cancelled
        case .wait(let making):
            return try await making.wait(in: context).get()
        case .start(let making, let factory):
            making.start(
                for: id,
                in: context,
                make: { await ServiceMaking.asyncResult(Service.self, factory) },
                finish: finish
            )
            return try await making.wait(in: context).get()
        }
    }
}
