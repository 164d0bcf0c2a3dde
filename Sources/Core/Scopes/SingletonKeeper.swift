/// A singleton whose making runs: while it is the innermost on a thread (`ThreadContext`) or in
/// a chain of tasks (`TaskContext`), a scoped get fails as a captive dependency, since the
/// singleton would keep the scope's service beyond its scope. It rides on the making tracking
/// that finds cycles: set when a making begins, and never read on a get of a made service.
@usableFromInline
struct SingletonKeeper: Sendable {
    /// The singleton's service type.
    @usableFromInline let service: Any.Type
    /// How the singleton is kept, for the message.
    @usableFromInline let kind: Kind

    @usableFromInline
    enum Kind: Sendable {
        case atOne, lazy, weak, session

        /// "an atOne singleton", "a lazy singleton"…
        var phrase: String {
            switch self {
            case .atOne: "an atOne singleton"
            case .lazy: "a lazy singleton"
            case .weak: "a weak singleton"
            case .session: "a session singleton"
            }
        }
    }

    @inlinable
    init(_ service: Any.Type, _ kind: Kind) {
        self.service = service
        self.kind = kind
    }

    /// The captive-dependency error when a singleton's making runs on this thread or in this
    /// chain of tasks: a get of the scoped `Service` made now would be kept by it.
    @usableFromInline
    static func captiveError<Service>(getting scoped: Service.Type) -> ServiceObtainError? {
        guard let keeper = ThreadContext.current.pointee.keeper ?? TaskContext.current.keeper else { return nil }
        return .refused(
            Service.self,
            .captiveDependency(singleton: keeper.service, singletonKind: keeper.kind.phrase, scoped: Service.self)
        )
    }
}
