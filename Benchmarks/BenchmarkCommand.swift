import Foundation

/// Parses the command line, runs the selected cases and prints the results.
enum BenchmarkCommand {
    static func run(arguments: [String], cases: [BenchmarkCase]) -> Int32 {
        let options: Options
        switch Options.parse(arguments) {
        case .success(let parsed):
            options = parsed
        case .failure(let error):
            if let message = error.message {
                printError("error: \(message)\n\n\(Options.usage)")
                return 2
            }
            print(Options.usage)
            return 0
        }
        let names = cases.map(\.name)
        precondition(Set(names).count == names.count, "two benchmark cases share a name")
        for benchmark in cases {
            if let problem = Report.widthProblem(caseName: benchmark.name, baselineName: benchmark.baselineName) {
                preconditionFailure("\(problem), so the table would not fit in 100 columns")
            }
        }

        let selected = cases.filter { benchmark in
            guard let filter = options.filter else { return true }
            return benchmark.name.lowercased().contains(filter.lowercased())
        }
        guard !selected.isEmpty else {
            printError("error: no case name contains '\(options.filter ?? "")'; cases:\n  "
                + names.joined(separator: "\n  "))
            return 1
        }

        let settings = options.quick ? HarnessSettings.quick : .full
        let harness = Harness(settings: settings)
        if !options.json {
            print(Report.header(settings: settings, quick: options.quick))
        }
        var results: [CaseResult] = []
        for benchmark in selected {
            let result = harness.run(benchmark)
            results.append(result)
            if !options.json {
                print(Report.row(result))
                fflush(nil)
            }
        }
        print(options.json ? Report.json(results) : Report.footer(results))
        return 0
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
