import Dispatch

/// A receiver of the library's diagnostic events.
///
/// Adopt one of the event protocols (`ProvidersLogger`, and `ServiceInjectLogger` in
/// ServiceInjects) and call `register()` once. Events are delivered on `queue`; when it is
/// `nil` they are delivered synchronously on the thread where they happen.
///
/// With `queue == .main`, an event raised on the main thread is delivered at once; one raised
/// elsewhere is buffered and delivered when the main queue next runs (`RunLoop.main`,
/// `dispatchMain()` or the main actor). The buffer is bounded: a process that never services the
/// main queue never blocks on a logger and never grows without limit.
public protocol Logger: AnyObject, Sendable {
    /// The queue events are delivered on; `nil` (the default) means the calling thread.
    var queue: DispatchQueue? { get }
}

extension Logger {
    /// Events are delivered on the calling thread.
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
    public func unregister() {
        LogRecorder.recorder.unregister(self)
    }
}
