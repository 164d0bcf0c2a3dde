import ServiceContainerKit

/// The cases of the diagnostics: what a running `ServiceGraphRecorder` costs as providers come
/// and go.
enum DiagnosticsCases {
    static var all: [BenchmarkCase] { [releaseWhileRecording] }

    static let recordedCount = 2_000
    static let recordedRounds = 10

    /// Making, getting once and releasing 2,000 providers while one recorder runs, against ten
    /// recorders of 200 each: the release of each provider ends its identity's tie to what the
    /// recorder saw, at a cost that must not grow with how much it saw (it renamed the identity
    /// through the whole log: a recorder left running while a server made containers per
    /// request slowed down with every one).
    static var releaseWhileRecording: BenchmarkCase {
        .growth(
            "diagnostics/recorder release",
            count: recordedCount,
            rounds: recordedRounds,
            baseline: "\(recordedRounds) recorders of \((recordedCount / recordedRounds).formatted) each",
            probe: {
                let recorder = ServiceGraphRecorder()
                let provider = ServiceProvider<BenchService>(mode: .lazy) { BenchService(number: 1) }
                _ = provider.getServiceAsOptional()
                recorder.stop()
                let nodes = recorder.graph(of: provider).nodes.count
                return nodes == 1 ? nil : "the recorder saw \(nodes) providers, not 1"
            },
            run: recordAndRelease
        )
    }

    /// Makes `count` providers while a recorder runs, gets each once and releases it.
    @inline(never)
    static func recordAndRelease(_ count: Int) {
        let recorder = ServiceGraphRecorder()
        for number in 0..<count {
            let provider = ServiceProvider<BenchService>(mode: .lazy) { BenchService(number: number) }
            blackHole(provider.getServiceAsOptional())
        }
        recorder.stop()
    }
}
