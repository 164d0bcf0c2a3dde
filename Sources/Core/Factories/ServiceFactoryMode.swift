/// How a ``ServiceFactory``'s service is made and kept by its provider.
///
/// ```swift
/// // Made on the first get, then the same for every get:
/// let settings = ServiceProvider<Settings>(mode: .lazy) { try Settings.load() }
/// // A new one for every get:
/// let builder = ServiceProvider<ReportBuilder>(mode: .many) { ReportBuilder() }
/// ```
public enum ServiceFactoryMode: Sendable, Hashable {
    /// One instance, made at once when the provider is made; the factory is not kept. If making
    /// it fails, the provider returns that error on every get.
    case atOne
    /// One instance, made on the first get; the factory is released once it succeeds. A failed
    /// get leaves the provider as it was, and the next get tries again.
    case lazy
    /// One instance while somebody holds it: made on a get when none is alive, kept only weakly.
    /// The service must be a class instance; a value-type service is made on every get.
    case weak
    /// A new instance on every get.
    case many
    /// One instance per ``ServiceScope``, made on the first get in the current scope and closed
    /// with it (when it is a ``ClosableService``). A get with no current scope, or in a closed
    /// one, fails; a singleton whose making gets it fails as a captive dependency.
    case scoped
}
