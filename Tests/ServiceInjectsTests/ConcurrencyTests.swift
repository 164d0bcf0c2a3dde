import Foundation
import Testing
@testable import ServiceInjects

/// Wrappers of a `Sendable` service make a `Sendable` holder.
struct SendableDependencies: Sendable {
    @ServiceInject(\TestServices.lazyTagged, lazyInject: true) var lazyTagged
}

struct NumberedContainer {
    let number: Int
    let service: ServiceProvider<Tagged>
}

extension InjectsTests {
    @Suite struct ConcurrencyTests {
        init() { resetRegistries() }

        static let threads = 8
        static let perThread = 50

        @Test func concurrentRegistrationsAreAllKept() {
            let handlers = Counter()
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
                    #expect(token == nil)
                    _ = ServiceInjectResolver.contains(NumberedContainer.self)
                }
            }
            let total = Self.threads * Self.perThread
            #expect(ServiceInjectResolver.registry.counts == (total, 0))
            #expect(handlers.value == total)
            for _ in 0..<total {
                #expect(ServiceInjectResolver.remove(NumberedContainer.self, onlyLast: true))
            }
            #expect(!ServiceInjectResolver.contains(NumberedContainer.self))
        }

        @Test func wrappersWaitingOnManyThreadsAreInjectedOnceByABackgroundRegistration() {
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
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<Self.perThread {
                    let presenter = TestPresenter()
                    presenter.$tagged.setReadyHandler { _ in readyCalls.increment() }
                    lock.withLock { presenters.value[thread * Self.perThread + index] = presenter }
                }
            }
            registered.wait()
            #expect(readyCalls.value == total)
            // Lazy reads from many threads make the lazy service once.
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<Self.perThread {
                    let presenter = lock.withLock { presenters.value[thread * Self.perThread + index] }
                    #expect(presenter?.tagged.tag == "bg")
                    #expect(presenter?.lazyTagged.tag == "lazy-bg")
                }
            }
            #expect(made.value == 1)
            #expect(ServiceInjectResolver.registry.counts.waiters == 0)
        }

        @Test func firstReadsRacingOnOneWrapperAgreeOnTheValue() {
            ServiceInjectResolver.register(TestServices.make(tag: "race"))
            for _ in 0..<20 {
                let presenter = SendableDependencies()
                let seen = Box<[ObjectIdentifier?]>(Array(repeating: nil, count: Self.threads))
                let handlerCalls = Counter()
                presenter.$lazyTagged.setReadyHandler { _ in handlerCalls.increment() }
                let lock = NSLock()
                DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                    let id = ObjectIdentifier(presenter.lazyTagged)
                    lock.withLock { seen.value[thread] = id }
                }
                #expect(Set(seen.value).count == 1)
                #expect(handlerCalls.value == 1)
            }
        }

        @Test func entityTokensFromManyThreads() {
            let injected = Counter()
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<Self.perThread {
                    let token = EntityInjectResolver.register(ScreenImpl("\(thread)-\(index)"))
                    @EntityInject(Screen.self) var screen
                    if $screen.isReady { injected.increment() }
                    withExtendedLifetime(token) {}
                }
            }
            #expect(injected.value == Self.threads * Self.perThread)
            #expect(EntityInjectResolver.registry.counts == (0, 0))
        }
    }
}
