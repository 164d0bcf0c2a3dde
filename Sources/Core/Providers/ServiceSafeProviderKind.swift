import Dispatch

/// How a safe provider serializes its gets.
///
/// Whatever the kind, one get runs at a time, and a get that would wait for a get of another
/// thread that waits for it fails as a dependency cycle instead. A get of a service already made
/// (`atOne`, or `lazy` once made) only reads it, with no serialization.
///
/// ```swift
/// let ids = ServiceSafeProvider(mode: .many, safeThread: .queue(label: "ids")) { nextID() }
/// ```
public enum ServiceSafeProviderKind: Sendable {
    /// One get at a time, and nothing else (an `NSLock` in 3.0).
    case lock
    /// Each get also holds a `DispatchSemaphore` with a value of 1.
    case semaphore
    /// Each get also runs synchronously on a serial queue of its own, of quality of service `qos`
    /// (`.utility` unless given, as in 3.0) and named `label`
    /// (`"ServiceContainerKit.ServiceSafeProvider"` when `nil`).
    case queue(qos: DispatchQoS = .utility, label: String? = nil)

    /// The kind used when none is given: `.lock`.
    ///
    /// ```swift
    /// let settings = ServiceSafeProvider(factory: SettingsFactory(), safeThread: .default)  // the same as .lock
    /// ```
    public static var `default`: ServiceSafeProviderKind { .lock }
}
