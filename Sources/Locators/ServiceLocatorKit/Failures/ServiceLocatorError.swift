import Foundation

/// Why a locator could not give a service or refused a change.
///
/// A factory that fails is not a locator error: `tryService` passes the provider's
/// `ServiceObtainError` through unchanged.
///
/// ```swift
/// do {
///     let settings = try locator.tryService(key: ServiceLocatorEasyKey<Settings>())
/// } catch let error as ServiceLocatorError {
///     print(error)  // "Service App.Settings not found for key 'App.Settings': nothing is stored under the key, ..."
/// }
/// ```
public enum ServiceLocatorError: Error, LocalizedError, CustomStringConvertible {
    /// No `service` (the type asked for) is stored for `key` in the locator or its parents.
    ///
    /// `stored` is the type of the service the nearest slot of `key` holds instead (two key
    /// types share one `storeKey`). When the slot is empty and `key` is the slot of `service`
    /// itself, `stored` is a type stored under its own slot that is a `service`, if there is one:
    /// an implementation of the protocol `service` added as itself rather than as the protocol,
    /// or else the optional of such a type (`Settings?`: a value added while optional, or a
    /// provider of an optional); or else the type under which a service that is a `service` was
    /// added (a `ConsoleAnalytics` added as `Analytics`, for a miss of `ConsoleAnalytics`), when
    /// its slot holds that service ready. Otherwise it is `nil`. As in 2.0.1, a slot holding
    /// another type is "not found" for this key.
    case serviceNotFound(key: ServiceLocatorKeyID, service: Any.Type, stored: Any.Type? = nil)

    /// The params given do not fit the service stored for `key`.
    ///
    /// `expected` is the params type the service takes (`nil`: it takes none); `received` is the
    /// type of the params given (`nil`: none were given).
    case wrongParams(key: ServiceLocatorKeyID, service: Any.Type, expected: Any.Type?, received: Any.Type?)

    /// `removeService` found nothing under `key` in the locator it was called on, while a parent
    /// of that locator stores a service under it: a locator removes only its own services.
    case storedInParent(key: ServiceLocatorKeyID, service: Any.Type)

    /// `locator` is read-only, so `change` was refused and nothing changed.
    case readOnly(locator: Any.Type, change: String)

    /// `locator` denies clones, so an empty locator was given instead of a copy.
    case cloneDenied(locator: Any.Type)

    /// Setting the parent would make the parent chain of a `locator` loop back to itself.
    case parentCycle(locator: Any.Type)

    /// The shared `locator` was asked for before it was set up.
    case sharedRequireSetup(locator: Any.Type)

    /// The shared `locator` is read-only and may not be replaced.
    case sharedReadOnly(locator: Any.Type)

    /// A sentence naming the locator or service and the cause.
    ///
    /// ```swift
    /// do {
    ///     _ = try AppLocator.shared.tryLocator()
    /// } catch {
    ///     print(error.errorDescription ?? "")  // "Shared ServiceEasyLocatorKit.ServiceEasyLocator is not set up; ..."
    /// }
    /// ```
    public var errorDescription: String? {
        switch self {
        case let .serviceNotFound(key, service, nil) where service == Any.self && key.serviceType == nil:
            // A key whose type is not known (an Objective-C key made from a store key alone).
            return "No service found for key '\(key)': nothing is stored under it, and it names no stored type, or "
                + "is the short name of more than one (give a type's full name, such as App.Item)"
        case let .serviceNotFound(key, service, nil):
            // A get's miss and a remove's (one that found the key in a parent is `.storedInParent`).
            return "Service \(TypeName.of(service)) not found for key '\(key)': nothing is stored under the key, in the "
                + "locator or its parents; add it (addService) before a get asks for it"
        case let .serviceNotFound(key, service, stored?)
        where key.serviceType == service && TypeRelation.isType(stored, a: service):
            return "Service \(TypeName.of(service)) not found; \(TypeName.of(stored)) is registered (under its own "
                + "type): register it as \(TypeName.of(service)), or ask for \(TypeName.of(stored))"
        case let .serviceNotFound(key, service, stored?)
        where key.serviceType == service && TypeRelation.wrapped(in: service) == nil
            && TypeRelation.wrapped(in: stored).map { TypeRelation.isType($0, a: service) } == true:
            return "Service \(TypeName.of(service)) not found; \(TypeName.of(stored)) is registered (under its own "
                + "type): a service registered as an optional is kept under the optional's type; register it as "
                + "\(TypeName.of(service)), not as an optional (unwrap a value before adding it; make a factory or "
                + "closure give \(TypeName.of(service))), or ask for \(TypeName.of(stored))"
        case let .serviceNotFound(key, service, stored?)
        where key.serviceType == service
            && TypeRelation.wrapped(in: service).map { TypeRelation.isType(stored, a: $0) } == true:
            let wrapped = TypeRelation.wrapped(in: service) ?? service
            let fix =
                stored == wrapped
                ? "ask for \(TypeName.of(wrapped))" : "register it as \(TypeName.of(wrapped)), or ask for \(TypeName.of(stored))"
            return "Service \(TypeName.of(service)) not found; \(TypeName.of(stored)) is registered (under its own "
                + "type): \(fix), not for an optional (a result of tryService() declared optional asks for the "
                + "optional type: declare it without `?`, or call getService(), which gives nil for a missing service)"
        case let .serviceNotFound(key, service, stored?) where key.serviceType == service:
            // A service that is a `service`, added as `stored` (`implementation(of:missing:)`).
            return "Service \(TypeName.of(service)) not found; an instance is registered as \(TypeName.of(stored)) "
                + "(a get finds a service under the type it was added as): ask for \(TypeName.of(stored)), or "
                + "register it as \(TypeName.of(service))"
        case let .serviceNotFound(key, service, stored?):
            return "Service \(TypeName.of(service)) not found for key '\(key)': the slot holds a service of type "
                + "\(TypeName.of(stored)); two key types share this storeKey, give one of them another"
        case let .storedInParent(key, service):
            return "Service \(TypeName.of(service)) not removed for key '\(key)': a parent of this locator stores it, "
                + "and removeService changes only the locator it is called on; remove it from that parent, or add "
                + "another service under the key here, which this locator's gets find first"
        case let .wrongParams(key, service, expected, received):
            let expectedText = expected.map { "params of type \(TypeName.of($0))" } ?? "no params"
            let receivedText = received.map { "params of type \(TypeName.of($0))" } ?? "no params"
            var fix = expected.map { "get it with params of type \(TypeName.of($0))" } ?? "get it without params"
            if (expected == nil) != (received == nil) {
                // The caller may have meant the other kind, which an add under the key replaced, or
                // which a child locator's add hides.
                let kind = expected == nil ? "a service without params" : "a params service"
                fix += ", or find where \(kind) was added under this key, replacing the one you meant or hiding "
                    + "it in a parent (a key holds one service: each add under it replaces the one before, with "
                    + "params or without)"
            }
            return "Wrong params for service \(TypeName.of(service)) (key '\(key)'): it takes \(expectedText), "
                + "but got \(receivedText); \(fix)"
        case let .readOnly(locator, change):
            return "\(TypeName.of(locator)) is read-only: refused to \(change); make every change before "
                + "setReadOnly(), or in a locator of your own whose parent this one is (setParent)"
        case let .cloneDenied(locator):
            return "\(TypeName.of(locator)) denies clone: an empty locator was made instead; share the locator "
                + "itself, make a locator whose parent it is (setParent), or make it read-only with "
                + "setReadOnly(denyClone: false) where it is made read-only, which allows clones"
        case let .parentCycle(locator):
            return "\(TypeName.of(locator)) parent refused: the parent chain would loop back to this locator; "
                + "choose a parent that does not have it among its own parents"
        case let .sharedRequireSetup(locator):
            return "Shared \(TypeName.of(locator)) is not set up; set it up at start-up, before the first get "
                + "(SharedServiceLocator.setup(_:), or the function of the app's that calls it)"
        case let .sharedReadOnly(locator):
            return "Shared \(TypeName.of(locator)) is read-only: it may not be set up again; set it up once, or pass "
                + "readOnlySharedAfter: false to the setup that a later one replaces"
        }
    }

    /// The same text as `errorDescription`.
    ///
    /// ```swift
    /// if case .failure(let refusal) = app.setParent(screen) {
    ///     print(refusal)  // "ServiceLocatorKit.ServiceLocator parent refused: the parent chain would loop back ..."
    /// }
    /// ```
    public var description: String { errorDescription ?? "" }
}
