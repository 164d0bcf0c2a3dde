/// Gets services from providers for the wrappers, crashing at the inject site on failure.
@usableFromInline
enum ServiceInjectProviding {
    /// The service of `provider`, for a wrapper injected when it is made; specialized in its
    /// initializer, so that the get is the provider's inlined get.
    @inlinable @inline(__always)
    static func service<Service>(
        _ provider: ServiceProvider<Service>,
        wrapper: StaticString,
        file: StaticString,
        line: UInt
    ) -> Service {
        do {
            return try provider.getService()
        } catch {
            InjectFailure.providerFailed(error, site: InjectSite(wrapper: wrapper, file: file, line: line))
        }
    }

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
