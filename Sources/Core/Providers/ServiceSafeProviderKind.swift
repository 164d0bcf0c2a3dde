import Dispatch

/// How a safe provider serializes its gets.
public enum ServiceSafeProviderKind: Sendable {
    /// Each get holds a lock (a `Synchronization.Mutex`; an `NSLock` in 3.0).
    case lock
    /// Each get holds a `DispatchSemaphore` with a value of 1.
    case semaphore
    /// Each get runs synchronously on a serial queue of its own.
    case queue(qos: DispatchQoS = .default, label: String = "ServiceContainerKit.ServiceSafeProvider")

    /// The kind used when none is given: `.lock`.
    public static var `default`: ServiceSafeProviderKind { .lock }
}
