/// The 1.x/2.x name of ``ServiceFactoryMode`` (a factory's `factoryType`, now `mode`).
///
/// ```swift
/// struct SettingsFactory: ServiceFactory {
///     let mode: ServiceFactoryMode = .lazy  // was: let factoryType: ServiceFactoryType = .lazy
///     func makeService() throws -> Settings { Settings() }
/// }
/// ```
@available(*, deprecated, renamed: "ServiceFactoryMode")
public typealias ServiceFactoryType = ServiceFactoryMode
