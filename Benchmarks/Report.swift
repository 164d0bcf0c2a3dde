import Foundation

/// Prints results as an aligned table (streamed row by row) or as JSON.
enum Report {
    static let legend = """
        ratio = case time / baseline time, median over back-to-back rounds of this run (1.00x = \
        costs what the same work written by hand costs; lower is better); target = highest ratio accepted.
        """

    private static let columns: [(title: String, width: Int, leftAligned: Bool)] = [
        ("case", 40, true), ("median", 9, false), ("min", 9, false),
        ("baseline (same work by hand)", 40, true), ("median", 9, false), ("min", 9, false),
        ("ratio", 7, false), ("target", 7, false), ("", 6, true),
    ]

    static func header(settings: HarnessSettings, quick: Bool) -> String {
        let info = ProcessInfo.processInfo
        let date = ISO8601DateFormatter().string(from: Date())
        let mode = quick ? "quick (rough numbers, for CI)" : "full"
        let roundMilliseconds = Double(settings.roundNanoseconds) / 1_000_000
        var lines = [
            "ServiceContainerKitBenchmarks, \(mode) run, \(date)",
            "machine: \(info.activeProcessorCount) cores, \(architecture), \(info.operatingSystemVersionString)",
            "each body: calibrated to ~\(format(roundMilliseconds)) ms per round, \(settings.warmupRounds) warm-up "
                + "round(s), \(settings.rounds) measured rounds alternating case and baseline",
            "times are per operation: thread CPU time, wall time for the 2-thread cases (counting both threads' operations)",
            legend,
            "",
        ]
        lines.append(row(columns.map(\.title)))
        lines.append(String(repeating: "-", count: columns.reduce(0) { $0 + $1.width } + columns.count - 1))
        return lines.joined(separator: "\n")
    }

    static func row(_ result: CaseResult) -> String {
        let verdict: String
        switch result.meetsTarget {
        case .some(true): verdict = "met"
        case .some(false): verdict = "MISSED"
        case .none: verdict = "info"
        }
        return row([
            result.benchmark.name, duration(result.subject.median), duration(result.subject.min),
            result.benchmark.baselineName, duration(result.baseline.median), duration(result.baseline.min),
            format(result.ratio) + "x", result.benchmark.target.map { "<=" + format($0) + "x" } ?? "-", verdict,
        ])
    }

    static func footer(_ results: [CaseResult]) -> String {
        let targeted = results.filter { $0.benchmark.target != nil }
        let missed = targeted.filter { $0.meetsTarget == false }
        var text = "\n\(results.count) cases; targets met: \(targeted.count - missed.count) of \(targeted.count)"
        if !missed.isEmpty {
            text += "; missed: " + missed.map(\.benchmark.name).joined(separator: ", ")
        }
        return text
    }

    static func json(_ results: [CaseResult]) -> String {
        let objects = results.map { result -> String in
            let fields = [
                "\"name\": \(quoted(result.benchmark.name))",
                "\"ns_median\": \(number(result.subject.median))",
                "\"ns_min\": \(number(result.subject.min))",
                "\"baseline\": \(quoted(result.benchmark.baselineName))",
                "\"baseline_ns_median\": \(number(result.baseline.median))",
                "\"baseline_ns_min\": \(number(result.baseline.min))",
                "\"ratio\": \(number(result.ratio))",
                "\"target\": \(result.benchmark.target.map(number) ?? "null")",
                "\"met\": \(result.meetsTarget.map { $0 ? "true" : "false" } ?? "null")",
            ]
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]"
    }

    private static func row(_ cells: [String]) -> String {
        zip(columns, cells).map { column, cell in
            let padding = String(repeating: " ", count: max(0, column.width - cell.count))
            return column.leftAligned ? cell + padding : padding + cell
        }
        .joined(separator: " ")
        .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }

    /// `12.3 ns`, `4.56 us`: three significant digits, so the column stays narrow.
    private static func duration(_ nanoseconds: Double) -> String {
        nanoseconds >= 10_000 ? format(nanoseconds / 1000) + " us" : format(nanoseconds) + " ns"
    }

    private static func format(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    private static func number(_ value: Double) -> String {
        value.isFinite ? String(format: "%.3f", value) : "null"
    }

    private static func quoted(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "\"" + escaped + "\""
    }

    private static var architecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "arm64"
        #else
        return "other architecture"
        #endif
    }
}
