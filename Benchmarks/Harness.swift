/// How long and how often each body is timed.
struct HarnessSettings {
    /// Target wall time of one round.
    let roundNanoseconds: UInt64
    /// Rounds run and thrown away before measuring (after the calibration).
    let warmupRounds: Int
    /// Measured rounds; the median and the minimum are taken over them.
    let rounds: Int

    static let full = HarnessSettings(roundNanoseconds: 10_000_000, warmupRounds: 3, rounds: 31)
    static let quick = HarnessSettings(roundNanoseconds: 1_000_000, warmupRounds: 1, rounds: 5)
}

/// Nanoseconds per operation over the measured rounds of one body.
struct Timing {
    let median: Double
    let min: Double

    init(samples: [Double]) {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted[0]
    }
}

/// The measured subject and baseline of one case.
struct CaseResult {
    let benchmark: BenchmarkCase
    let subject: Timing
    let baseline: Timing

    /// Subject median over baseline median: how many times the hand-written work it costs.
    var ratio: Double { subject.median / baseline.median }

    /// Whether the ratio is within the case's target (`nil` when it has none).
    var meetsTarget: Bool? { benchmark.target.map { ratio <= $0 } }
}

/// Times the cases: each body is calibrated to `roundNanoseconds`, warmed up, then the rounds
/// of the subject and of its baseline alternate, so both see the same machine state.
struct Harness {
    let settings: HarnessSettings

    func run(_ benchmark: BenchmarkCase) -> CaseResult {
        let bodies = benchmark.prepare()
        let operations = benchmark.operationsPerIteration
        let subjectIterations = calibrate(bodies.subject)
        let baselineIterations = calibrate(bodies.baseline)
        for _ in 0..<settings.warmupRounds {
            _ = time(bodies.subject, subjectIterations)
            _ = time(bodies.baseline, baselineIterations)
        }
        var subjectSamples: [Double] = []
        var baselineSamples: [Double] = []
        subjectSamples.reserveCapacity(settings.rounds)
        baselineSamples.reserveCapacity(settings.rounds)
        for round in 0..<settings.rounds {
            // Alternate which goes first, so neither always runs on a freshly idle core.
            if round % 2 == 0 {
                subjectSamples.append(perOperation(bodies.subject, subjectIterations, operations))
                baselineSamples.append(perOperation(bodies.baseline, baselineIterations, operations))
            } else {
                baselineSamples.append(perOperation(bodies.baseline, baselineIterations, operations))
                subjectSamples.append(perOperation(bodies.subject, subjectIterations, operations))
            }
        }
        bodies.tearDown()
        return CaseResult(
            benchmark: benchmark,
            subject: Timing(samples: subjectSamples),
            baseline: Timing(samples: baselineSamples)
        )
    }

    /// The iteration count that makes one call of `body` last about one round.
    private func calibrate(_ body: BenchmarkBody) -> Int {
        let floor = max(settings.roundNanoseconds / 4, 1)
        var iterations = 1
        while true {
            let elapsed = time(body, iterations)
            if elapsed >= floor || iterations >= 1 << 40 {
                let scaled = Double(iterations) * Double(settings.roundNanoseconds) / Double(max(elapsed, 1))
                return max(1, Int(scaled))
            }
            // Grow fast while far from the floor, carefully when close.
            iterations *= elapsed < floor / 64 ? 16 : 2
        }
    }

    private func time(_ body: BenchmarkBody, _ iterations: Int) -> UInt64 {
        let start = monotonicNanoseconds()
        body(iterations)
        return monotonicNanoseconds() &- start
    }

    private func perOperation(_ body: BenchmarkBody, _ iterations: Int, _ operations: Int) -> Double {
        Double(time(body, iterations)) / Double(iterations * operations)
    }
}
