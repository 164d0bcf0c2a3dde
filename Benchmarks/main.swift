#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

// The cases run on a thread of their own, and the main thread services the main queue, so that
// a case can measure code that runs on the main actor.
let runner = Thread {
    // Each product adds its list of cases here.
    let cases = CoreCases.all + AsyncCases.all + InjectsCases.all + LocatorCases.all + BridgeCases.all
    exit(BenchmarkCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), cases: cases))
}
runner.stackSize = 8 << 20
runner.start()
dispatchMain()
