import Foundation
import Testing
@testable import ServiceInjects
import TestSupport

protocol GreetingContainer {
    var greeting: ServiceProvider<Tagged> { get }
}

struct GreetingContainerImpl: GreetingContainer {
    let greeting: ServiceProvider<Tagged>
}

struct OtherGreetingContainer: GreetingContainer {
    let greeting: ServiceProvider<Tagged>
}

extension InjectsTests {
    @Suite struct ServiceInjectResolverTests {
        init() { resetRegistries() }

        @Test func registerAndContains() {
            #expect(!ServiceInjectResolver.contains(TestServices.self))
            ServiceInjectResolver.register(TestServices.make())
            #expect(ServiceInjectResolver.contains(TestServices.self))
            #expect(!ServiceInjectResolver.contains(GreetingContainerImpl.self))
        }

        @Test("A container handed in as an optional is found by the type it holds (a second one is a duplicate: CrashTests)")
        func optionalContainerIsFound() {
            let container: GreetingContainerImpl? = GreetingContainerImpl(greeting: ServiceProvider(Tagged("held")))
            ServiceInjectResolver.register(container)
            #expect(ServiceInjectResolver.contains(GreetingContainerImpl.self))
            @ServiceInject(\GreetingContainerImpl.greeting) var greeting
            #expect(greeting.tag == "held")

            let twice: TestServices?? = TestServices.make()
            ServiceInjectResolver.registerSome([twice as Any])
            #expect(ServiceInjectResolver.contains(TestServices.self))
        }

        @Test("The message of a nil container names the call, its line, the optional's type and what to do")
        func nilContainerMessage() {
            let message = ServiceInjectResolver.nilContainerMessage(
                Optional<TestServices>.self, call: "registerSome(_:)", file: "App/Setup.swift", line: 12
            )
            #expect(message == "ServiceInjectResolver.registerSome(_:) at App/Setup.swift:12: the container, of type "
                + "Swift.Optional<ServiceInjectsTests.TestServices>, is nil: nothing was registered; make the container "
                + "before registering it")
        }

        @Test("A container registered over another keeps it registered, with its services, until it is removed")
        func registeredOverKeepsTheOldOneUntilRemoved() {
            weak var old: Tagged?
            do {
                let service = Tagged("old")
                old = service
                ServiceInjectResolver.register(GreetingContainerImpl(greeting: ServiceProvider(service)))
            }
            ServiceInjectResolver.register(
                GreetingContainerImpl(greeting: ServiceProvider(Tagged("over"))), failureIfContains: false
            )
            do {
                @ServiceInject(\GreetingContainer.greeting) var greeting
                #expect(greeting.tag == "over")
            }
            #expect(old != nil)
            #expect(ServiceInjectResolver.remove(GreetingContainerImpl.self, onlyLast: true))
            do {
                @ServiceInject(\GreetingContainer.greeting) var greeting
                #expect(greeting.tag == "old")
            }
            // The replacement the guide shows: remove the old one, then register the new one.
            #expect(ServiceInjectResolver.remove(GreetingContainerImpl.self))
            ServiceInjectResolver.register(GreetingContainerImpl(greeting: ServiceProvider(Tagged("new"))))
            #expect(old == nil)
            @ServiceInject(\GreetingContainer.greeting) var greeting
            #expect(greeting.tag == "new")
        }

        @Test("Ready handlers run in the order they were added, but those whose tokens were released")
        func readyHandlersRunInOrderButTheReleased() throws {
            let order = Box<[Int]>([])
            var tokens = try (0..<100).map { index in
                try #require(ServiceInjectResolver.addReadyContainerHandler(TestServices.self) { order.value.append(index) })
            }
            let kept = tokens.indices.filter { $0 % 3 != 1 }
            tokens = kept.map { tokens[$0] }  // the others are released, and their waiters cancelled
            #expect(tokens.filter(\.isWaiting).count == kept.count)
            ServiceInjectResolver.register(TestServices.make())
            #expect(order.value == kept)
            #expect(tokens.filter(\.isWaiting).isEmpty)
        }

        @Test("A handler whose token is cancelled while another thread registers, before it runs, does not run", .offThePool)
        func cancelWhileAnotherThreadRegisters() throws {
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let registered = DispatchSemaphore(value: 0)
            let ran = Box(false)
            // The registering thread runs this one first, and waits in it.
            let first = try #require(ServiceInjectResolver.addReadyContainerHandler(TestServices.self) {
                entered.signal()
                release.wait()
            })
            let second = try #require(ServiceInjectResolver.addReadyContainerHandler(TestServices.self) { ran.value = true })
            Thread {
                ServiceInjectResolver.register(TestServices.make())
                registered.signal()
            }.start()
            try waitWithTimeLimit(entered)
            #expect(second.isWaiting)  // taken for the registration, not run yet
            second.cancel()
            #expect(!second.isWaiting)
            release.signal()
            try waitWithTimeLimit(registered)
            #expect(!ran.value)
            #expect(!first.isWaiting)
        }

        @Test("A removeAll() made while a registration runs its ready handlers forgets those it has not run yet")
        func removeAllWhileHandlersRun() throws {
            let ran = Box<[Int]>([])
            let first = try #require(ServiceInjectResolver.addReadyContainerHandler(TestServices.self) {
                ran.value.append(1)
                ServiceInjectResolver.removeAll()
            })
            let second = try #require(ServiceInjectResolver.addReadyContainerHandler(TestServices.self) {
                ran.value.append(2)
            })
            ServiceInjectResolver.register(TestServices.make())
            #expect(ran.value == [1])
            #expect(!second.isWaiting)
            #expect(!ServiceInjectResolver.contains(TestServices.self))
            withExtendedLifetime(first) {}
        }

        @Test func containerRegisteredAsImplementationIsFoundByProtocol() {
            ServiceInjectResolver.register(GreetingContainerImpl(greeting: ServiceProvider(Tagged("impl"))))
            #expect(ServiceInjectResolver.contains(GreetingContainer.self))
            #expect(ServiceInjectResolver.contains(GreetingContainerImpl.self))

            @ServiceInject(\GreetingContainer.greeting) var greeting
            #expect(greeting.tag == "impl")
        }

        @Test func containerRegisteredAsProtocolIsFound() {
            let container: any GreetingContainer = GreetingContainerImpl(greeting: ServiceProvider(Tagged("proto")))
            ServiceInjectResolver.register(container)
            #expect(ServiceInjectResolver.contains(GreetingContainer.self))
            @ServiceInject(\GreetingContainer.greeting) var greeting
            #expect(greeting.tag == "proto")
        }

        @Test func newestRegistrationIsResolvedFirst() {
            ServiceInjectResolver.register(GreetingContainerImpl(greeting: ServiceProvider(Tagged("old"))))
            ServiceInjectResolver.register(OtherGreetingContainer(greeting: ServiceProvider(Tagged("new"))))
            @ServiceInject(\GreetingContainer.greeting) var greeting
            #expect(greeting.tag == "new")
            @ServiceInject(\GreetingContainerImpl.greeting) var implGreeting
            #expect(implGreeting.tag == "old")
        }

        @Test func sameTypeRegisteredTwiceWithoutFailure() {
            let logger = RecordingInjectLogger()
            logger.register()
            defer { logger.unregister() }
            ServiceInjectResolver.register(TestServices.make(tag: "one"))
            ServiceInjectResolver.register(TestServices.make(tag: "two"), failureIfContains: false)
            @ServiceInject(\TestServices.tagged) var tagged
            #expect(tagged.tag == "two")
            #expect(logger.recorded.isEmpty)
            #expect(ServiceInjectResolver.registry.counts.entries == 2)
        }

        @Test func registerSomeRegistersEveryContainer() {
            let waiting = Counter()
            let token = ServiceInjectResolver.addReadyContainerHandler(GreetingContainer.self) { waiting.increment() }
            ServiceInjectResolver.registerSome([
                TestServices.make(),
                GreetingContainerImpl(greeting: ServiceProvider(Tagged("first"))),
                OtherGreetingContainer(greeting: ServiceProvider(Tagged("second"))),
            ])
            #expect(ServiceInjectResolver.contains(TestServices.self))
            #expect(ServiceInjectResolver.contains(GreetingContainerImpl.self))
            #expect(ServiceInjectResolver.contains(OtherGreetingContainer.self))
            #expect(waiting.value == 1)
            #expect(token?.isWaiting == false)
            @ServiceInject(\GreetingContainer.greeting) var greeting
            #expect(greeting.tag == "second")
        }

        @Test func pendingInjectionTakesTheNewestOfSeveralRegisteredAtOnce() {
            @ServiceInject(\GreetingContainer.greeting) var greeting
            #expect(!$greeting.isReady)
            ServiceInjectResolver.registerSome([
                GreetingContainerImpl(greeting: ServiceProvider(Tagged("first"))),
                OtherGreetingContainer(greeting: ServiceProvider(Tagged("second"))),
            ])
            #expect($greeting.isReady)
            #expect(greeting.tag == "second")
        }

        @Test(arguments: [false, true])
        func removeRemovesAllOrTheNewest(onlyLast: Bool) {
            ServiceInjectResolver.register(GreetingContainerImpl(greeting: ServiceProvider(Tagged("old"))))
            ServiceInjectResolver.register(OtherGreetingContainer(greeting: ServiceProvider(Tagged("new"))))
            #expect(ServiceInjectResolver.remove(GreetingContainer.self, onlyLast: onlyLast))
            #expect(ServiceInjectResolver.contains(GreetingContainerImpl.self) == onlyLast)
            #expect(!ServiceInjectResolver.contains(OtherGreetingContainer.self))
            #expect(ServiceInjectResolver.remove(GreetingContainer.self) == onlyLast)
            #expect(!ServiceInjectResolver.remove(GreetingContainer.self, onlyLast: true))
        }

        @Test func removedContainerKeepsInjectedServices() {
            ServiceInjectResolver.register(TestServices.make(tag: "kept"))
            @ServiceInject(\TestServices.tagged) var tagged
            ServiceInjectResolver.remove(TestServices.self)
            #expect(!ServiceInjectResolver.contains(TestServices.self))
            #expect(tagged.tag == "kept")
        }

        @Test func readyHandlerRunsAtOnceWhenRegistered() {
            ServiceInjectResolver.register(TestServices.make())
            let calls = Counter()
            let token = ServiceInjectResolver.addReadyContainerHandler(TestServices.self) { calls.increment() }
            #expect(token == nil)
            #expect(calls.value == 1)
        }

        @Test func readyHandlerRunsOnceAtRegistration() throws {
            let calls = Counter()
            let token = try #require(
                ServiceInjectResolver.addReadyContainerHandler(GreetingContainer.self) { calls.increment() }
            )
            #expect(token.isWaiting)
            #expect(calls.value == 0)
            ServiceInjectResolver.register(TestServices.make())
            #expect(calls.value == 0)
            ServiceInjectResolver.register(GreetingContainerImpl(greeting: ServiceProvider(Tagged("a"))))
            #expect(calls.value == 1)
            #expect(!token.isWaiting)
            ServiceInjectResolver.register(OtherGreetingContainer(greeting: ServiceProvider(Tagged("b"))))
            #expect(calls.value == 1)
        }

        @Test func readyHandlerWaitsWhileItsTokenIsKeptAndCanBeCancelled() throws {
            let kept = Counter()
            let cancelled = Counter()
            let released = Counter()
            let keptToken = ServiceInjectResolver.addReadyContainerHandler(TestServices.self) { kept.increment() }
            let token = try #require(
                ServiceInjectResolver.addReadyContainerHandler(TestServices.self) { cancelled.increment() }
            )
            var releasedToken = ServiceInjectResolver.addReadyContainerHandler(TestServices.self) {
                released.increment()
            }
            #expect(releasedToken?.isWaiting == true)
            releasedToken = nil
            token.cancel()
            #expect(!token.isWaiting)
            #expect(ServiceInjectResolver.registry.counts.waiters == 1)
            ServiceInjectResolver.register(TestServices.make())
            #expect(kept.value == 1)
            #expect(cancelled.value == 0)
            #expect(released.value == 0)
            withExtendedLifetime(keptToken) {}
        }

        @Test func readyHandlerMayRegisterAnotherContainer() {
            let calls = Counter()
            let chain = ServiceInjectResolver.addReadyContainerHandler(TestServices.self) {
                ServiceInjectResolver.register(GreetingContainerImpl(greeting: ServiceProvider(Tagged("chained"))))
            }
            let greeting = ServiceInjectResolver.addReadyContainerHandler(GreetingContainer.self) { calls.increment() }
            ServiceInjectResolver.register(TestServices.make())
            #expect(ServiceInjectResolver.contains(GreetingContainerImpl.self))
            #expect(calls.value == 1)
            withExtendedLifetime((chain, greeting)) {}
        }

        @Test func removeAllForgetsContainersAndWaiters() {
            let calls = Counter()
            ServiceInjectResolver.register(TestServices.make())
            let token = ServiceInjectResolver.addReadyContainerHandler(GreetingContainer.self) { calls.increment() }
            @ServiceInject(\GreetingContainer.greeting) var greeting
            #expect(ServiceInjectResolver.registry.counts == (1, 2))

            ServiceInjectResolver.removeAll()
            #expect(ServiceInjectResolver.registry.counts == (0, 0))
            #expect(!ServiceInjectResolver.contains(TestServices.self))

            ServiceInjectResolver.register(GreetingContainerImpl(greeting: ServiceProvider(Tagged("after"))))
            #expect(calls.value == 0)
            #expect(!$greeting.isReady)
            // A first read still resolves from what is registered by then.
            #expect(greeting.tag == "after")
            withExtendedLifetime(token) {}
        }

        @Test func releasedWrapperLeavesNoWaiter() {
            do {
                @ServiceInject(\TestServices.tagged) var tagged
                #expect(!$tagged.isReady)
                #expect(ServiceInjectResolver.registry.counts.waiters == 1)
            }
            #expect(ServiceInjectResolver.registry.counts.waiters == 0)
        }

        @Test("Waiters give their room back once they are gone, released or run by a registration")
        func waitersGiveTheirRoomBack() {
            let registry = ServiceInjectResolver.registry
            let kept = InjectRegistry.keptWaiterCapacity
            // More waiters than the tables keep room for once they are gone: ready handlers,
            // which wait in the same table as the properties, and cost less to make.
            let count = kept + 4_000
            let ran = Counter()
            func waitingHandlers() -> [ServiceInjectReadyToken?] {
                (0..<count).map { _ in ServiceInjectResolver.addReadyContainerHandler(TestServices.self) { ran.increment() } }
            }
            // Released but for the last 1,000: the table is made smaller with those still in it,
            // and the registration runs each of them once.
            var tokens = waitingHandlers()
            #expect(registry.counts.waiters == count)
            #expect(registry.waiterCapacities.waiting >= count)
            tokens.removeFirst(count - 1_000)
            #expect(registry.counts.waiters == 1_000)
            #expect(registry.waiterCapacities.waiting <= kept)
            ServiceInjectResolver.register(TestServices.make())
            #expect(ran.value == 1_000)
            #expect(registry.counts.waiters == 0)

            // Run by a registration, all of them.
            ServiceInjectResolver.removeAll()
            tokens = waitingHandlers()
            #expect(registry.waiterCapacities.waiting >= count)
            ServiceInjectResolver.register(TestServices.make())
            #expect(ran.value == 1_000 + count)
            #expect(registry.counts.waiters == 0)
            #expect(registry.waiterCapacities.waiting <= kept)
            #expect(registry.waiterCapacities.firing <= kept)
            withExtendedLifetime(tokens) {}
        }
    }
}
