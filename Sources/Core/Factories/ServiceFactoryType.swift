/// The 1.x/2.x name of ``ServiceFactoryMode`` (a factory's `factoryType`, now `mode`).
@available(*, deprecated, renamed: "ServiceFactoryMode")
public typealias ServiceFactoryType = ServiceFactoryMode
