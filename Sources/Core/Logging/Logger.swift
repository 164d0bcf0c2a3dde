import Dispatch

/// A receiver of the library's diagnostic events.
///
/// Adopt one of the event protocols (``ProvidersLogger``, and `ServiceInjectLogger` in
/// ServiceInjects) and call ``register()`` once. Events are delivered on ``queue``; when it is
/// `nil` they are delivered synchronously on the thread where they happen.
///
/// With `queue == .main`, an event raised on the main actor (the main thread, or a block of the
/// main queue) is delivered at once, after any still buffered; one raised elsewhere is buffered
/// and delivered when the main queue next runs (`RunLoop.main`, `dispatchMain()` or the main
/// actor). The buffer is bounded: a process that never services the main queue never blocks on a
/// logger and never grows without limit.
///
/// A logger is `Sendable`: events arrive from whichever thread gets a service. A `final class`
/// whose stored properties are `let`s of `Sendable` types conforms as it is; mutable state goes
/// behind a lock, such as the `Mutex` of the standard library's `Synchronization` module:
///
/// ```swift
/// import Synchronization
///
/// final class FailureCounter: ProvidersLogger {
///     let failures = Mutex(0)
///
///     func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
///         failures.withLock { $0 += 1 }
///     }
/// }
/// ```
///
/// and is registered as any logger is:
///
/// ```swift
/// FailureCounter().register()
/// ```
///
/// swift-log's `Logging` module declares a `Logger` too. In a file that imports both, write
/// `ServiceContainerKit.Logger` for this protocol and `Logging.Logger` for swift-log's. An
/// adapter that forwards the events to swift-log is in <doc:core#Forwarding-to-swift-log>
/// (docs/core.md).
public protocol Logger: AnyObject, Sendable {
    /// The queue events are delivered on; `nil` (the default) means the calling thread.
    var queue: DispatchQueue? { get }
}

extension Logger {
    /// Events are delivered on the calling thread.
    ///
    /// ```swift
    /// let printer = FailurePrinter()
    /// print(printer.queue == nil)  // true: it keeps the default, and gets each event on the thread that raised it
    /// ```
    public var queue: DispatchQueue? { nil }

    /// Starts delivering events to this logger and makes it `LogRecorder.shared`.
    ///
    /// ```swift
    /// MyLogger().register()
    /// ```
    public func register() {
        LogRecorder.recorder.register(self)
    }

    /// Stops delivering events to this logger; `LogRecorder.shared` becomes the logger
    /// registered before it, if any.
    ///
    /// ```swift
    /// let printer = FailurePrinter()
    /// printer.register()
    /// printer.unregister()  // events go to the logger registered before it, if any
    /// ```
    public func unregister() {
        LogRecorder.recorder.unregister(self)
    }
}
