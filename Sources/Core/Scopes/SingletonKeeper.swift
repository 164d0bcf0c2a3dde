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
    enum Kind: Sendable, CaseIterable {
        case atOne, lazy, weak, session, mainActorAtOne, mainActorLazy, mainActorWeak

        /// "an atOne singleton", "a lazy singleton"…
        var phrase: String {
            switch self {
            case .atOne: "an atOne singleton"
            case .lazy: "a lazy singleton"
            case .weak: "a weak singleton"
            case .session: "a session singleton"
            case .mainActorAtOne: "an atOne main-actor singleton"
            case .mainActorLazy: "a lazy main-actor singleton"
            case .mainActorWeak: "a weak main-actor singleton"
            }
        }

        /// The modes of the same provider type that make a service no singleton, which the
        /// captive message advises: none for a session's provider, whose modes all keep their
        /// service, and no `scoped` one for a main-actor provider.
        var modesMadePerUse: String? {
            switch self {
            case .atOne, .lazy, .weak: "scoped or many"
            case .mainActorAtOne, .mainActorLazy, .mainActorWeak: "many"
            case .session: nil
            }
        }

        /// The kind whose `phrase` is `phrase` (what `ServiceFactoryError.captiveDependency`
        /// carries).
        static func named(_ phrase: String) -> Kind? {
            allCases.first { $0.phrase == phrase }
        }
    }

    @inlinable
    init(_ service: Any.Type, _ kind: Kind) {
        self.service = service
        self.kind = kind
    }

    /// The captive-dependency error when a singleton's making runs on this thread or in this
    /// chain of tasks: a get of the scoped `Service` made now would be kept by it.
    ///
    /// Inlined into the scoped get: where no singleton's making runs, it is a thread-local read
    /// and a load of a count (`TaskContext.currentKeeper`).
    @inlinable @inline(__always)
    static func captiveError(getting scoped: Any.Type) -> ServiceObtainError? {
        guard let keeper = ThreadContext.current.pointee.keeper ?? TaskContext.currentKeeper else { return nil }
        return keeper.refusal(of: scoped)
    }

    /// The error of a get of `scoped` made while this singleton's making runs. Out of line: a
    /// scoped get, which finds no keeper, runs none of it.
    @usableFromInline @inline(never)
    func refusal(of scoped: Any.Type) -> ServiceObtainError {
        .refused(scoped, .captiveDependency(singleton: service, singletonKind: kind.phrase, scoped: scoped))
    }
}
