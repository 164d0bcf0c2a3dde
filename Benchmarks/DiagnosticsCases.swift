import ServiceContainerKit

/// The cases of the diagnostics: what a validation costs against the walk it makes, and what a
/// running `ServiceGraphRecorder` costs as providers come and go.
enum DiagnosticsCases {
    static var all: [BenchmarkCase] { [validation, releaseWhileRecording] }

    static let validatedCount = 1_000

    /// A container of made `lazy` providers, as a start-up check finds it.
    struct Validated {
        let providers: [ServiceProvider<BenchService>]
    }

    /// Validating a container of 1,000 made `lazy` providers, against the walk and the gets
    /// written by hand: the container's property read through a `Mirror`, cast to its type, and
    /// each provider got. The validator also records each get, names each provider by its path
    /// and builds the report and its graph; drawing the graph is not part of it (a start-up
    /// check that passes never draws it: naming its types at every validation took 2.5 times as
    /// long).
    static var validation: BenchmarkCase {
        BenchmarkCase(
            "diagnostics/validate, \(validatedCount.formatted) lazy providers",
            baseline: "Mirror walk + \(validatedCount.formatted) gets by hand",
            target: nil,
            // A guard, not a goal: most of a validation is what the walk does not (recording each
            // get, a path per provider, the report and the graph); 51.7x when it was added.
            instructions: .ratio(60),
            countedIterations: (small: 1, large: 3)
        ) {
            let container = Validated(
                providers: (0..<validatedCount).map { number in
                    ServiceProvider(mode: .lazy) { BenchService(number: number) }
                }
            )
            for provider in container.providers {
                _ = provider.getServiceAsOptional()
            }
            return .init(
                subject: { iterations in
                    for _ in 0..<iterations {
                        blackHole(ServiceValidator.validate(container))
                    }
                },
                baseline: { iterations in
                    for _ in 0..<iterations {
                        for child in Mirror(reflecting: container).children {
                            guard let providers = child.value as? [ServiceProvider<BenchService>] else { continue }
                            for provider in providers {
                                blackHole(provider.getServiceAsOptional())
                            }
                        }
                    }
                },
                probe: {
                    let report = ServiceValidator.validate(container)
                    return report.isValid && report.made.count == validatedCount
                        ? nil : "the validation made \(report.made.count) providers: \(report)"
                }
            )
        }
    }

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
