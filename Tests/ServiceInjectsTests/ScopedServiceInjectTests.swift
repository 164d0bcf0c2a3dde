import ServiceContainerKit
import Testing

@testable import ServiceInjects

private final class RequestLog: Sendable {}

private struct RequestServices {
    let log: ServiceProvider<RequestLog>
}

/// A handler made for each request, as docs/injects.md ("Scoped services") describes.
private final class RequestHandler {
    @ServiceInject(\RequestServices.log) var log
    @ServiceInject(\RequestServices.log, lazyInject: true) var lazyLog
}

@Suite("@ServiceInject of scoped services")
struct ScopedServiceInjectTests {
    @Test("A handler made in a scope gets that scope's service, a lazy property too, and keeps it")
    func scopedInjects() {
        withIsolatedInjectRegistries {
            ServiceInjectResolver.register(RequestServices(log: ServiceProvider(mode: .scoped) { RequestLog() }))
            let firstScope = ServiceScope()
            let (handler, inScope) = firstScope.run {
                let handler = RequestHandler()
                return (handler, handler.log)
            }
            #expect(firstScope.run { handler.lazyLog } === inScope)
            let secondScope = ServiceScope()
            let other = secondScope.run { RequestHandler().log }
            #expect(other !== inScope)
            #expect(secondScope.run { handler.log === inScope && handler.lazyLog === inScope })
        }
    }
}
