import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

/// A service of the main actor, as a view model is.
@MainActor
private final class ViewModel {
    let number: Int
    init(number: Int) { self.number = number }
}

/// A factory of the main actor that counts its calls and fails the first `failures` of them.
@MainActor
private final class ViewModelFactory: ServiceMainActorFactory {
    let mode: ServiceFactoryMode
    let failures: Int
    var calls = 0  // main-actor state, used without a lock

    init(mode: ServiceFactoryMode, failures: Int = 0) {
        self.mode = mode
        self.failures = failures
    }

    func makeService() throws -> ViewModel {
        calls += 1
        if calls <= failures { throw TestError(code: calls) }
        return ViewModel(number: calls)
    }
}

/// Gets the service from outside the main actor: the compiler asks for the `await`. (The
/// factories and `ViewModel.init` are isolated to the main actor, so the compiler also sees
/// that they run there.)
private nonisolated func getElsewhere(_ provider: ServiceMainActorProvider<ViewModel>) async throws -> ViewModel {
    try await provider.getService()
}

/// Awaits an async provider's service from outside the main actor.
private nonisolated func getAsyncElsewhere(_ provider: ServiceAsyncProvider<ViewModel>) async throws -> ViewModel {
    try await provider.getService()
}

/// A container of main-actor providers, built in a synchronous function that is not isolated to
/// the main actor, as an app's container builder is; the factories count their calls.
private struct OffMainServices: Sendable {
    let atOne: ServiceMainActorProvider<ViewModel>
    let failingAtOne: ServiceMainActorProvider<ViewModel>
    let lazy: ServiceMainActorProvider<ViewModel>
    let weak: ServiceMainActorProvider<ViewModel>
    let many: ServiceMainActorProvider<ViewModel>
    let calls: Counter

    nonisolated static func make() -> OffMainServices {
        let calls = Counter()
        let make: @MainActor () throws -> ViewModel = { ViewModel(number: calls.increment()) }
        return OffMainServices(
            atOne: ServiceMainActorProvider(mode: .atOne, factory: make),
            failingAtOne: ServiceMainActorProvider(mode: .atOne) { throw TestError(code: calls.increment()) },
            lazy: ServiceMainActorProvider(mode: .lazy, factory: make),
            weak: ServiceMainActorProvider(mode: .weak, factory: make),
            many: ServiceMainActorProvider(mode: .many, factory: make),
            calls: calls
        )
    }
}

@MainActor
@Suite("Main-actor providers")
struct MainActorProviderTests {
    @Test("Made off the main actor, providers of every mode make nothing until their first get")
    func madeOffTheMainActor() async throws {
        let services = await Task.detached { OffMainServices.make() }.value
        #expect(services.calls.value == 0, "an atOne service made off the main actor waits for its first get")
        #expect(try services.atOne.getService().number == 1)
        #expect(try services.atOne.getService().number == 1)
        // A failed atOne making is kept, as when it is made at once.
        for _ in 0..<2 {
            let error = #expect(throws: ServiceObtainError.self) { try services.failingAtOne.getService() }
            #expect(error?.error as? TestError == TestError(code: 2))
        }
        #expect(try services.lazy.getService() === services.lazy.getService())
        let held = try services.weak.getService()
        #expect(try services.weak.getService() === held)
        #expect(try services.many.getService() !== services.many.getService())
        #expect(services.calls.value == 6)
    }

    @Test("Made on the main actor, an atOne provider of a closure makes its service at once")
    func closureAtOneOnTheMainActor() throws {
        let services = OffMainServices.make()
        #expect(services.calls.value == 2, "both atOne services are made with their providers")
        #expect(try services.atOne.getService().number == 1)
        #expect(services.calls.value == 2)
    }
    @Test("An atOne service is made on the main actor when the provider is made")
    func atOne() throws {
        let factory = ViewModelFactory(mode: .atOne)
        let provider = factory.serviceMainActorProvider()
        #expect(factory.calls == 1)
        #expect(try provider.getService() === provider.getService())
        #expect(factory.calls == 1)
    }

    @Test("A failed atOne factory's error is kept for every get")
    func atOneFailure() {
        let factory = ViewModelFactory(mode: .atOne, failures: 1)
        let provider = ServiceMainActorProvider(factory: factory)
        for _ in 0..<2 {
            #expect(provider.getServiceAsResult().failure?.error as? TestError == TestError(code: 1))
        }
        #expect(factory.calls == 1)
    }

    @Test("A lazy service is made once; a failed making is tried again on the next get")
    func lazy() throws {
        let factory = ViewModelFactory(mode: .lazy, failures: 1)
        let provider = ServiceMainActorProvider(factory: factory)
        #expect(factory.calls == 0)
        #expect(provider.getServiceAsOptional() == nil)
        let service = try provider.getService()
        #expect(service.number == 2)
        #expect(try provider.getService() === service)
        #expect(factory.calls == 2)
    }

    @Test("A weak service lives while it is held, and is made again once it died")
    func weak() throws {
        let factory = ViewModelFactory(mode: .weak)
        let provider = ServiceMainActorProvider(factory: factory)
        var held: ViewModel? = try provider.getService()
        #expect(try provider.getService() === held)
        #expect(held?.number == 1)
        held = nil
        #expect(try provider.getService().number == 2)
        withExtendedLifetime(held) {}
    }

    @Test("A many service is made on every get; an instance is always the same")
    func manyAndInstance() throws {
        let provider = ServiceMainActorProvider(mode: .many) { ViewModel(number: 7) }
        #expect(try provider.getService() !== provider.getService())
        let model = ViewModel(number: 1)
        #expect(try ServiceMainActorProvider(model).getService() === model)
    }

    @Test("Code off the main actor awaits the service")
    func fromElsewhere() async throws {
        let factory = ViewModelFactory(mode: .lazy)
        let provider = ServiceMainActorProvider(factory: factory)
        let service = try await getElsewhere(provider)
        #expect(try provider.getService() === service)
        #expect(factory.calls == 1)
    }

    @Test("A @MainActor closure given to an async provider runs on the main actor")
    func asyncProviderOfAMainActorService() async throws {
        // The main actor runs its jobs on the main queue, on whichever thread drains it: the
        // queue's specific value tells where a job runs, whatever the thread.
        let key = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        defer { DispatchQueue.main.setSpecific(key: key, value: nil) }
        let provider = ServiceAsyncProvider(mode: .lazy) { @MainActor in
            ViewModel(number: DispatchQueue.getSpecific(key: key) ?? 0)
        }
        let service = try await getAsyncElsewhere(provider)
        #expect(service.number == 1)
        #expect(try await provider.getService() === service)
    }

    @Test("An async get runs on its caller's executor: a wrapped synchronous provider is made on the main actor")
    func asyncGetStaysOnTheCallersExecutor() async throws {
        let key = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        defer { DispatchQueue.main.setSpecific(key: key, value: nil) }
        // A plain provider's factory runs wherever its get runs: here, in the async get.
        let onMainQueue = ServiceAsyncProvider(ServiceProvider<Service>(mode: .many) {
            Service(number: DispatchQueue.getSpecific(key: key) ?? 0)
        })
        #expect(try await onMainQueue.getService().number == 1, "awaited on the main actor, the get ran there")
        #expect(await onMainQueue.getServiceAsOptional()?.number == 1)
        #expect(try await onMainQueue.getServiceAsResult().get().number == 1)
        let elsewhere = await Task.detached { try? await onMainQueue.getService() }.value
        #expect(elsewhere?.number == 0, "awaited off the main actor, the get ran there")
    }

    @Test("A factory that gets its own service fails with a cycle")
    func cycle() {
        final class Holder {
            var provider: ServiceMainActorProvider<ViewModel>?
        }
        let holder = Holder()
        holder.provider = ServiceMainActorProvider(mode: .lazy) {
            _ = try holder.provider?.getService()
            return ViewModel(number: 0)
        }
        let error = holder.provider?.getServiceAsResult().failure
        #expect(error?.isDependencyCycle == true)
        #expect(typeList(error?.pathServices ?? []) == typeList([ViewModel.self, ViewModel.self]))
    }

    @Test("getServiceOrFatal stops the program with the fatal message")
    func orFatal() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let provider = ServiceMainActorProvider<Int>(mode: .lazy) { throw TestError(code: 78) }
                _ = provider.getServiceOrFatal()
            }
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("Failed to obtain service Swift.Int with error: TestError(code: 78)"))
        }
    }
}
