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

/// A scoped service that holds a handler, as a request's controller might.
private final class HandlerHolder {
    let handler = RequestHandler()
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

    @Test("A scope dropped without a close is released, with a handler waiting to inject lazily that it made")
    func droppedScopeIsReleased() {
        withIsolatedInjectRegistries {
            ServiceInjectResolver.register(RequestServices(log: ServiceProvider(mode: .scoped) { RequestLog() }))
            let holders = ServiceProvider<HandlerHolder>(mode: .scoped) { HandlerHolder() }
            weak var droppedScope: ServiceScope?
            weak var droppedHolder: HandlerHolder?
            do {
                let scope = ServiceScope()
                droppedScope = scope
                droppedHolder = scope.run { try? holders.getService() }
                #expect(droppedHolder != nil)
            }
            // The handler's lazy property keeps the number of its scope, not the scope, which
            // keeps the holder: a reference made a cycle that only a close broke.
            #expect(droppedScope == nil)
            #expect(droppedHolder == nil)
        }
    }
}
