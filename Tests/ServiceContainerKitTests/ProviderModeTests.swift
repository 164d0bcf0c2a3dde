import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

@Suite("Provider modes")
struct ProviderModeTests {
    @Test("An instance provider returns the same instance every time")
    func instance() throws {
        let service = Service(number: 7)
        let provider = ServiceProvider(service)
        #expect(try provider.getService() === service)
        #expect(provider.getServiceAsOptional() === service)
        #expect(try provider.getServiceAsResult().get() === service)
        #expect(provider.getServiceOrFatal() === service)
    }

    @Test("atOne makes the service in init, once")
    func atOne() throws {
        let counter = Counter()
        let provider = ServiceProvider(mode: .atOne, factory: countingFactory(counter))
        #expect(counter.value == 1)
        let first = try provider.getService()
        let second = try provider.getService()
        #expect(first === second)
        #expect(counter.value == 1)
        try provider.validateAtOneError()
    }

    @Test("atOne keeps its error forever")
    func atOneError() {
        let counter = Counter()
        let provider = ServiceProvider(mode: .atOne, factory: countingFactory(counter, failures: 1))
        for _ in 0..<3 {
            #expect(throws: ServiceObtainError.self) { try provider.getService() }
        }
        #expect(counter.value == 1)
        #expect(provider.getServiceAsOptional() == nil)
        let error = #expect(throws: ServiceObtainError.self) { try provider.validateAtOneError() }
        #expect(error?.error as? TestError == TestError(code: 1))
        #expect(sameType(error?.service, Service.self))
    }

    @Test("lazy makes the service on first get and keeps it")
    func lazy() throws {
        let counter = Counter()
        let provider = ServiceProvider(mode: .lazy, factory: countingFactory(counter))
        #expect(counter.value == 0)
        let first = try provider.getService()
        #expect(counter.value == 1)
        #expect(try provider.getService() === first)
        #expect(counter.value == 1)
        try provider.validateAtOneError()
    }

    @Test("lazy retries after an error, then keeps the service")
    func lazyRetry() throws {
        let counter = Counter()
        let provider = ServiceProvider(mode: .lazy, factory: countingFactory(counter, failures: 2))
        let first = provider.getServiceAsResult()
        #expect(throws: ServiceObtainError.self) { try first.get() }
        #expect(provider.getServiceAsOptional() == nil)
        let made = try provider.getService()
        #expect(made.number == 3)
        #expect(try provider.getService() === made)
        #expect(counter.value == 3)
    }

    @Test("lazy releases its factory after success, not after failure")
    func lazyReleasesFactory() throws {
        final class Witness: Sendable {}
        weak var weakWitness: Witness?
        let counter = Counter()
        let cell: LazySource<Service?>
        do {
            let witness = Witness()
            weakWitness = witness
            cell = LazySource<Service?> {
                _ = witness
                if counter.increment() == 1 { throw TestError() }
                return Service()
            }
        }
        #expect(throws: ServiceObtainError.self) { try cell.get() }
        #expect(cell.holdsFactory)
        #expect(weakWitness != nil)
        _ = try cell.get()
        #expect(!cell.holdsFactory)
        #expect(weakWitness == nil)
    }

    @Test("weak keeps the service only while someone holds it")
    func weak() throws {
        let counter = Counter()
        let provider = ServiceProvider(mode: .weak, factory: countingFactory(counter))
        #expect(counter.value == 0)
        var held: Service? = try provider.getService()
        let firstIdentity = ObjectIdentifier(held!)
        #expect(try provider.getService() === held)
        #expect(counter.value == 1)
        held = nil
        let second = try provider.getService()
        #expect(counter.value == 2)
        #expect(second.number == 2)
        _ = firstIdentity
    }

    @Test("weak works through a protocol type")
    func weakProtocol() throws {
        let counter = Counter()
        let provider = ServiceProvider<any Greeting>(mode: .weak) {
            counter.increment()
            return Greeter(text: "hi")
        }
        let held = try provider.getService()
        #expect(try provider.getService() === held)
        #expect(try provider.getService().text == "hi")
        #expect(counter.value == 1)
    }

    @Test("weak with a value type makes a new value on every get")
    func weakValueType() throws {
        let counter = Counter()
        let provider = ServiceProvider<Int>(mode: .weak) { counter.increment() }
        #expect(try provider.getService() == 1)
        #expect(try provider.getService() == 2)
    }

    @Test("weak retries after an error")
    func weakError() throws {
        let counter = Counter()
        let provider = ServiceProvider(mode: .weak, factory: countingFactory(counter, failures: 1))
        #expect(provider.getServiceAsOptional() == nil)
        let service = try provider.getService()
        #expect(service.number == 2)
    }

    @Test("many makes a new service on every get")
    func many() throws {
        let counter = Counter()
        let provider = ServiceProvider(mode: .many, factory: countingFactory(counter))
        let first = try provider.getService()
        let second = try provider.getService()
        #expect(first !== second)
        #expect(first.number == 1)
        #expect(second.number == 2)
    }

    @Test("Factories give providers in their mode", arguments: [
        ServiceFactoryMode.atOne, .lazy, .weak, .many,
    ])
    func factoryModes(mode: ServiceFactoryMode) throws {
        struct CountingFactory: ServiceFactory {
            let mode: ServiceFactoryMode
            let counter: Counter
            func makeService() throws -> Service { Service(number: counter.increment()) }
        }
        let counter = Counter()
        let provider = CountingFactory(mode: mode, counter: counter).serviceProvider()
        #expect(counter.value == (mode == .atOne ? 1 : 0))
        let first = try provider.getService()
        let second = try provider.getService()
        #expect((first === second) == (mode != .many))
        #expect(counter.value == (mode == .many ? 2 : 1))
        let viaInit = ServiceProvider(factory: CountingFactory(mode: mode, counter: Counter()))
        #expect(viaInit.getServiceAsOptional() != nil)
    }
}
