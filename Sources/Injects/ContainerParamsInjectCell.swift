/// A params cell whose service comes from a params provider of the registered `Container`.
final class ContainerParamsInjectCell<Container, Service, Params>: ParamsInjectCell<Service, Params>,
    @unchecked Sendable
{
    // Immutable.
    let make: (Container, Params) -> Service

    init(lazyInject: Bool, site: InjectSite, make: @escaping (Container, Params) -> Service) {
        self.make = make
        super.init(lazyInject: lazyInject, site: site)
    }

    var registry: InjectRegistry { ServiceInjectResolver.registry }

    override func injectNowOrWait(params: Params) -> Service? {
        let make = self.make
        return injectNowOrWait(from: registry, Container.self) { make($0, params) }
    }

    override func obtainAtFirstRead(params: Params) -> Service {
        make(registry.resolve(Container.self, orCrashAt: site), params)
    }
}
