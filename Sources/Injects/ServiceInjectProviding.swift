/// Gets services from providers for the wrappers, crashing at the inject site on failure.
enum ServiceInjectProviding {
    static func service<Service>(_ provider: ServiceProvider<Service>, site: InjectSite) -> Service {
        switch provider.getServiceAsResult() {
        case .success(let service): return service
        case .failure(let error): InjectFailure.providerFailed(error, site: site)
        }
    }

    static func service<Service, Params>(
        _ provider: ServiceParamsProvider<Service, Params>,
        params: Params,
        site: InjectSite
    ) -> Service {
        switch provider.getServiceAsResult(params: params) {
        case .success(let service): return service
        case .failure(let error): InjectFailure.providerFailed(error, site: site)
        }
    }
}
