import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Counts the instructions an operation executes, and those of its baseline, under valgrind's
/// callgrind: unlike times, the counts do not depend on what else the machine is doing, so CI
/// checks them against each case's `InstructionCeiling`.
///
/// `--instructions` runs this program again under callgrind once per case (`--count-case`).
/// That run calls each body twice, with `smallIterations` and `largeIterations`, each call
/// inside a function of its own; the difference of the two calls' inclusive counts, divided by
/// the difference of their iterations, is what one operation costs, without the loop's set-up.
enum InstructionCount {
    static let smallIterations = 1_000
    static let largeIterations = 11_000

    // MARK: - In the counted process

    /// Runs the bodies of `benchmark` in the four counted functions.
    static func runCounted(_ benchmark: BenchmarkCase) {
        let bodies = benchmark.preparedAndProbed()
        let (small, large) = benchmark.countedIterations
        let warmUp = min(64, small)
        // Warm up: lazy services are made, code and caches are touched once.
        bodies.setUpSubject(warmUp)
        bodies.subject(warmUp)
        bodies.setUpBaseline(warmUp)
        bodies.baseline(warmUp)
        bodies.setUpSubject(small)
        countedSubjectSmall(bodies.subject, small)
        bodies.setUpSubject(large)
        countedSubjectLarge(bodies.subject, large)
        bodies.setUpBaseline(small)
        countedBaselineSmall(bodies.baseline, small)
        bodies.setUpBaseline(large)
        countedBaselineLarge(bodies.baseline, large)
        bodies.tearDown()
    }

    // Each calls `mark` a different number of times, so that no two of them compile to code
    // of the same shape: the optimizer merges functions that differ only in their constants
    // into one, and callgrind would then find them under one name. The large call of each
    // pair makes one call of `mark` more than the small one, a few instructions in all.
    @inline(never) static func countedSubjectSmall(_ body: BenchmarkBody, _ iterations: Int) {
        body(iterations)
        mark()
    }
    @inline(never) static func countedSubjectLarge(_ body: BenchmarkBody, _ iterations: Int) {
        body(iterations)
        mark()
        mark()
    }
    @inline(never) static func countedBaselineSmall(_ body: BenchmarkBody, _ iterations: Int) {
        body(iterations)
        mark()
        mark()
        mark()
    }
    @inline(never) static func countedBaselineLarge(_ body: BenchmarkBody, _ iterations: Int) {
        body(iterations)
        mark()
        mark()
        mark()
        mark()
    }
    @inline(never) @_optimize(none) static func mark() {}

    // MARK: - In the driving process

    /// The counts of one case, per operation.
    struct Counts {
        let subject: Double
        let baseline: Double
    }

    /// Counts every case of `cases` that has a ceiling, prints a table, and returns whether
    /// all of them are within their ceilings.
    static func run(_ cases: [BenchmarkCase]) -> Bool {
        let counted = cases.filter { $0.instructions != nil }
        guard let valgrind = findTool("valgrind"), let annotate = findTool("callgrind_annotate") else {
            print("error: --instructions needs valgrind and callgrind_annotate on PATH (Debian: valgrind)")
            return false
        }
        print("ServiceContainerKitBenchmarks, instruction counts under callgrind (release build)")
        print("instr/op = instructions of one operation: the count of \(largeIterations.formatted) iterations")
        print("minus the count of \(smallIterations.formatted), divided by the difference; they do not depend")
        print("on the machine's load (hashing is made deterministic for the counted runs).")
        print("ceiling: <=+N at most N more than the baseline, <=Rx at most R times it; \"open\": a ceiling")
        print("not met yet, reported without failing the run.")
        print("")
        print(pad("case, and below it the same work by hand", 50) + pad("instr/op", 11, left: false)
            + pad("vs base", 11, left: false) + pad("ceiling", 10, left: false) + "  ")
        print(String(repeating: "-", count: 96))
        var allMet = true
        var open = 0
        for benchmark in counted {
            guard let counts = count(benchmark, valgrind: valgrind, annotate: annotate),
                let ceiling = benchmark.instructions
            else {
                print(pad(benchmark.name, 50) + "  could not be counted")
                allMet = false
                continue
            }
            let met = ceiling.allows(subject: counts.subject, baseline: counts.baseline)
            allMet = allMet && (met || benchmark.instructionsOpen)
            if !met && benchmark.instructionsOpen { open += 1 }
            let comparison: String
            switch ceiling {
            case .extra: comparison = String(format: "%+.1f", counts.subject - counts.baseline)
            case .ratio: comparison = Report.format(counts.subject / counts.baseline) + "x"
            }
            print(pad(benchmark.name, 50) + pad(String(format: "%.1f", counts.subject), 11, left: false)
                + pad(comparison, 11, left: false) + pad(ceiling.description, 10, left: false)
                + "  " + (met ? "met" : benchmark.instructionsOpen ? "open" : "MISSED"))
            print(pad("  " + benchmark.baselineName, 50) + pad(String(format: "%.1f", counts.baseline), 11, left: false))
            fflush(nil)
        }
        let memory = MemoryUse.bytesPerRegisteredService()
        let memoryMet = memory <= MemoryUse.ceiling
        allMet = allMet && memoryMet
        print(pad("locator: heap bytes per registered service", 50) + pad(String(format: "%.1f", memory), 11, left: false)
            + pad("", 11) + pad("<=\(Int(MemoryUse.ceiling))", 10, left: false) + "  " + (memoryMet ? "met" : "MISSED"))
        print(pad("  (mallinfo2, \(MemoryUse.count.formatted) services by type)", 50))
        let openNote = open == 0 ? "" : "; \(open) open ceiling\(open == 1 ? "" : "s") not met yet"
        print(allMet ? "\nevery count is within its ceiling" + openNote : "\nsome counts exceed their ceilings" + openNote)
        return allMet
    }

    /// Runs this program under callgrind for `benchmark` and reads the four counted functions.
    static func count(_ benchmark: BenchmarkCase, valgrind: String, annotate: String) -> Counts? {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("callgrind.\(getpid()).\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let arguments = [
            "--tool=callgrind", "--callgrind-out-file=\(output)", executablePath, "--count-case", benchmark.name,
        ]
        // Deterministic hashing gives dictionaries of the same keys the same layout, so that a
        // case and its baseline probe their dictionaries alike, run after run.
        guard run(valgrind, arguments, environment: ["SWIFT_DETERMINISTIC_HASHING": "1"]) != nil,
            let text = run(annotate, ["--inclusive=yes", "--threshold=100", output])
        else {
            return nil
        }
        func inclusive(_ function: String) -> Double? {
            // Lines read "  1,234,567 (12.34%)  file:function [object]"; a function may be
            // listed under several file names, each with the same inclusive count.
            let counts = text.split(separator: "\n").filter { $0.contains(function) }.compactMap { line in
                line.split(separator: " ").first.flatMap { Double($0.replacingOccurrences(of: ",", with: "")) }
            }
            return counts.max()
        }
        guard let subjectSmall = inclusive("countedSubjectSmall"), let subjectLarge = inclusive("countedSubjectLarge"),
            let baselineSmall = inclusive("countedBaselineSmall"), let baselineLarge = inclusive("countedBaselineLarge")
        else { return nil }
        let (small, large) = benchmark.countedIterations
        let operations = Double((large - small) * benchmark.operationsPerIteration)
        return Counts(subject: (subjectLarge - subjectSmall) / operations, baseline: (baselineLarge - baselineSmall) / operations)
    }

    /// This program's path, to run it again.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func findTool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` and returns its standard output, or `nil` when it fails.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func pad(_ text: String, _ width: Int, left: Bool = true) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + padding : padding + text
    }
}
