import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

/// A `many` factory with unsynchronized mutable state: only a safe provider may call it from
/// several threads.
private final class StatefulFactory: ServiceFactory, @unchecked Sendable {
    // Deliberately unsynchronized: the safe provider must serialize every call.
    var count = 0
    var inside = false
    var overlaps = 0
    let mode: ServiceFactoryMode = .many

    func makeService() throws -> Service {
        if inside { overlaps += 1 }
        inside = true
        defer { inside = false }
        count += 1
        Thread.sleep(forTimeInterval: 0.0005)
        return Service(number: count)
    }
}

private final class StatefulParamsFactory: ServiceParamsFactory, @unchecked Sendable {
    // Deliberately unsynchronized: the safe provider must serialize every call.
    var count = 0
    var inside = false
    var overlaps = 0

    func makeService(params: Int) throws -> Service {
        if inside { overlaps += 1 }
        inside = true
        defer { inside = false }
        count += 1
        Thread.sleep(forTimeInterval: 0.0005)
        return Service(number: params)
    }
}

let safeKinds: [ServiceSafeProviderKind] = [.lock, .semaphore, .queue(), .queue(qos: .userInitiated, label: "test")]

/// Factories of every kind, for the tests of the ways to make a safe provider.
private struct SpellingMany: ServiceFactory {
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> Service { Service() }
}

private struct SpellingParams: ServiceParamsFactory {
    func makeService(params: Int) throws -> Service { Service(number: params) }
}

private struct SpellingSession: ServiceSessionFactory {
    let mode: ServiceSessionFactoryMode = .lazy
    func makeService(session: ServiceVoidSession) throws -> Service { Service() }
}

@Suite("Safe providers")
struct SafeProviderTests {
    @Test("A safe provider serializes a many factory with mutable state", .offThePool, arguments: safeKinds)
    func serializesMany(kind: ServiceSafeProviderKind) throws {
        let factory = StatefulFactory()
        let provider: ServiceProvider<Service> = factory.serviceSafeProvider(safeThread: kind)
        let numbers = try raceOnThreads(6) { _ in
            (0..<10).map { _ in provider.getServiceAsOptional()?.number ?? -1 }
        }.flatMap { $0 }
        #expect(factory.count == 60)
        #expect(factory.overlaps == 0)
        #expect(Set(numbers).count == 60)
    }

    @Test("A safe params provider and its converted providers share one serialization", .offThePool, arguments: safeKinds)
    func paramsShareSerialization(kind: ServiceSafeProviderKind) throws {
        let factory = StatefulParamsFactory()
        let provider = factory.serviceSafeProvider(safeThread: kind)
        let converted: ServiceSafeProvider<Service> = provider.convert(params: 5)
        let total = try raceOnThreads(6) { index in
            (0..<10).map { _ in
                index.isMultiple(of: 2)
                    ? (converted.getServiceAsOptional()?.number ?? -1)
                    : (provider.getServiceAsOptional(params: index)?.number ?? -1)
            }.filter { $0 >= 0 }.count
        }.reduce(0, +)
        #expect(total == 60)
        #expect(factory.count == 60)
        #expect(factory.overlaps == 0)
        #expect(try converted.getService().number == 5)
        #expect(try converted.getServiceAsResultNotSafe().get().number == 5)
        #expect(try provider.getServiceAsResultNotSafe(params: 2).get().number == 2)
    }

    @Test("Safe providers keep the modes' semantics")
    func modes() throws {
        let counter = Counter()
        let lazy = ServiceSafeProvider(mode: .lazy, factory: countingFactory(counter))
        #expect(counter.value == 0)
        let first = try lazy.getService()
        #expect(try lazy.getService() === first)
        #expect(try lazy.getServiceAsResultNotSafe().get() === first)

        let atOne = ServiceSafeProvider(mode: .atOne, factory: countingFactory(Counter(), failures: 1))
        #expect(throws: ServiceObtainError.self) { try atOne.validateAtOneError() }
        #expect(atOne.getServiceAsOptional() == nil)

        struct PlainFactory: ServiceFactory {
            let mode: ServiceFactoryMode = .weak
            func makeService() throws -> Service { Service(number: 11) }
        }
        let weak = ServiceSafeProvider(factory: PlainFactory(), safeThread: .semaphore)
        let held = try weak.getService()
        #expect(try weak.getService() === held)

        struct Params: ServiceParamsFactory {
            func makeService(params: Int) throws -> Service { Service(number: params) }
        }
        let bound = Params().serviceSafeProvider(params: 4, safeThread: .queue())
        #expect(try bound.getService().number == 4)
        let closure = ServiceParamsSafeProvider<Service, Int>(safeThread: .lock) { Service(number: $0 * 2) }
        #expect(try closure.getService(params: 3).number == 6)
        let viaInit = ServiceSafeProvider(factory: Params(), params: 9)
        #expect(try viaInit.getService().number == 9)
    }

    @Test("Every way of making a safe provider serializes it, the default kind included")
    func everySpellingIsSafe() {
        let mediator = ServiceVoidSessionMediator()
        let providers: [ServiceProvider<Service>] = [
            ServiceSafeProvider(mode: .many) { Service() },
            ServiceSafeProvider(factory: SpellingMany()),
            ServiceSafeProvider(factory: SpellingParams(), params: 1),
            ServiceSafeProvider(factory: SpellingSession(), mediator: mediator),
            SpellingMany().serviceSafeProvider(),
            SpellingParams().serviceSafeProvider(params: 1),
            SpellingSession().serviceSafeProvider(mediator: mediator),
            ServiceParamsSafeProvider(factory: SpellingParams()).convert(params: 1),
            SpellingParams().serviceSafeProvider().convert(params: 2),
        ]
        for (index, provider) in providers.enumerated() {
            guard case .safe = provider.source else {
                Issue.record("provider \(index) is not serialized")
                continue
            }
            #expect(provider is ServiceSafeProvider<Service>)
        }
        let params: ServiceParamsProvider<Service, Int> = ServiceParamsSafeProvider(factory: SpellingParams())
        #expect(params.serializer != nil)
        #expect(ServiceParamsSafeProvider<Service, Int> { Service(number: $0) }.serializer != nil)
    }

    @Test("Every way of making a safe provider serializes with the kind it is given")
    func everySpellingTakesItsKind() throws {
        let mediator = ServiceVoidSessionMediator()
        let kind = ServiceSafeProviderKind.queue(label: "given")
        let providers: [ServiceProvider<Service>] = [
            ServiceSafeProvider(Service(), safeThread: kind),
            ServiceSafeProvider(factory: SpellingMany(), safeThread: kind),
            try ServiceSafeProvider(tryFactory: SpellingMany(), safeThread: kind),
            try ServiceSafeProvider<Service>(castingFactory: SpellingMany(), safeThread: kind),
            ServiceSafeProvider(factory: SpellingParams(), params: 1, safeThread: kind),
            ServiceSafeProvider(factory: SpellingSession(), mediator: mediator, safeThread: kind),
            ServiceSafeProvider(mode: .many, safeThread: kind) { Service() },
            ServiceParamsSafeProvider(factory: SpellingParams(), safeThread: kind).convert(params: 1),
            ServiceParamsSafeProvider<Service, Int>(safeThread: kind) { Service(number: $0) }.convert(params: 2),
        ]
        for (index, provider) in providers.enumerated() {
            guard case .safe(let source) = provider.source else {
                Issue.record("provider \(index) is not serialized")
                continue
            }
            #expect(source.serializer.primitive?.queue?.label == "given", "provider \(index)")
        }
    }

    @Test("A queue kind runs the factory on its queue, and a semaphore kind holds its semaphore while the factory runs")
    func factoryRunsHoldingThePrimitive() throws {
        func primitive(of provider: ServiceProvider<Service>) -> Serializer.Primitive? {
            guard case .safe(let source) = provider.source else { return nil }
            return source.serializer.primitive
        }
        let key = DispatchSpecificKey<Int>()
        let queued = ServiceSafeProvider<Service>(mode: .many, safeThread: .queue(label: "factory queue")) {
            Service(number: DispatchQueue.getSpecific(key: key) ?? 0)
        }
        let queue = try #require(primitive(of: queued)?.queue)
        queue.setSpecific(key: key, value: 7)
        #expect(try queued.getService().number == 7)

        let semaphore = Locked<DispatchSemaphore?>(nil)
        let held = ServiceSafeProvider<Service>(mode: .many, safeThread: .semaphore) {
            // 1 when the semaphore is free, 0 when the get holds it.
            guard let semaphore = semaphore.withLock({ $0 }), semaphore.wait(timeout: .now()) == .success else {
                return Service(number: 0)
            }
            semaphore.signal()
            return Service(number: 1)
        }
        semaphore.withLock { $0 = primitive(of: held)?.semaphore }
        #expect(semaphore.withLock { $0 } != nil)
        #expect(try held.getService().number == 0)
    }

    @Test("A get without the serialization runs while a serialized get of the same provider runs", .offThePool)
    func notSafeGetRunsBesideASerializedOne() async throws {
        let inside = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        let calls = Counter()
        let late = Counter()
        let provider = ServiceSafeProvider<Service>(mode: .many) {
            let number = calls.increment()
            if number == 1 {
                inside.signal()
                if leave.wait(timeout: .now() + 5) == .timedOut { late.increment() }
            }
            return Service(number: number)
        }
        // On a thread of its own from the start: a task on the pool could wait there, behind tests
        // that hold its threads, past the time limit below.
        let serialized = Task(executorPreference: ThreadPerJobExecutor.shared) {
            try await onThread { try provider.getService().number }
        }
        try await onThread { try waitWithTimeLimit(inside) }
        let unserialized = try await onThread { provider.getServiceAsResultNotSafe() }
        leave.signal()
        #expect(try unserialized.get().number == 2)
        #expect(try await serialized.value == 1)
        #expect(late.value == 0, "the unserialized get waited for the serialized one")
    }

    @Test("A params get without the serialization runs while a serialized get of the same provider runs", .offThePool)
    func notSafeParamsGetRunsBesideASerializedOne() async throws {
        let inside = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        let late = Counter()
        let provider = ServiceParamsSafeProvider<Service, Int>(safeThread: .lock) { number in
            if number == 1 {
                inside.signal()
                if leave.wait(timeout: .now() + 5) == .timedOut { late.increment() }
            }
            return Service(number: number)
        }
        // On a thread of its own from the start: a task on the pool could wait there, behind tests
        // that hold its threads, past the time limit below.
        let serialized = Task(executorPreference: ThreadPerJobExecutor.shared) {
            try await onThread { try provider.getService(params: 1).number }
        }
        try await onThread { try waitWithTimeLimit(inside) }
        let unserialized = try await onThread { provider.getServiceAsResultNotSafe(params: 2) }
        leave.signal()
        #expect(try unserialized.get().number == 2)
        #expect(try await serialized.value == 1)
        #expect(late.value == 0, "the unserialized get waited for the serialized one")
    }

    @Test("The default kind is lock")
    func defaultKind() {
        guard case .lock = ServiceSafeProviderKind.default else {
            Issue.record("the default kind must be .lock")
            return
        }
    }

    @Test("A queue kind runs at utility unless told otherwise, as in 3.0, and has a label of its own when none is given")
    func queueDefaults() throws {
        let cases: [(ServiceSafeProviderKind, String, DispatchQoS)] = [
            (.queue(), "ServiceContainerKit.ServiceSafeProvider", .utility),
            (.queue(qos: .default, label: nil), "ServiceContainerKit.ServiceSafeProvider", .default),
            (.queue(label: "ids"), "ids", .utility),
        ]
        for (kind, label, qos) in cases {
            let queue = try #require(Serializer(kind: kind).primitive?.queue)
            #expect(queue.label == label)
            #expect(queue.qos == qos)
        }
    }

    @Test("A safe provider reports factory errors like a plain one")
    func errors() {
        let provider = ServiceSafeProvider<Service>(mode: .many) { throw TestError(code: 2) }
        let error = #expect(throws: ServiceObtainError.self) { try provider.getService() }
        #expect(error?.error as? TestError == TestError(code: 2))
        #expect(typeList(error?.pathServices ?? []) == typeList([Service.self]))
    }
}

extension Serializer.Primitive {
    /// The queue of the queue kind, else `nil`.
    fileprivate var queue: DispatchQueue? {
        guard case .queue(let queue) = self else { return nil }
        return queue
    }

    /// The semaphore of the semaphore kind, else `nil`.
    fileprivate var semaphore: DispatchSemaphore? {
        guard case .semaphore(let semaphore) = self else { return nil }
        return semaphore
    }
}
