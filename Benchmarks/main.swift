#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Each product adds its list of cases here.
let allCases = CoreCases.all + AsyncCases.all + InjectsCases.all + LocatorCases.all + BridgeCases.all

exit(BenchmarkCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), cases: allCases))
