/// Gets services from providers for the wrappers, crashing at the inject site on failure.
///
/// Inlined into the wrappers' code, which is specialized for the service: the get is then the
/// provider's own inlined get.
@usableFromInline
enum ServiceInjectProviding {
    @inlinable @inline(__always)
    static func service<Service>(_ provider: ServiceProvider<Service>, site: InjectSite) -> Service {
        do {
            return try provider.getService()
        } catch {
            InjectFailure.providerFailed(error, site: site)
        }
    }

    /// The service for the property of `cell`, injected at its first read or once its container
    /// was registered, after its object was made: a scoped service only in the scope that the
    /// object was made in (`InjectFailure.checkScope`).
    @inlinable @inline(__always)
    static func service<Service, Value>(_ provider: ServiceProvider<Service>, injectedBy cell: InjectCell<Value>) -> Service {
        if provider.isScoped {
            InjectFailure.checkScope(of: Service.self, madeIn: cell.madeInScope, site: cell.site)
        }
        return service(provider, site: cell.site)
    }

    @inlinable
    static func service<Service, Params>(
        _ provider: ServiceParamsProvider<Service, Params>,
        params: Params,
        site: InjectSite
    ) -> Service {
        do {
            return try provider.getService(params: params)
        } catch {
            InjectFailure.providerFailed(error, site: site)
        }
    }
}
