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
    }

    /// Unique name, `product/what is measured`; `--filter` matches it.
    let name: String
    /// What the baseline does, shown next to its time.
    let baselineName: String
    /// The highest acceptable ratio of subject to baseline, or `nil` when the case only informs.
    let target: Double?
    /// How many operations one iteration of a body performs (2 when two threads each do one).
    let operationsPerIteration: Int
    /// Builds the state (providers, services) and the bodies that use it.
    let prepare: () -> Bodies

    init(
        _ name: String,
        baseline baselineName: String,
        target: Double?,
        operationsPerIteration: Int = 1,
        prepare: @escaping () -> Bodies
    ) {
        self.name = name
        self.baselineName = baselineName
        self.target = target
        self.operationsPerIteration = operationsPerIteration
        self.prepare = prepare
    }
}
