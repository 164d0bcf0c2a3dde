extension TaskLocal {
    /// Runs `body` with `value` bound to this task-local value, on `isolation` (the caller's
    /// actor; `nil`: none) from start to end, and returns what it returns.
    ///
    /// `withValue(_:operation:isolation:)` does not do it by itself when it is called from a
    /// `nonisolated(nonsending)` function: an operation written there is of no isolation, so
    /// that it, and a `nonisolated(nonsending)` body it calls, run on the global executor, away
    /// from the caller's actor, from the start or from their first suspension. Written in a
    /// function isolated to `isolation`, and capturing it, the operation is isolated to that
    /// actor, and `body` runs on it throughout. The entry points that take a body of the
    /// user's (`ServiceScope.run(_:)`, `withIsolatedInjectRegistries`, and an async `many` get,
    /// whose body calls the user's factory) bind their values here, `#isolation` or their own
    /// `isolation` parameter given as `isolation`.
    package func withValue<R, E: Error>(
        _ value: Value,
        on isolation: isolated (any Actor)?,
        _ body: nonisolated(nonsending) () async throws(E) -> R
    ) async throws(E) -> R {
        let result: Result<R, E> = await withValue(
            value,
            operation: {
                _ = isolation  // captured: the operation is isolated to it
                do throws(E) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            },
            isolation: isolation
        )
        return try result.get()
    }
}
