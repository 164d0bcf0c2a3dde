/// Where a provider gets a service it does not hold itself: one case per kind of provider,
/// each kind's get in a file of its own (`LazySource`, `WeakSource`, `ManySource`,
/// `SessionServiceCell`, `SafeSource`, `FailedSource`, and `RecordedSource` for a provider
/// made while recording).
///
/// Every payload is a class instance, so the enum is one pointer, and a switch over a
/// provider's `source` borrows the payload without retaining it.
@usableFromInline
enum ServiceSource<Service> {
    /// An instance or `atOne` provider, which holds its service itself (in `instance`).
    case holdsService
    case lazy(LazySource<Service>)
    case weak(WeakSource<Service>)
    case many(ManySource<Service>)
    case session(SessionServiceCell<Service>)
    case safe(SafeSource<Service>)
    case failed(FailedSource<Service>)
    /// A provider made while a validation or a graph recorder ran: every get is recorded.
    case recorded(RecordedSource<Service>)

    /// The service, or why it cannot be had: compiled once per service type, not inlined
    /// where the get is written.
    @inlinable @inline(never)
    func get() throws(ServiceObtainError) -> Service {
        if GetRecording.isOn {
            recordGet()
        }
        switch self {
        case .holdsService: preconditionFailure("a provider that holds its service has no other source")
        case .lazy(let source): return try source.get()
        case .weak(let source): return try source.get()
        case .many(let source): return try source.get()
        case .session(let source): return try source.get()
        case .safe(let source): return try source.get()
        case .failed(let source): throw source.error
        case .recorded(let source): return try source.get()
        }
    }

    /// Records this get for the validation or the graph recorder that runs, under the identity
    /// of the provider's makings.
    @usableFromInline @inline(never)
    func recordGet() {
        if let identity = recordingIdentity {
            GetRecording.recordGet(of: identity, service: Service.self)
        }
    }

    /// The error an `atOne` factory failed with, kept for every get.
    @usableFromInline
    var atOneError: ServiceObtainError? {
        switch self {
        case .failed(let source): return source.error
        case .session(let source): return source.atOneError
        case .safe(let source): return source.inner.source.atOneError
        case .recorded(let source): return source.source.atOneError
        case .holdsService, .lazy, .weak, .many: return nil
        }
    }
}

/// The source of an `atOne` provider whose factory failed: every get gets the error.
@usableFromInline
final class FailedSource<Service>: Sendable {
    @usableFromInline let error: ServiceObtainError

    @inlinable
    init(_ error: ServiceObtainError) {
        self.error = error
    }
}
