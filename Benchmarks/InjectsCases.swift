import ServiceInjects

/// The cases of `ServiceInjects`: reading a property injected by `@ServiceInject`, against
/// reading a stored property; and a handler made per request with its services injected,
/// against the same handler taking them in `init`.
enum InjectsCases {
    static var all: [BenchmarkCase] {
        [injectedRead(registeredFirst: true), injectedRead(registeredFirst: false)] + handlersPerRequest
            + [waitingReleaseGrowth]
    }

    /// The container the presenters inject from.
    struct Services {
        let service: ServiceProvider<BenchService>
    }

    /// A presenter as an app writes it.
    final class Presenter {
        @ServiceInject(\Services.service)
        var service
    }

    /// The same presenter with the service handed over by hand.
    final class PlainPresenter {
        let service: BenchService

        init(service: BenchService) {
            self.service = service
        }
    }

    static let waitingCount = 10_000
    static let waitingRounds = 10

    /// Making and releasing 10,000 presenters whose container is not registered, all waiting at
    /// once, against ten rounds of 1,000: the release of each cancels its waiter in the registry,
    /// at a cost that must not grow with the number of waiters (it was a pass over them all:
    /// 9.7x). Timed, 10,000 presenters and waiters alive at once outgrow the processor's caches,
    /// which 1,000 do not: about 1.3x, for the same instructions (1.03x).
    static var waitingReleaseGrowth: BenchmarkCase {
        let presenters = Holder(Batches<Presenter>())
        return .growth(
            "injects/waiting release",
            count: waitingCount,
            rounds: waitingRounds,
            baseline: "make and release \(waitingRounds) x \((waitingCount / waitingRounds).formatted) waiting",
            tearDown: { ServiceInjectResolver.removeAll() },
            probe: { Presenter().$service.isReady ? "a presenter found a container registered" : nil },
            setUp: { ServiceInjectResolver.removeAll() }
        ) { count in
            makeAndRelease(count, presenters)
        }
    }

    @inline(never)
    static func makeAndRelease(_ count: Int, _ presenters: Holder<Batches<Presenter>>) {
        presenters.value.fill(1, batchSize: count) { Presenter() }
        presenters.value.releaseOne()
    }

    /// `registeredFirst`: the container exists when the presenter is made, so the service is
    /// injected at once; otherwise it is injected when the container is registered after.
    static func injectedRead(registeredFirst: Bool) -> BenchmarkCase {
        BenchmarkCase(
            "injects/@ServiceInject read" + (registeredFirst ? "" : ", late"),
            baseline: "stored property read",
            target: 1.5
        ) {
            let services = Services(service: ServiceProvider(BenchService(number: 1)))
            ServiceInjectResolver.removeAll()
            let presenter: Presenter
            if registeredFirst {
                ServiceInjectResolver.register(services)
                presenter = Presenter()
            } else {
                presenter = Presenter()
                ServiceInjectResolver.register(services)
            }
            precondition(presenter.$service.isReady, "the service was not injected")
            let plain = PlainPresenter(service: presenter.service)
            let subject = Holder(presenter)
            let baseline = Holder(plain)
            return .init(
                subject: { repeatOperation($0, on: subject, read) },
                baseline: { repeatOperation($0, on: baseline, read) },
                tearDown: { ServiceInjectResolver.removeAll() }
            )
        }
    }

    @inline(never)
    static func read(_ holder: Holder<Presenter>) -> BenchService {
        holder.value.service
    }

    @inline(never)
    static func read(_ holder: Holder<PlainPresenter>) -> BenchService {
        holder.value.service
    }
}

// MARK: - Handlers made per request

/// The container of the per-request handlers: four providers of kept services.
struct RequestServices {
    let first: ServiceProvider<BenchService>
    let second: ServiceProvider<BenchService>
    let third: ServiceProvider<BenchService>
    let fourth: ServiceProvider<BenchService>

    init() {
        first = ServiceProvider(mode: .lazy) { BenchService(number: 1) }
        second = ServiceProvider(mode: .lazy) { BenchService(number: 2) }
        third = ServiceProvider(mode: .lazy) { BenchService(number: 3) }
        fourth = ServiceProvider(mode: .lazy) { BenchService(number: 4) }
    }
}

/// A handler that serves one request with one service, as an app writes it.
final class OneInjectHandler {
    @ServiceInject(\RequestServices.first)
    var first

    func handle() -> Int {
        first.number
    }
}

/// The same handler written by hand: it takes its service from the provider in `init`.
final class OnePlainHandler {
    let first: BenchService

    init(services: RequestServices) {
        first = services.first.getServiceOrFatal()
    }

    func handle() -> Int {
        first.number
    }
}

/// A handler that serves one request with one service injected at its first read.
final class OneLazyHandler {
    @ServiceInject(\RequestServices.first, lazyInject: true)
    var first

    func handle() -> Int {
        first.number
    }
}

/// A handler that serves one request with four services, as an app writes it.
final class FourInjectHandler {
    @ServiceInject(\RequestServices.first)
    var first
    @ServiceInject(\RequestServices.second)
    var second
    @ServiceInject(\RequestServices.third)
    var third
    @ServiceInject(\RequestServices.fourth)
    var fourth

    func handle() -> Int {
        first.number + second.number + third.number + fourth.number
    }
}

/// The same handler written by hand.
final class FourPlainHandler {
    let first: BenchService
    let second: BenchService
    let third: BenchService
    let fourth: BenchService

    init(services: RequestServices) {
        first = services.first.getServiceOrFatal()
        second = services.second.getServiceOrFatal()
        third = services.third.getServiceOrFatal()
        fourth = services.fourth.getServiceOrFatal()
    }

    func handle() -> Int {
        first.number + second.number + third.number + fourth.number
    }
}

extension InjectsCases {
    /// What one injected property may cost over taking its service in `init`, in time and in
    /// instructions: a look-up in the registry (after a task-local read in a process that opened
    /// an isolated scope), a key-path read and the provider's get, made when the handler is made.
    static let nanosecondsPerProperty = 100.0
    static let instructionsPerProperty = 400
    /// What a property injected at its first read may cost: it also makes the cell that
    /// remembers where to inject from, and releases it with the handler.
    static let nanosecondsPerLazyProperty = 400.0
    static let instructionsPerLazyProperty = 3_000

    static var handlersPerRequest: [BenchmarkCase] {
        [
            handlerPerRequest(
                "1 @ServiceInject", services: 1,
                target: .extraNanoseconds(nanosecondsPerProperty), instructions: .extra(instructionsPerProperty),
                subject: serveOneInjected, baseline: serveOnePlain
            ) { $0.handle() },
            handlerPerRequest(
                "4 @ServiceInject", services: 4,
                target: .extraNanoseconds(4 * nanosecondsPerProperty), instructions: .extra(4 * instructionsPerProperty),
                subject: serveFourInjected, baseline: serveFourPlain
            ) { $0.handle() },
            handlerPerRequest(
                "1 lazy inject", services: 1,
                target: .extraNanoseconds(nanosecondsPerLazyProperty), instructions: .extra(instructionsPerLazyProperty),
                subject: serveOneLazy, baseline: serveOnePlain
            ) { $0.handle() },
        ]
    }

    /// A request served by a handler made for it, which reads each of its `services` once and is
    /// released: injected (`subject`) against taking the services in `init` (`baseline`). The
    /// target is a fixed surplus per injected property, whatever the handler costs by itself.
    static func handlerPerRequest<Injected, Plain>(
        _ what: String,
        services count: Int,
        target: TimeTarget?,
        instructions: InstructionCeiling,
        subject: @escaping (Holder<RequestServices>) -> Injected,
        baseline: @escaping (Holder<RequestServices>) -> Plain,
        handle: @escaping (Injected) -> Int
    ) -> BenchmarkCase {
        BenchmarkCase(
            "injects/handler per request, \(what)",
            baseline: "handler taking \(count) service\(count == 1 ? "" : "s") in init",
            target: target,
            instructions: instructions
        ) {
            let services = Holder(RequestServices())
            ServiceInjectResolver.removeAll()
            ServiceInjectResolver.register(services.value)
            return .init(
                subject: { repeatOperation($0, on: services, subject) },
                baseline: { repeatOperation($0, on: services, baseline) },
                tearDown: { ServiceInjectResolver.removeAll() },
                probe: {
                    // Services 1...count, so their numbers add up to 1, or 1 + 2 + 3 + 4.
                    let expected = count * (count + 1) / 2
                    let sum = handle(subject(services))
                    return sum == expected ? nil : "the injected services' numbers add up to \(sum), not \(expected)"
                }
            )
        }
    }

    // Each makes the handler, has it read its services once (a `blackHole` takes the result) and
    // returns it, so that it is made on the heap, as a handler kept by a request's context is;
    // the loop's `blackHole` releases it.

    @inline(never)
    static func serveOneInjected(_ services: Holder<RequestServices>) -> OneInjectHandler {
        let handler = OneInjectHandler()
        blackHole(handler.handle())
        return handler
    }

    @inline(never)
    static func serveOneLazy(_ services: Holder<RequestServices>) -> OneLazyHandler {
        let handler = OneLazyHandler()
        blackHole(handler.handle())
        return handler
    }

    @inline(never)
    static func serveOnePlain(_ services: Holder<RequestServices>) -> OnePlainHandler {
        let handler = OnePlainHandler(services: services.value)
        blackHole(handler.handle())
        return handler
    }

    @inline(never)
    static func serveFourInjected(_ services: Holder<RequestServices>) -> FourInjectHandler {
        let handler = FourInjectHandler()
        blackHole(handler.handle())
        return handler
    }

    @inline(never)
    static func serveFourPlain(_ services: Holder<RequestServices>) -> FourPlainHandler {
        let handler = FourPlainHandler(services: services.value)
        blackHole(handler.handle())
        return handler
    }
}
