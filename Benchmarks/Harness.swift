/// How long and how often each body is timed.
struct HarnessSettings {
    /// Target wall time of one round.
    let roundNanoseconds: UInt64
    /// Rounds run and thrown away before measuring (after the calibration).
    let warmupRounds: Int
    /// Measured rounds; the median and the minimum are taken over them.
    let rounds: Int

    static let full = HarnessSettings(roundNanoseconds: 8_000_000, warmupRounds: 3, rounds: 81)
    static let quick = HarnessSettings(roundNanoseconds: 1_000_000, warmupRounds: 1, rounds: 5)
}

/// Nanoseconds per operation over the measured rounds of one body.
struct Timing {
    let median: Double
    let min: Double

    init(samples: [Double]) {
        median = samples.median
        min = samples.min() ?? .nan
    }
}

extension Array where Element == Double {
    /// The middle value (the mean of the two middle ones for an even count).
    var median: Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// The measured subject and baseline of one case.
struct CaseResult {
    let benchmark: BenchmarkCase
    let subject: Timing
    let baseline: Timing
    /// How many times the hand-written work the case costs: the median, over the rounds, of
    /// the case's time over its baseline's time in the same pair of back-to-back rounds. Pairing
    /// cancels out a machine that is busier in some rounds than in others.
    let ratio: Double
    /// How many nanoseconds per operation the case costs over its baseline: the median of the
    /// differences of the same pairs of rounds.
    let extra: Double

    /// Whether the case is within its target (`nil` when it has none).
    var meetsTarget: Bool? { benchmark.target.map { $0.allows(ratio: ratio, extra: extra) } }
}

/// Times the cases: each body is calibrated to `roundNanoseconds`, warmed up, then the rounds
/// of the subject and of its baseline alternate, so both see the same machine state.
/// Cases whose work stays on the measuring thread are timed in its CPU time, the others in wall time.
struct Harness {
    let settings: HarnessSettings

    func run(_ benchmark: BenchmarkCase) -> CaseResult {
        let bodies = benchmark.preparedAndProbed()
        let operations = benchmark.operationsPerIteration
        let clock: BenchmarkClock = benchmark.runsOnOtherThreads ? .wall : .threadCPU
        let subject = Timed(body: bodies.subject, setUp: bodies.setUpSubject)
        let baseline = Timed(body: bodies.baseline, setUp: bodies.setUpBaseline)
        let subjectIterations = calibrate(subject, clock)
        let baselineIterations = calibrate(baseline, clock)
        for _ in 0..<settings.warmupRounds {
            _ = time(subject, subjectIterations, clock)
            _ = time(baseline, baselineIterations, clock)
        }
        var subjectSamples: [Double] = []
        var baselineSamples: [Double] = []
        subjectSamples.reserveCapacity(settings.rounds)
        baselineSamples.reserveCapacity(settings.rounds)
        for round in 0..<settings.rounds {
            // Alternate which goes first, so neither always runs on a freshly idle core.
            if round % 2 == 0 {
                subjectSamples.append(perOperation(subject, subjectIterations, operations, clock))
                baselineSamples.append(perOperation(baseline, baselineIterations, operations, clock))
            } else {
                baselineSamples.append(perOperation(baseline, baselineIterations, operations, clock))
                subjectSamples.append(perOperation(subject, subjectIterations, operations, clock))
            }
        }
        bodies.tearDown()
        return CaseResult(
            benchmark: benchmark,
            subject: Timing(samples: subjectSamples),
            baseline: Timing(samples: baselineSamples),
            ratio: zip(subjectSamples, baselineSamples).map { $0 / $1 }.median,
            extra: zip(subjectSamples, baselineSamples).map { $0 - $1 }.median
        )
    }

    /// The iteration count that makes one call of `body` last about one round.
    ///
    /// A thread woken late, or the machine busy for a moment, can make a call of a few iterations
    /// look as long as a round; the case was then timed with those few iterations, mostly the
    /// cost of starting its task (`core/async lazy get (made)` measured 24 µs a get in a quick
    /// run, 50 ns in the next, and 47 µs in a CI run whose counts were each timed twice). So each
    /// count is timed twice and the shorter time taken, and a count that reaches the floor is
    /// kept only when twice as many iterations take clearly longer, as iterations that cost the
    /// time do.
    private func calibrate(_ body: Timed, _ clock: BenchmarkClock) -> Int {
        let floor = max(settings.roundNanoseconds / 4, 1)
        var iterations = 1
        while true {
            let elapsed = shortest(body, iterations, clock)
            if elapsed >= floor || iterations >= 1 << 40 {
                if iterations < 1 << 40, shortest(body, iterations * 2, clock) < elapsed + elapsed / 2 {
                    iterations *= 2  // the time was not the iterations'
                    continue
                }
                let scaled = Double(iterations) * Double(settings.roundNanoseconds) / Double(max(elapsed, 1))
                return max(1, Int(scaled))
            }
            // Grow fast while far from the floor, carefully when close.
            iterations *= elapsed < floor / 64 ? 16 : 2
        }
    }

    /// A body and its untimed set-up.
    private struct Timed {
        let body: BenchmarkBody
        let setUp: (Int) -> Void
    }

    /// The shorter of two timings of `iterations`.
    private func shortest(_ timed: Timed, _ iterations: Int, _ clock: BenchmarkClock) -> UInt64 {
        min(time(timed, iterations, clock), time(timed, iterations, clock))
    }

    private func time(_ timed: Timed, _ iterations: Int, _ clock: BenchmarkClock) -> UInt64 {
        timed.setUp(iterations)
        let start = clock.now()
        timed.body(iterations)
        return clock.now() &- start
    }

    private func perOperation(
        _ body: Timed,
        _ iterations: Int,
        _ operations: Int,
        _ clock: BenchmarkClock
    ) -> Double {
        Double(time(body, iterations, clock)) / Double(iterations * operations)
    }
}
