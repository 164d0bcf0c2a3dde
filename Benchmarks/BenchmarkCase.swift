import Foundation

/// The measured operation run `iterations` times in a loop of its own.
typealias BenchmarkBody = (_ iterations: Int) -> Void

/// A measured operation and the hand-written baseline that does the same work, both built by
/// `prepare` when (and only when) the case is selected to run.
struct BenchmarkCase {
    /// What the pair of bodies measure, built on demand.
    struct Bodies {
        /// The library call being measured.
        let subject: BenchmarkBody
        /// The same work written by hand.
        let baseline: BenchmarkBody
        /// Run once the case is measured (ends helper threads).
        var tearDown: () -> Void = {}
        /// Run, untimed, before each timed call of `subject` with the same iteration count:
        /// builds what the iterations use up (objects to release, say).
        var setUpSubject: (_ iterations: Int) -> Void = { _ in }
        /// The same for `baseline`.
        var setUpBaseline: (_ iterations: Int) -> Void = { _ in }
        /// Checks, once before the case is measured, that the subject gives what it must (the
        /// release build is what is measured, and what users ship): what differs, or `nil`.
        var probe: () -> String? = { nil }
    }

    /// The bodies of this case, after its probe passed; a failed probe ends the program with
    /// status 1, naming the case, before anything is measured.
    func preparedAndProbed() -> Bodies {
        let bodies = prepare()
        if let failure = bodies.probe() {
            FileHandle.standardError.write(Data("error: the probe of \(name) failed: \(failure)\n".utf8))
            exit(1)
        }
        return bodies
    }

    /// Unique name, `product/what is measured`; `--filter` matches it.
    let name: String
    /// What the baseline does, shown next to its time.
    let baselineName: String
    /// The most the subject may cost against its baseline, or `nil` when the case only informs.
    let target: TimeTarget?
    /// How many operations one iteration of a body performs (2 when two threads each do one).
    let operationsPerIteration: Int
    /// Whether the bodies do their work on other threads than the measuring one (two threads,
    /// or tasks that the measuring thread waits for): such a case is timed in wall time.
    let runsOnOtherThreads: Bool
    /// The most instructions an operation may execute, against its baseline, when counted under
    /// callgrind (`--instructions`); `nil` for cases that are only timed.
    let instructions: InstructionCeiling?
    /// Whether `instructions` is a ceiling not met yet: its count is reported as `open` and does
    /// not fail `--instructions`.
    let instructionsOpen: Bool
    /// The iterations of the two counted calls under callgrind, when a case's operation is too
    /// heavy for `InstructionCount`'s usual 1,000 and 11,000 (a whole container, say).
    let countedIterations: (small: Int, large: Int)
    /// Builds the state (providers, services) and the bodies that use it.
    let prepare: () -> Bodies

    init(
        _ name: String,
        baseline baselineName: String,
        target: TimeTarget?,
        operationsPerIteration: Int = 1,
        runsOnOtherThreads: Bool = false,
        instructions: InstructionCeiling? = nil,
        instructionsOpen: Bool = false,
        countedIterations: (small: Int, large: Int) = (InstructionCount.smallIterations, InstructionCount.largeIterations),
        prepare: @escaping () -> Bodies
    ) {
        self.runsOnOtherThreads = runsOnOtherThreads || operationsPerIteration > 1
        self.name = name
        self.baselineName = baselineName
        self.target = target
        self.operationsPerIteration = operationsPerIteration
        self.instructions = instructions
        self.instructionsOpen = instructionsOpen
        self.countedIterations = countedIterations
        self.prepare = prepare
    }
}

extension BenchmarkCase {
    /// A case of work whose cost per item must not grow with the number of items: `run(count)`
    /// once against `run(count / rounds)` `rounds` times, in instructions within 1.1x (timed
    /// within 1.5x, as more items alive at once may outgrow the processor's caches). One
    /// counted call is a whole `run`, so the counted iterations are 1 and 3.
    static func growth(
        _ name: String,
        count: Int,
        rounds: Int,
        baseline: String,
        tearDown: @escaping () -> Void = {},
        probe: @escaping () -> String? = { nil },
        setUp: @escaping () -> Void = {},
        run: @escaping (_ count: Int) -> Void
    ) -> BenchmarkCase {
        BenchmarkCase(
            "\(name), \(count.formatted) vs \(rounds)x\((count / rounds).formatted)",
            baseline: baseline,
            target: 1.5,
            instructions: .ratio(1.1),
            countedIterations: (small: 1, large: 3)
        ) {
            setUp()
            return .init(
                subject: { iterations in
                    for _ in 0..<iterations { run(count) }
                },
                baseline: { iterations in
                    for _ in 0..<iterations * rounds { run(count / rounds) }
                },
                tearDown: tearDown,
                probe: probe
            )
        }
    }
}

/// The most a case's time per operation may be against its baseline's, in the same run.
///
/// A ratio suits work that the library does in place of the same work by hand: a get against a
/// stored read. An absolute surplus suits work that the library adds on top of the hand-written
/// work and that does not grow with it: what an injected property costs over taking the same
/// service in `init` is a fixed amount per property, whatever the handler costs by itself.
enum TimeTarget: ExpressibleByFloatLiteral, CustomStringConvertible {
    /// At most this many times the baseline's time.
    case ratio(Double)
    /// At most this many nanoseconds more than the baseline's time.
    case extraNanoseconds(Double)

    init(floatLiteral value: Double) {
        self = .ratio(value)
    }

    /// Whether a pair of rounds whose paired ratio and paired difference (ns per operation)
    /// are `ratio` and `extra` is within the target.
    func allows(ratio: Double, extra: Double) -> Bool {
        switch self {
        case .ratio(let most): return ratio <= most
        case .extraNanoseconds(let most): return extra <= most
        }
    }

    /// As the table shows it: `<=1.50x`, `<=+400ns`.
    var description: String {
        switch self {
        case .ratio(let ratio): return "<=" + Report.format(ratio) + "x"
        case .extraNanoseconds(let extra): return "<=+" + Report.format(extra) + "ns"
        }
    }
}

/// The ceiling of a case's instruction count per operation, relative to its baseline's.
enum InstructionCeiling: CustomStringConvertible {
    /// At most this many instructions more than the baseline.
    case extra(Int)
    /// At most this many times the baseline's instructions.
    case ratio(Double)

    func allows(subject: Double, baseline: Double) -> Bool {
        switch self {
        case .extra(let extra): return subject - baseline <= Double(extra)
        case .ratio(let ratio): return subject <= baseline * ratio
        }
    }

    var description: String {
        switch self {
        case .extra(let extra): return "<=+\(extra)"
        case .ratio(let ratio): return "<=\(Report.format(ratio))x"
        }
    }
}
