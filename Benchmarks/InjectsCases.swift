import ServiceInjects

/// The cases of `ServiceInjects`: reading a property injected by `@ServiceInject`, against
/// reading a stored property.
enum InjectsCases {
    static var all: [BenchmarkCase] {
        [injectedRead(registeredFirst: true), injectedRead(registeredFirst: false)]
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
