#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// Each product adds its list of cases here.
func allCases() -> [BenchmarkCase] {
    CoreCases.all + AsyncCases.all + InjectsCases.all + LocatorCases.all + BridgeCases.all + HandWrittenCases.all
        + DiagnosticsCases.all + ServerCases.all  // last: a shutdown turns the slow path of every get on
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains(where: { $0 == "--instructions" || $0 == "--count-case" }) {
    // Counted on the main thread, where the memory row is measured too: a counted case that
    // runs on the main actor runs there at once (`CoreCases.onMain`).
    exit(BenchmarkCommand.run(arguments: arguments, cases: allCases()))
}
// Timed, the cases run on a thread of their own while `dispatchMain()` serves the main queue
// (on Linux, from a thread of its own), so that a case can run on the main actor.
let runner = Thread { [arguments] in
    exit(BenchmarkCommand.run(arguments: arguments, cases: allCases()))
}
runner.stackSize = 8 << 20
runner.start()
dispatchMain()
