import Testing
import ServiceLocatorKit

// The examples of docs/migration.md that are not snippets of the old documentation.

enum MyError: Error {
    case offline
}

func catchesTheFactoryError(provider: ServiceProvider<LazyService>) -> Bool {
    do {
        _ = try provider.getService()
    } catch {
        if case MyError.offline? = error.error as? MyError { return true }
    }
    return false
}

@Suite("docs/migration.md examples")
struct MigrationGuideExamples {
    @Test func factoryErrorIsInsideTheObtainError() {
        let failing = ServiceProvider<LazyService>(mode: .many) { throw MyError.offline }
        #expect(catchesTheFactoryError(provider: failing))
        #expect(catchesTheFactoryError(provider: ServiceProvider(LazyService())) == false)
    }
}
