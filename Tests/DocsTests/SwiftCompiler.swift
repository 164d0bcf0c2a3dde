import Foundation
import TestSupport

/// The toolchain's compiler, pointed at the modules of the build that runs the tests.
///
/// The product modules are found next to the test executable (`<build>/debug/Modules`), so the
/// check uses what this very build made: `.build` for `swift test`, `.build-tsan` for the
/// ThreadSanitizer run. Code is compiled to SIL, not linked or run: that reports every error the
/// compiler gives, those of its SIL passes included (definite initialization, data-race
/// safety), at the cost of about a second per file.
struct SwiftCompiler: Sendable {
    /// Why the compiler could not be set up.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// What compiling one file gave.
    struct Outcome: Sendable {
        let succeeded: Bool
        /// The compiler's diagnostics, in the compact `file:line:column: error: ...` style.
        let output: String
    }

    let executable: URL
    let leadingArguments: [String]
    let modules: URL
    let workingDirectory: URL

    /// The longest a compile may take: the first one may build the module cache.
    static let timeout: TimeInterval = 300

    /// The compiler for the current build; `workingDirectory` is where the paths of
    /// `#sourceLocation` lines are relative to.
    static func current(workingDirectory: URL) throws -> SwiftCompiler {
        guard let modules = productModules() else {
            throw SetupError(description: "no ServiceContainerKit.swiftmodule near the test executable "
                + "(\(Bundle.main.executablePath ?? "unknown")): run the tests with `swift test`")
        }
        #if os(macOS)
        return SwiftCompiler(
            executable: URL(fileURLWithPath: "/usr/bin/xcrun"), leadingArguments: ["swiftc"],
            modules: modules, workingDirectory: workingDirectory
        )
        #else
        guard let swiftc = executableInPath("swiftc") else {
            throw SetupError(description: "swiftc is not in PATH: put the toolchain's bin directory there")
        }
        return SwiftCompiler(
            executable: swiftc, leadingArguments: [], modules: modules, workingDirectory: workingDirectory
        )
        #endif
    }

    /// The directory of the built product modules, searched upwards from the test executable and
    /// the loaded bundles.
    static func productModules() -> URL? {
        let starts = ([Bundle.main.executableURL] + Bundle.allBundles.map(\.bundleURL)).compactMap { $0 }
        for start in starts {
            var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                for candidate in [directory.appendingPathComponent("Modules"), directory] {
                    let module = candidate.appendingPathComponent("ServiceContainerKit.swiftmodule")
                    if FileManager.default.fileExists(atPath: module.path) {
                        return candidate
                    }
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }

    static func executableInPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }

    /// Compiles `source` as the `main.swift` of a module of its own, in Swift 6 mode; with
    /// `standIn`, the module of that name built from `StandInModules` can be imported; with
    /// `mainActorByDefault`, the module's default isolation is the main actor. With
    /// `typecheckOnly`, the code is only type-checked (faster, without the errors of the SIL
    /// passes); without `warningsAsErrors`, a warning does not fail the compile and the caller
    /// reads the warnings in the output; with `asLibrary`, the file is a library's file, not a
    /// script (`-parse-as-library`); with `packageName`, the file belongs to that package and
    /// sees its `package` declarations.
    func compile(
        _ source: String, standIn: String? = nil, mainActorByDefault: Bool = false, typecheckOnly: Bool = false,
        warningsAsErrors: Bool = true, asLibrary: Bool = false, packageName: String? = nil
    ) throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("doc-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let main = directory.appendingPathComponent("main.swift")
        try source.write(to: main, atomically: true, encoding: .utf8)

        var searchPaths = ["-I", modules.path] + cModuleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
        if let standIn {
            // The stand-ins it imports first, each built where the next one finds it.
            for module in StandInModules.buildOrder(of: standIn) {
                guard let standInSource = StandInModules.sources[module] else {
                    throw SetupError(description: "no stand-in of module \(module) in StandInModules")
                }
                let built = try emitModule(module, source: standInSource, into: directory)
                guard built.succeeded else {
                    return Outcome(
                        succeeded: false,
                        output: "the stand-in of module \(module) (Tests/DocsTests/StandInModules.swift) "
                            + "does not compile:\n\(built.output)"
                    )
                }
            }
            searchPaths += ["-I", directory.path]
        }

        // The compiler's own module cache: the build's may name the same modules by another path.
        let output = typecheckOnly ? ["-typecheck"] : ["-emit-sil", "-o", directory.appendingPathComponent("main.sil").path]
        let arguments = leadingArguments + output + [
            "-swift-version", "6", "-module-name", "DocExample", "-diagnostic-style", "llvm",
        ] + (warningsAsErrors ? ["-warnings-as-errors"] : []) + (asLibrary ? ["-parse-as-library"] : [])
            + (packageName.map { ["-package-name", $0] } ?? []) + (mainActorByDefault ? ["-default-isolation", "MainActor"] : []) + searchPaths + [main.path]
        return try run(arguments)
    }

    /// The module maps of the build's C targets (`<target>.build/module.modulemap`, beside
    /// `Modules`), which a product module imports; a map left by a target that no longer exists
    /// (its header is gone) is passed over.
    var cModuleMaps: [URL] {
        let build = modules.lastPathComponent == "Modules" ? modules.deletingLastPathComponent() : modules
        let entries = (try? FileManager.default.contentsOfDirectory(at: build, includingPropertiesForKeys: nil)) ?? []
        return entries.filter { $0.pathExtension == "build" }
            .map { $0.appendingPathComponent("module.modulemap") }
            .filter { map in
                guard let text = try? String(contentsOf: map, encoding: .utf8) else { return false }
                let quoted = text.split(separator: "\"").enumerated().filter { $0.offset.isMultiple(of: 2) == false }
                return quoted.allSatisfy { FileManager.default.fileExists(atPath: String($0.element)) }
            }
            .sorted { $0.path < $1.path }
    }

    /// Builds `source` as the interface of module `name` (its `.swiftmodule`, nothing to link)
    /// in `directory`, where it finds the stand-ins built before it.
    private func emitModule(_ name: String, source: String, into directory: URL) throws -> Outcome {
        let file = directory.appendingPathComponent("\(name).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try run(leadingArguments + [
            "-emit-module", "-emit-module-path", directory.appendingPathComponent("\(name).swiftmodule").path,
            "-parse-as-library", "-swift-version", "6", "-module-name", name, "-diagnostic-style", "llvm",
            "-I", directory.path, file.path,
        ])
    }

    private func run(_ arguments: [String]) throws -> Outcome {
        try runTool(executable, arguments: arguments, in: workingDirectory, timeout: Self.timeout)
    }
}

/// Runs `executable` in `workingDirectory` and gives its exit and its output (standard output and
/// error together); after `timeout` seconds it is stopped. The tool gets a temporary directory of
/// its own, removed when it is done: the toolchain's driver leaves a directory in the temporary
/// directory at each compile that stops before linking, which would pile up in the system's.
func runTool(_ executable: URL, arguments: [String], in workingDirectory: URL, timeout: TimeInterval) throws
    -> SwiftCompiler.Outcome
{
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("doc-tool-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: temporary) }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = workingDirectory
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary.path
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let watchdog = DispatchWorkItem { process.terminate() }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    var output = String(decoding: data, as: UTF8.self)
    if process.terminationReason == .uncaughtSignal {
        output += "\nthe tool was stopped (signal \(process.terminationStatus)) after at most \(Int(timeout)) s"
    }
    return SwiftCompiler.Outcome(
        succeeded: process.terminationReason == .exit && process.terminationStatus == 0, output: output
    )
}

/// Runs `body`, which waits for a process (a compiler, a script), on a thread of its own
/// (`onThread`) and suspends until it returns: a test waiting that long on a thread of the
/// concurrency pool would hold up the async tests, which run on the same few threads, past their
/// time limits. As many bodies run at once as the machine has cores, as they did on the pool, so
/// that the compilers do not all start together.
func inProcessSlot<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await onThread {
        processSlots.wait()
        defer { processSlots.signal() }
        return try body()
    }
}

private let processSlots = DispatchSemaphore(value: max(ProcessInfo.processInfo.activeProcessorCount, 2))
