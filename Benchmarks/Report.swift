import Foundation

/// Prints results as an aligned table (streamed case by case) or as JSON.
///
/// Every line of the table fits in 100 columns: each case takes two lines, the case with its
/// ratio and target, then, indented, the baseline it was compared with.
enum Report {
    static let legend = """
        ratio  = case time / baseline time, the median over back-to-back rounds of this run
                 (1.00x = costs what the same work written by hand costs; lower is better);
                 +N ns for a case whose target is a surplus: case time - baseline time, the
                 median over the same pairs of rounds
        target = the highest ratio (or surplus) accepted, then "met" or "MISSED" for this run;
                 "- info" marks a case without a target: it shows what something costs (another
                 lock kind, two threads, a session switch, a string key), neither met nor missed
        """

    private static let columns: [(title: String, width: Int, leftAligned: Bool)] = [
        ("case, and below it the same work by hand", nameWidth, true), ("median", 9, false),
        ("min", 9, false), ("ratio", 7, false), ("target", 8, false), ("", 6, true),
    ]

    /// The width of the name column: a case name, or two spaces and a baseline name.
    static let nameWidth = 46

    /// Why `name` (a case or baseline name) would break the table's columns, or `nil`.
    static func widthProblem(caseName name: String, baselineName: String) -> String? {
        if name.count > nameWidth {
            return "case name '\(name)' is longer than \(nameWidth) characters"
        }
        if baselineName.count + 2 > nameWidth {
            return "baseline name '\(baselineName)' is longer than \(nameWidth - 2) characters"
        }
        return nil
    }

    static func header(settings: HarnessSettings, quick: Bool) -> String {
        let info = ProcessInfo.processInfo
        let date = ISO8601DateFormatter().string(from: Date())
        let mode = quick ? "quick (rough numbers, for CI)" : "full"
        let roundMilliseconds = Double(settings.roundNanoseconds) / 1_000_000
        var lines = [
            "ServiceContainerKitBenchmarks, \(mode) run, \(date)",
            "machine: \(info.activeProcessorCount) cores, \(architecture), \(info.operatingSystemVersionString)",
            "each body: ~\(format(roundMilliseconds)) ms per round, \(settings.warmupRounds) warm-up round(s), "
                + "\(settings.rounds) measured rounds, case and baseline alternating",
            "times per operation: thread CPU time; wall time for the 2-thread and async cases",
            legend,
            "",
        ]
        lines.append(row(columns.map(\.title)))
        lines.append(String(repeating: "-", count: tableWidth))
        return lines.joined(separator: "\n")
    }

    /// The two lines of one case: the case, then its baseline.
    static func row(_ result: CaseResult) -> String {
        let verdict: String
        switch result.meetsTarget {
        case .some(true): verdict = "met"
        case .some(false): verdict = "MISSED"
        case .none: verdict = "info"
        }
        let caseLine = row([
            result.benchmark.name, duration(result.subject.median), duration(result.subject.min),
            comparison(result), result.benchmark.target?.description ?? "-", verdict,
        ])
        let baselineLine = row([
            "  " + result.benchmark.baselineName, duration(result.baseline.median), duration(result.baseline.min),
        ])
        return caseLine + "\n" + baselineLine
    }

    /// The ratio, or, for a case whose target is a surplus, the surplus (`+48.2ns`, `+17.2us`).
    private static func comparison(_ result: CaseResult) -> String {
        if case .extraNanoseconds = result.benchmark.target {
            let extra = abs(result.extra)
            let amount = extra >= 10_000 ? format(extra / 1000) + "us" : format(extra) + "ns"
            return (result.extra < 0 ? "-" : "+") + amount
        }
        return format(result.ratio) + "x"
    }

    private static var tableWidth: Int {
        columns.reduce(0) { $0 + $1.width } + columns.count - 1
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
                "\"extra_ns\": \(number(result.extra))",
                "\"target\": \(ratioTarget(result).map(number) ?? "null")",
                "\"target_extra_ns\": \(extraTarget(result).map(number) ?? "null")",
                "\"met\": \(result.meetsTarget.map { $0 ? "true" : "false" } ?? "null")",
            ]
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]"
    }

    private static func ratioTarget(_ result: CaseResult) -> Double? {
        if case .ratio(let ratio) = result.benchmark.target { return ratio }
        return nil
    }

    private static func extraTarget(_ result: CaseResult) -> Double? {
        if case .extraNanoseconds(let extra) = result.benchmark.target { return extra }
        return nil
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

    static func format(_ value: Double) -> String {
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
