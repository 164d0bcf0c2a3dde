/// What the command line asked for.
struct Options {
    /// Short rounds for CI: checks every case runs, timing is rough.
    var quick = false
    /// Print one JSON array, one object per case, instead of the table.
    var json = false
    /// Run only the cases whose name contains this (case-insensitive).
    var filter: String?
    /// Count instructions under callgrind instead of timing.
    var instructions = false
    /// The case to run in a process counted by callgrind (given by `--instructions` itself).
    var countCase: String?

    static let usage = """
        usage: ServiceContainerKitBenchmarks [--quick] [--filter SUBSTRING] [--json] [--instructions]

          --quick              short rounds (a few seconds in total); for CI, numbers are rough
          --filter SUBSTRING   run only the cases whose name contains SUBSTRING (any case)
          --json               print a JSON array, one object per case, instead of the table
          --instructions       count instructions per operation under valgrind's callgrind for the
                               cases that have an instruction ceiling, and the heap bytes of a
                               registered service; exits with 1 when one exceeds its ceiling
          --help               print this help
        """

    /// Parses `arguments` (without the program name); on bad input returns the message to show.
    static func parse(_ arguments: [String]) -> Result<Options, OptionsError> {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                options.quick = true
            case "--json":
                options.json = true
            case "--instructions":
                options.instructions = true
            case "--count-case":
                guard let value = remaining.popFirst() else {
                    return .failure(OptionsError(message: "--count-case needs a case name"))
                }
                options.countCase = value
            case "--filter":
                guard let value = remaining.popFirst() else {
                    return .failure(OptionsError(message: "--filter needs a SUBSTRING"))
                }
                options.filter = value
            case "--help", "-h":
                return .failure(OptionsError(message: nil))
            default:
                if argument.hasPrefix("--filter=") {
                    options.filter = String(argument.dropFirst("--filter=".count))
                } else {
                    return .failure(OptionsError(message: "unknown argument '\(argument)'"))
                }
            }
        }
        return .success(options)
    }
}

/// A command line that cannot run; `message` is `nil` when help was asked for.
struct OptionsError: Error {
    let message: String?
}
