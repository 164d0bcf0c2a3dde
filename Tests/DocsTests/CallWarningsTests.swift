import Foundation
import Testing

/// The warnings of the calls that the package marks deprecated to point at the call meant: each
/// is compiled here, since a test that made the call would warn itself.
@Suite("Warnings of calls that do not do what they look like")
struct CallWarningsTests {
    /// A factory that is not `Sendable` (it counts what it made), of each kind.
    static let factories = """
        import ServiceEasyLocatorKit
        final class Report {}
        final class ReportFactory: ServiceFactory {
            let mode: ServiceFactoryMode = .many
            var made = 0
            func makeService() throws -> Report { made += 1; return Report() }
        }
        final class ReportParamsFactory: ServiceParamsFactory {
            var made = 0
            func makeService(params: Int) throws -> Report { made += 1; return Report() }
        }
        final class BothKindsReportFactory: ServiceFactory, ServiceParamsFactory {
            let mode: ServiceFactoryMode = .many
            var made = 0
            func makeService() throws -> Report { made += 1; return Report() }
            func makeService(params: Int) throws -> Report { made += 1; return Report() }
        }
        struct SendableReportFactory: ServiceFactory {
            let mode: ServiceFactoryMode = .many
            func makeService() throws -> Report { Report() }
        }
        let locator = ServiceEasyLocator()

        """

    static let cases: [(call: String, warning: String)] = [
        ("locator.addService(ReportFactory())",
         "a factory that is not Sendable is stored as a value, not as its provider; add addService(provider: "
            + "factory.serviceSafeProvider()), or make it Sendable and add it with addService(factory:)"),
        ("locator.addService(ReportParamsFactory())",
         "a params factory that is not Sendable is stored as a value, not as its provider; add addService(provider: "
            + "factory.serviceSafeProvider()), or make it Sendable and add it with addService(factory:)"),
        ("locator.addService(BothKindsReportFactory())",
         "a type that is both a ServiceFactory and a ServiceParamsFactory, and not Sendable, is stored as a value; "
            + "add the safe provider you mean with addService(provider:)"),
        ("locator.addService(SendableReportFactory())", "a factory is added with addService(factory:)"),
    ]

    @Test("An unlabelled add of a factory warns, naming the add meant", arguments: 0..<cases.count)
    func unlabelledAddOfAFactoryWarns(index: Int) async throws {
        let (call, warning) = Self.cases[index]
        let compiler = try SwiftCompiler.current(workingDirectory: Guides.root)
        let source = Self.factories + call + "\n"
        let outcome = try await inProcessSlot { try compiler.compile(source, typecheckOnly: true, warningsAsErrors: false) }
        #expect(outcome.succeeded, "\(outcome.output)")
        let warnings = outcome.output.split(separator: "\n").filter { $0.contains("warning: ") }
        #expect(warnings.count == 1, "\(outcome.output)")
        #expect(warnings.first?.contains(warning) == true, "\(outcome.output)")
    }

    @Test("The adds the warnings name, and a factory kept as a service on purpose, compile without a warning")
    func theAddsNamedCompileWithoutAWarning() async throws {
        let compiler = try SwiftCompiler.current(workingDirectory: Guides.root)
        let source = Self.factories + """
            locator.addService(provider: ReportFactory().serviceSafeProvider())
            locator.addService(provider: ReportParamsFactory().serviceSafeProvider())
            locator.addService(provider: ServiceParamsSafeProvider(factory: BothKindsReportFactory()))
            locator.addService(factory: SendableReportFactory())
            locator.addService(provider: ServiceProvider(ReportFactory()))  // the factory itself, on purpose

            """
        let outcome = try await inProcessSlot { try compiler.compile(source, typecheckOnly: true) }
        #expect(outcome.succeeded, "\(outcome.output)")
    }
}
