/// What happens to kept services when a mediator's session is updated.
///
/// ```swift
/// mediator.updateSession(User(id: "ann"))                         // Ann's kept services come back
/// mediator.updateSession(User(id: "ann"), remakePolicy: .force)   // Ann's services are made anew
/// mediator.updateSession(User(id: "bob"), remakePolicy: .clearAll)  // nobody's services are kept
/// ```
public enum ServiceSessionRemakePolicy: Sendable, Hashable {
    /// A different session deactivates the current services (kept or dropped, as each factory's
    /// `deactivateService` says) and activates services kept for the new one; the same session
    /// changes nothing.
    case none
    /// As `none`, but the new session's services are made anew even if the session is the
    /// current one or its services were kept.
    case force
    /// Every kept service of every session is dropped without being deactivated; services are
    /// made anew for the new session.
    case clearAll
}
