import Testing

/// Whether an `assertionFailure` stops the process in this build: it does in a debug build, and
/// is compiled out of a release build (`-O`), where the refused change stays refused and the
/// process goes on. The package and its tests are built in the same configuration.
public let assertionStops: Bool = {
    #if DEBUG
    return true
    #else
    return false
    #endif
}()

/// How an exit test whose body hits an `assertionFailure` of the package ends in this build.
public let assertionExit: ExitTest.Condition = assertionStops ? .failure : .success

/// What the child process of an exit test wrote to its standard error (empty when the test
/// observed nothing).
public func standardError(of result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}
