import Foundation
import Testing
@testable import ServiceInjects
import TestSupport

/// Wrappers of a `Sendable` service make a `Sendable` holder.
struct SendableDependencies: Sendable {
    @ServiceInject(\TestServices.lazyTagged, lazyInject: true) var lazyTagged
}

struct NumberedContainer {
    let number: Int
    let service: ServiceProvider<Tagged>
}

extension InjectsTests {
    // The threads of these tests wait for the registries' locks and for each other: each runs
    // them inside a time limit, so that a deadlock fails the test instead of stalling the run.
    @Suite struct ConcurrencyTests {
        init() { resetRegistries() }

        static let threads = 8
        static let perThread = 50

        @Test(.offThePool) func concurrentRegistrationsAreAllKept() throws {
            let handlers = Counter()
            let tokens = Counter()
            try withTimeLimit {
                DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                    for index in 0..<Self.perThread {
                        let number = thread * Self.perThread + index
                        ServiceInjectResolver.register(
                            NumberedContainer(number: number, service: ServiceProvider(Tagged("\(number)"))),
                            failureIfContains: false
                        )
                        // Registered just before: the handler runs at once and there is no token.
                        let token = ServiceInjectResolver.addReadyContainerHandler(NumberedContainer.self) {
                            handlers.increment()
                        }
                        if token != nil { tokens.increment() }
                        _ = ServiceInjectResolver.contains(NumberedContainer.self)
                    }
                }
            }
            #expect(tokens.value == 0, "a handler waited although its container was registered")
            let total = Self.threads * Self.perThread
            #expect(ServiceInjectResolver.registry.counts == (total, 0))
            #expect(handlers.value == total)
            for _ in 0..<total {
                #expect(ServiceInjectResolver.remove(NumberedContainer.self, onlyLast: true))
            }
            #expect(!ServiceInjectResolver.contains(NumberedContainer.self))
        }

        @Test(.offThePool) func wrappersWaitingOnManyThreadsAreInjectedOnceByABackgroundRegistration() throws {
            let total = Self.threads * Self.perThread
            let presenters = Box<[TestPresenter?]>(Array(repeating: nil, count: total))
            let lock = NSLock()
            let readyCalls = Counter()
            let registered = DispatchSemaphore(value: 0)
            let made = Counter()

            DispatchQueue.global().async {
                ServiceInjectResolver.register(TestServices.make(tag: "bg", made: made))
                registered.signal()
            }
            try withTimeLimit {
                DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                    for index in 0..<Self.perThread {
                        let presenter = TestPresenter()
                        presenter.$tagged.setReadyHandler { _ in readyCalls.increment() }
                        lock.withLock { presenters.value[thread * Self.perThread + index] = presenter }
                    }
                }
            }
            try waitWithTimeLimit(registered, "the registration on another thread")
            #expect(readyCalls.value == total)
            // Lazy reads from many threads make the lazy service once.
            let tags = Box<Set<String>>([])
            try withTimeLimit {
                DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                    for index in 0..<Self.perThread {
                        let presenter = lock.withLock { presenters.value[thread * Self.perThread + index] }
                        let seen = [presenter?.tagged.tag ?? "none", presenter?.lazyTagged.tag ?? "none"]
                        lock.withLock { tags.value.formUnion(seen) }
                    }
                }
            }
            #expect(tags.value == ["bg", "lazy-bg"])
            #expect(made.value == 1)
            #expect(ServiceInjectResolver.registry.counts.waiters == 0)
        }

        @Test(.offThePool) func firstReadsRacingOnOneWrapperAgreeOnTheValue() throws {
            ServiceInjectResolver.register(TestServices.make(tag: "race"))
            for _ in 0..<20 {
                let presenter = SendableDependencies()
                let seen = Box<[ObjectIdentifier?]>(Array(repeating: nil, count: Self.threads))
                let handlerCalls = Counter()
                presenter.$lazyTagged.setReadyHandler { _ in handlerCalls.increment() }
                let lock = NSLock()
                try withTimeLimit {
                    DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                        let id = ObjectIdentifier(presenter.lazyTagged)
                        lock.withLock { seen.value[thread] = id }
                    }
                }
                #expect(Set(seen.value).count == 1)
                #expect(handlerCalls.value == 1)
            }
        }

        @Test(.offThePool) func entityTokensFromManyThreads() throws {
            let injected = Counter()
            try withTimeLimit {
                DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                    for index in 0..<Self.perThread {
                        let token = EntityInjectResolver.register(ScreenImpl("\(thread)-\(index)"))
                        @EntityInject(Screen.self) var screen
                        if $screen.isReady { injected.increment() }
                        withExtendedLifetime(token) {}
                    }
                }
            }
            #expect(injected.value == Self.threads * Self.perThread)
            #expect(EntityInjectResolver.registry.counts == (0, 0))
        }
    }
}
