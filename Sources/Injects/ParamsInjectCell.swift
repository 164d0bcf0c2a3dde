/// A cell whose service is made from params, which may be given after the cell is made.
@usableFromInline
class ParamsInjectCell<Service, Params>: InjectCell<Service>, @unchecked Sendable {
    final let lazyInject: Bool
    // Guarded by `lock`.
    private final var params: Params?
    private final var hasParams = false

    init(lazyInject: Bool, site: InjectSite) {
        self.lazyInject = lazyInject
        super.init(site: site)
    }

    /// Takes the params; injects now or when the container is registered, unless lazy.
    ///
    /// - Returns: the service when it was injected now.
    @discardableResult
    final func setParameters(_ params: Params, lazyInject lazy: Bool?, call: InjectSite) -> Service? {
        lock.withLock {
            if hasParams || stored != nil {
                let message = InjectFailure.paramsAlreadySetMessage(
                    service: Service.self, injected: stored != nil, site: site, call: call
                )
                InjectFailure.crash(message, site: site)
            }
            self.params = params
            hasParams = true
        }
        return lazy ?? lazyInject ? nil : injectNowOrWait(params: params)
    }

    /// Injects with `params` now, or as soon as the container is registered.
    func injectNowOrWait(params: Params) -> Service? { preconditionFailure("overridden by every subclass") }

    /// Makes the service with `params` at a first read; crashes when it cannot.
    func obtainAtFirstRead(params: Params) -> Service { preconditionFailure("overridden by every subclass") }

    final override func obtainAtFirstRead() -> Service {
        let params: Params? = lock.withLock { hasParams ? self.params : nil }
        guard let params else {
            let message = InjectFailure.missingParamsMessage(service: Service.self, params: Params.self, site: site)
            InjectFailure.crash(message, site: site)
        }
        return obtainAtFirstRead(params: params)
    }
}
