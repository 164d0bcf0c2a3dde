/// Pauses that double from a millisecond up to `longest`: a wait that looks again after each
/// looks soon at first, then less and less often. A close's watchdog (`Closing.watch()`) and a
/// shutdown's wait for the makings it found (`RunningMaking.end(of:within:)`) wait so.
struct DoublingPause {
    private var length = Duration.milliseconds(1)
    let longest: Duration

    init(longest: Duration) {
        self.longest = longest
    }

    /// Sleeps for this pause, or for `limit` when that is shorter, and doubles the next one.
    /// Throws `CancellationError` when the task is cancelled.
    mutating func sleep(atMost limit: Duration) async throws {
        try await Task.sleep(for: min(length, limit))
        length = min(length * 2, longest)
    }
}
