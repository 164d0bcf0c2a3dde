import Foundation
import Testing

@testable import ServiceContainerKit

private final class RootService: Sendable {}
private final class DependentService: Sendable {
    let first: RootService
    init(first: RootService) { self.first = first }
}
private final class OtherService: Sendable {}

private struct FailingRootFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> RootService { throw TestError(code: 42) }
}

private struct DependentFactory: ServiceFactory {
    let firstService: ServiceProvider<RootService>
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> DependentService {
        DependentService(first: try firstService.getService())
    }
}

protocol Shape: Sendable { var name: String { get } }
struct Circle: Shape { var name: String { "circle" } }
struct Square: Sendable {}

@Suite("Provider errors")
struct ProviderErrorTests {
    @Test("A factory error becomes a ServiceObtainError naming the service")
    func plainError() {
        let provider = FailingRootFactory().serviceProvider()
        let error = #expect(throws: ServiceObtainError.self) { try provider.getService() }
        #expect(sameType(error?.service, RootService.self))
        #expect(typeList(error?.pathServices ?? []) == typeList([RootService.self]))
        #expect(error?.isNested == false)
        #expect(error?.isFactoryError == false)
        #expect(error?.isWrongParams == false)
        #expect(error?.isWrongSession == false)
        #expect(error?.error as? TestError == TestError(code: 42))
        let message = error?.fatalMessage ?? ""
        #expect(message.contains("RootService"))
        #expect(message.contains("TestError"))
        #expect(error?.errorDescription == message)
        #expect(error?.description == message)
    }

    @Test("A nested failure carries the path from the requested service")
    func nestedPath() {
        let first = FailingRootFactory().serviceProvider()
        let second = DependentFactory(firstService: first).serviceProvider()
        let error = #expect(throws: ServiceObtainError.self) { try second.getService() }
        #expect(sameType(error?.service, RootService.self))
        #expect(typeList(error?.pathServices ?? []) == typeList([DependentService.self, RootService.self]))
        #expect(error?.isNested == true)
        #expect(error?.error is TestError)
        let message = error?.fatalMessage ?? ""
        #expect(message.contains("DependentService"))
        #expect(message.contains("Path:"))
    }

    @Test("withAddedToPath puts the service first")
    func addedToPath() {
        let base = ServiceObtainError(service: RootService.self, error: TestError())
        let nested = base.withAddedToPath(service: DependentService.self).withAddedToPath(service: OtherService.self)
        #expect(typeList(nested.pathServices) == typeList([OtherService.self, DependentService.self, RootService.self]))
        #expect(sameType(nested.service, RootService.self))
    }

    @Test("Result and optional getters report the same error")
    func resultAndOptional() {
        let provider = ServiceProvider<Service>(mode: .many) { throw TestError(code: 3) }
        guard case .failure(let error) = provider.getServiceAsResult() else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.error as? TestError == TestError(code: 3))
        #expect(provider.getServiceAsOptional() == nil)
    }

    @Test("castingFactory casts to the provider's type")
    func castingFactoryCast() throws {
        struct CircleFactory: ServiceFactory {
            let mode: ServiceFactoryMode
            func makeService() throws -> Circle { Circle() }
        }
        for mode in [ServiceFactoryMode.atOne, .lazy, .many] {
            let provider = try ServiceProvider<any Shape>(castingFactory: CircleFactory(mode: mode))
            #expect(try provider.getService().name == "circle")
        }
    }

    @Test("castingFactory with a service of another type fails with invalidFactory")
    func castingFactoryInvalid() throws {
        struct SquareFactory: ServiceFactory {
            let mode: ServiceFactoryMode
            func makeService() throws -> Square { Square() }
        }
        let atOne = #expect(throws: ServiceObtainError.self) {
            try ServiceProvider<any Shape>(castingFactory: SquareFactory(mode: .atOne))
        }
        guard case .invalidFactory(let expected, let made)? = atOne?.error as? ServiceFactoryError else {
            Issue.record("expected invalidFactory, got \(String(describing: atOne))")
            return
        }
        #expect(sameType(expected, (any Shape).self))
        #expect(sameType(made, Square.self))
        #expect(atOne?.isFactoryError == true)
        #expect(atOne?.fatalMessage.contains("Square") == true)

        let lazy = try ServiceProvider<any Shape>(castingFactory: SquareFactory(mode: .lazy))
        let error = #expect(throws: ServiceObtainError.self) { try lazy.getService() }
        #expect(error?.isFactoryError == true)
    }

    @Test("tryFactory rethrows the error of an atOne factory")
    func tryFactoryAtOneError() {
        struct FailingFactory: ServiceFactory {
            let mode: ServiceFactoryMode = .atOne
            func makeService() throws -> Service { throw TestError(code: 9) }
        }
        let error = #expect(throws: ServiceObtainError.self) {
            try ServiceProvider<Service>(tryFactory: FailingFactory())
        }
        #expect(error?.error as? TestError == TestError(code: 9))
    }

    @Test("Factory errors describe themselves", arguments: [
        (ServiceFactoryError.wrongParams(expected: Int.self, received: String.self), "wrong params type Swift.String, expected Swift.Int; give params of that type"),
        (.wrongParams(expected: Int.self, received: nil), "no params given, expected Swift.Int; give params of that type"),
        (
            .wrongSession(expected: Int.self, received: String.self),
            "wrong session type Swift.String, expected Swift.Int: the provider makes its service only while the session is of "
                + "type Swift.Int; where the mediator's sessions can be Swift.Int, update the mediator with one (as a sign-in does), "
                + "or, to serve Swift.String sessions too, give the provider a factory that takes Swift.String"
        ),
        (.invalidFactory(expected: Int.self, made: String.self), "invalid factory: it made Swift.String, which is not Swift.Int; let the factory make values of that type, or "
            + "declare the provider with the type it makes"),
        (.dependencyCycle(service: Int.self), "dependency cycle: the making of Swift.Int led back to a get of Swift.Int; break the cycle: get one of the services on its path where it is used, not in a factory or a session hook"),
    ])
    func factoryErrorDescriptions(error: ServiceFactoryError, text: String) {
        #expect(error.description == text)
        #expect(error.errorDescription == text)
    }

    @Test("getServiceOrFatal stops the program with the fatal message")
    func orFatal() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let provider = ServiceProvider<Service>(mode: .lazy) { throw TestError(code: 77) }
            _ = provider.getServiceOrFatal()
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("Failed to obtain service"))
            #expect(stderr.contains("Service"))
        }
    }

    @Test("Messages name a private or local type by its module and name, the same in every run")
    func typeNames() {
        final class LocalService: Sendable {}
        #expect(String(reflecting: RootService.self).contains("(unknown context at $"))
        #expect(TypeName.of(RootService.self) == "ServiceContainerKitTests.RootService")
        #expect(TypeName.of(LocalService.self) == "ServiceContainerKitTests.ProviderErrorTests.LocalService")
        #expect(TypeName.of([String: RootService?].self)
            == "Swift.Dictionary<Swift.String, Swift.Optional<ServiceContainerKitTests.RootService>>")
        #expect(TypeName.of((RootService, OtherService).self)
            == "(ServiceContainerKitTests.RootService, ServiceContainerKitTests.OtherService)")
        #expect(TypeName.of(Circle.self) == "ServiceContainerKitTests.Circle")
        #expect(TypeName.of((any Shape).self) == "ServiceContainerKitTests.Shape")

        let provider = ServiceProvider<RootService>(mode: .lazy) { throw TestError(code: 7) }
        #expect(provider.getServiceAsResult().failure?.description
            == "Failed to obtain service ServiceContainerKitTests.RootService with error: TestError(code: 7)")
    }
}
