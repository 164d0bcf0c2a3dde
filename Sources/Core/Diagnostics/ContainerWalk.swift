/// A provider the walk finds: one it gets (`GraphedProvider`) or one it lists as skipped
/// (`UngettableProvider`).
protocol FoundProvider: ShutdownProvider {
    /// The type of the service of every provider of this type.
    static var graphServiceType: Any.Type { get }
}

/// A provider that ``ServiceValidator``, ``ServiceGraphRecorder`` and ``ServiceShutdown`` find in
/// a container and get.
protocol GraphedProvider: FoundProvider {
    /// What the graph shows of it.
    var graphFacts: ProviderFacts { get }
    /// Gets the service once; the error when it cannot be had.
    func validationGet() -> ServiceObtainError?
}

/// An object that lists what it holds itself, where reflection would not find it: a locator
/// gives its providers by key, and its parent.
///
/// ```swift
/// final class Registry {
///     var providers: [String: Any] = [:]
///     weak var parent: Registry?
/// }
///
/// extension Registry: ServiceValidationListing {  // as the locators list their storage
///     package var validationEntries: [(name: String, value: Any)] {
///         providers.map { (name: "[\($0.key)]", value: $0.value) }
///     }
///     package var validationParent: AnyObject? { parent }
/// }
/// ```
package protocol ServiceValidationListing: AnyObject {
    /// What to walk, each with its name in the path: `[key]` for a keyed entry, a plain name
    /// for a property.
    var validationEntries: [(name: String, value: Any)] { get }
    /// What it inherits from (a locator's parent): walked after the entries, as `parent`,
    /// unless the walk leaves parents out.
    var validationParent: AnyObject? { get }
}

/// A provider the validator cannot get by itself: it is listed as skipped, with the reason.
protocol UngettableProvider: FoundProvider {
    static var validationSkipReason: String { get }
    /// The synchronous provider it gets its service from, if any: the walk finds that one in
    /// its place, which every get of it is.
    var wrappedProvider: (any GraphedProvider)? { get }
}

extension UngettableProvider {
    var wrappedProvider: (any GraphedProvider)? { nil }
}

/// A provider that a synchronous validation skips and one including async providers
/// (``ServiceValidator/validateIncludingAsync(building:)``) gets: an async provider, awaited,
/// and a main-actor provider, got on the main actor.
protocol AwaitedProvider: UngettableProvider, Sendable {
    /// What the graph shows of it.
    var graphFacts: ProviderFacts { get }
    /// Gets the service once, on the validation's executor, as the app's get would run on its
    /// caller's (a `many` factory runs there too); the error when it cannot be had.
    nonisolated(nonsending) func awaitedValidationGet() async -> ServiceObtainError?
}

extension ServiceAsyncProvider: AwaitedProvider {
    static var graphServiceType: Any.Type { ServiceType.self }
    static var validationSkipReason: String {
        "made with async: await a get to check it, or validate with ServiceValidator.validateIncludingAsync(building:)"
    }

    var graphFacts: ProviderFacts {
        ProviderFacts(
            service: ServiceType.self, mode: source.graphMode, kind: .async, params: nil,
            identities: [source.recordingIdentity, ObjectIdentifier(self)].compactMap { $0 }
        )
    }

    nonisolated(nonsending) func awaitedValidationGet() async -> ServiceObtainError? {
        await getServiceAsResult().obtainError
    }

    var wrappedProvider: (any GraphedProvider)? {
        if case .sync(let provider) = source { provider } else { nil }
    }
}

extension ServiceAsyncParamsProvider: UngettableProvider {
    static var graphServiceType: Any.Type { ServiceType.self }
    static var validationSkipReason: String {
        let params = TypeName.of(ParamsType.self)
        return "made with async from params of type \(params): await a get with params to check it"
    }
}

extension ServiceMainActorProvider: AwaitedProvider {
    nonisolated static var graphServiceType: Any.Type { ServiceType.self }
    nonisolated static var validationSkipReason: String {
        "bound to the main actor: get it there to check it, or validate with ServiceValidator.validateIncludingAsync(building:)"
    }

    nonisolated var graphFacts: ProviderFacts {
        ProviderFacts(
            service: ServiceType.self, mode: ServiceGraph.Mode(mode), kind: .mainActor, params: nil,
            identities: [ObjectIdentifier(self)]
        )
    }

    @MainActor  // said again: the requirement's `nonisolated(nonsending)` would win over the class's
    func awaitedValidationGet() async -> ServiceObtainError? {
        getServiceAsResult().obtainError
    }
}

/// An optional provider of any kind, found by the walk when it is `nil`.
protocol OptionalGraphedProvider {
    static var graphServiceType: Any.Type { get }
    var isNone: Bool { get }
}

extension Optional: OptionalGraphedProvider where Wrapped: FoundProvider {
    static var graphServiceType: Any.Type { Wrapped.graphServiceType }
}

/// The storage of a `lazy var`, an optional of the property's type: the service type when that
/// type is a provider, or an optional one.
protocol LazyStorage {
    static var providerServiceType: Any.Type? { get }
}

extension Optional: LazyStorage {
    static var providerServiceType: Any.Type? {
        (Wrapped.self as? any FoundProvider.Type)?.graphServiceType
            ?? (Wrapped.self as? any LazyStorage.Type)?.providerServiceType
    }
}

/// The providers of a container, found by reflection with their property paths: the stored
/// properties of structs, classes and tuples, nested containers, optionals, arrays and
/// dictionaries, and what a ``ServiceValidationListing`` lists. A provider or an object reached
/// twice is taken once, under the first path. Async and main-actor providers are found as
/// skipped: only a validation including async providers gets them. An async provider of a
/// synchronous provider is found as that provider.
struct ContainerWalk {
    /// What the walk finds at a path.
    enum Found {
        case provider(any GraphedProvider)
        /// A provider that is not made (an async one, a `lazy var` never read), with its service
        /// type, the reason, and the provider when there is one.
        case skipped(Any.Type, reason: String, provider: (any ShutdownProvider)?)
        /// An optional provider that is `nil`, with its service type: there is nothing to make.
        case absent(Any.Type)

        /// The provider found, which a shutdown shuts down.
        var shutdownProvider: (any ShutdownProvider)? {
            switch self {
            case .provider(let provider): provider
            case .skipped(_, _, let provider): provider
            case .absent: nil
            }
        }
    }

    /// What was found, in the order of the properties.
    private(set) var found: [(path: String, found: Found)] = []
    /// The `ServiceAsyncProvider` found where `found` has the synchronous provider it gets from,
    /// by index: a shutdown shuts it down (and that provider with it). Kept aside, so that an
    /// entry of `found` stays as small as it is, which every pass over them copies.
    private var wrappers: [Int: any ShutdownProvider] = [:]

    /// The provider found at `index`, which a shutdown shuts down.
    func shutdownProvider(at index: Int) -> (any ShutdownProvider)? {
        wrappers[index] ?? found[index].found.shutdownProvider
    }
    private var seen: Set<ObjectIdentifier> = []
    /// How many entries were found at each path as printed.
    private var pathCounts: [String: Int] = [:]

    /// Adds what was found at `path`. Paths are printed names, and two may print the same (the
    /// dictionary keys `1` and `"1"`, a locator's slot of a type and its slot named by the type's
    /// name): the second is `path (2)`, the third `path (3)`, so that every path names one entry.
    /// The container itself, when it is a provider, is `self`, as in a key path (`\.self`).
    private mutating func add(_ path: String, _ what: Found) {
        let path = path.isEmpty ? "self" : path
        var unique = path
        while true {
            let count = pathCounts[unique, default: 0] + 1
            pathCounts[unique] = count
            guard count > 1 else { break }
            unique = "\(path) (\(count))"
        }
        found.append((unique, what))
    }

    /// What the graph shows of each provider it finds, in the order of the properties: those it
    /// gets, and the async and main-actor ones, whose gets are recorded too.
    var graphFacts: [(path: String, facts: ProviderFacts)] {
        found.compactMap { path, found in
            if case .provider(let provider) = found {
                return (path, provider.graphFacts)
            }
            if case .skipped(_, _, let provider?) = found, let awaited = provider as? any AwaitedProvider {
                return (path, awaited.graphFacts)
            }
            return nil
        }
    }

    /// How many levels below the container values are looked into: a provider deeper is not
    /// found (docs/diagnostics.md says so). The walk recurses once per level, and a long chain
    /// of a recursive enum would otherwise run it out of stack.
    static let maximumDepth = 32

    /// Modules whose types hold no providers: their values are not looked into.
    static let libraryModules = [
        "Swift.", "Foundation.", "FoundationEssentials.", "Dispatch.", "Synchronization.", "_Concurrency.",
    ]

    /// Whether a locator's parent is walked too.
    private let includesParents: Bool

    /// Walks `container`; the parents of locators too when `includesParents`.
    init(_ container: Any, includesParents: Bool = true) {
        self.includesParents = includesParents
        visit(container, path: "", depth: 0)
    }

    private mutating func visit(_ value: Any, path: String, depth: Int) {
        guard depth <= Self.maximumDepth else { return }
        // Providers and listings are objects, and their protocols are class-bound: a cast of a
        // value that is not an object to one of them would bridge it to an object first (an
        // array to an array object, each of its elements boxed), only to fail.
        if type(of: value) is AnyClass {
            if visitObject(value, path: path, depth: depth) { return }
        } else if let optional = value as? any OptionalGraphedProvider, optional.isNone {
            add(path, .absent(type(of: optional).graphServiceType))
            return
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let wrapped = mirror.children.first {
                visit(wrapped.value, path: path, depth: depth)
            }
        case .collection:
            for (offset, element) in mirror.children.enumerated() {
                visit(element.value, path: path + "[\(offset)]", depth: depth + 1)
            }
        case .dictionary:
            // In the order of the keys, as a dictionary has none of its own.
            let entries = mirror.children.compactMap { pair -> (key: String, value: Any)? in
                let keyAndValue = Array(Mirror(reflecting: pair.value).children)
                guard keyAndValue.count == 2 else { return nil }
                return ("\(keyAndValue[0].value)", keyAndValue[1].value)
            }
            for entry in entries.sorted(by: { $0.key < $1.key }) {
                visit(entry.value, path: path + "[\(entry.key)]", depth: depth + 1)
            }
        case .struct, .class, .tuple, .enum:
            let typeName = String(reflecting: type(of: value))
            guard !Self.libraryModules.contains(where: typeName.hasPrefix) else { return }
            if mirror.displayStyle == .class, let object = objectReference(of: value), !seen.insert(ObjectIdentifier(object)).inserted {
                return
            }
            var level: Mirror? = mirror
            var properties: [Mirror.Child] = []
            while let current = level {
                properties = Array(current.children) + properties  // superclass properties first
                level = current.superclassMirror
            }
            for (offset, property) in properties.enumerated() {
                var name = property.label ?? "\(offset)"
                if name.hasPrefix(Self.lazyStorage) {
                    // A `lazy var`: reflection sees its storage, an optional of its type that is
                    // `nil` until the property is read. Unread, a provider (or an optional one)
                    // is skipped with the fix; anything else was never made. Read, its value is
                    // walked as any property's.
                    name.removeFirst(Self.lazyStorage.count)
                    let storage = Mirror(reflecting: property.value)
                    guard let value = storage.children.first?.value else {
                        if let service = (type(of: property.value) as? any LazyStorage.Type)?.providerServiceType {
                            add(Self.join(path, name), .skipped(service, reason: Self.lazyNotMade, provider: nil))
                        }
                        continue
                    }
                    visit(value, path: Self.join(path, name), depth: depth + 1)
                    continue
                }
                visit(property.value, path: Self.join(path, name), depth: depth + 1)
            }
        default:
            return
        }
    }

    /// Visits `value`, an object, when it is a provider or a listing of providers; `false` when
    /// it is neither, to be looked into as any other value.
    private mutating func visitObject(_ value: Any, path: String, depth: Int) -> Bool {
        // The most common first: each failed cast is a look-up of a conformance.
        if let provider = value as? any GraphedProvider {
            if seen.insert(ObjectIdentifier(provider)).inserted {
                add(path, .provider(provider))
            }
            return true
        }
        if let ungettable = value as? any UngettableProvider {
            if let provider = ungettable.wrappedProvider {
                // `ServiceAsyncProvider(provider)`: found as that provider, which a
                // synchronous validation gets, and taken once with it.
                if seen.insert(ObjectIdentifier(provider)).inserted {
                    wrappers[found.count] = ungettable
                    add(path, .provider(provider))
                }
            } else if seen.insert(ObjectIdentifier(ungettable)).inserted {
                let kind = type(of: ungettable)
                add(path, .skipped(kind.graphServiceType, reason: kind.validationSkipReason, provider: ungettable))
            }
            return true
        }
        if let listing = value as? any ServiceValidationListing {
            guard seen.insert(ObjectIdentifier(listing)).inserted else { return true }
            for (name, entry) in listing.validationEntries {
                visit(entry, path: Self.join(path, name), depth: depth + 1)
            }
            if includesParents, let parent = listing.validationParent {
                visit(parent, path: Self.join(path, "parent"), depth: depth + 1)
            }
            return true
        }
        return false
    }

    /// The start of the name reflection gives the storage of a `lazy var`.
    static let lazyStorage = "$__lazy_storage_$_"

    /// Why a `lazy var` provider that was never read is skipped.
    static let lazyNotMade = "a lazy var not read yet, which the validator cannot read: make it a let, "
        + "or read it before validating"

    /// `path` with `name` added: `a.b`, or `a[key]` for a keyed entry.
    static func join(_ path: String, _ name: String) -> String {
        let name = name.hasPrefix(".") ? String(name.dropFirst()) : name  // a tuple element
        if path.isEmpty || name.hasPrefix("[") {
            return path + name
        }
        return path + "." + name
    }
}

// MARK: - The providers

extension ServiceSource {
    /// The identities the gets of a provider of this source are recorded under.
    var recordingIdentities: [ObjectIdentifier] {
        switch self {
        case .holdsService, .madeAtOne: []
        case .failed(let source): [ObjectIdentifier(source)]
        case .lazy(let source): [ObjectIdentifier(source)]
        case .weak(let source): [ObjectIdentifier(source)]
        case .many(let source): [ObjectIdentifier(source)]
        case .scoped(let source): [ObjectIdentifier(source)]
        case .session(let cell): [ObjectIdentifier(cell)]
        case .safe(let source):
            source.inner.source.recordingIdentities + [ObjectIdentifier(source.inner), ObjectIdentifier(source)]
        case .recorded(let source): [ObjectIdentifier(source.node)] + source.source.recordingIdentities
        }
    }

    /// The first of `recordingIdentities`, without building the list: the identity a get of
    /// this source is recorded under.
    var recordingIdentity: ObjectIdentifier? {
        switch self {
        case .holdsService, .madeAtOne: nil
        case .failed(let source): ObjectIdentifier(source)
        case .lazy(let source): ObjectIdentifier(source)
        case .weak(let source): ObjectIdentifier(source)
        case .many(let source): ObjectIdentifier(source)
        case .scoped(let source): ObjectIdentifier(source)
        case .session(let cell): ObjectIdentifier(cell)
        case .safe(let source): source.innerRecordingIdentity
        case .recorded(let source): ObjectIdentifier(source.node)
        }
    }

    /// The mode a graph draws a provider of this source with, and the kind of its provider
    /// (safe when its gets are serialized).
    var graphMode: (mode: ServiceGraph.Mode, kind: ProviderFacts.Kind) {
        switch self {
        case .holdsService, .madeAtOne, .failed: return (.atOne, .plain)
        case .lazy: return (.lazy, .plain)
        case .weak: return (.weak, .plain)
        case .many: return (.many, .plain)
        case .scoped: return (.scoped, .plain)
        case .session: return (.session, .plain)
        case .safe(let source): return (source.inner.source.graphMode.mode, .safe)
        case .recorded(let source): return source.source.graphMode
        }
    }
}

extension SafeSource {
    /// The identity a get of a safe provider is recorded under: its inner provider's, under
    /// which that provider's own gets and makings are recorded too, so that the two are one node
    /// even where no container names them.
    @usableFromInline var innerRecordingIdentity: ObjectIdentifier {
        inner.source.recordingIdentity ?? ObjectIdentifier(inner)
    }
}

extension ServiceProvider: GraphedProvider {
    static var graphServiceType: Any.Type { ServiceType.self }

    var graphFacts: ProviderFacts {
        let (mode, kind) = source.graphMode
        return ProviderFacts(
            service: ServiceType.self, mode: mode, kind: kind, params: nil,
            identities: source.recordingIdentities + [ObjectIdentifier(self)]
        )
    }

    func validationGet() -> ServiceObtainError? {
        getServiceAsResult().obtainError
    }
}

extension ServiceParamsProvider: GraphedProvider {
    static var graphServiceType: Any.Type { ServiceType.self }

    var graphFacts: ProviderFacts {
        ProviderFacts(
            service: ServiceType.self, mode: .params, kind: serializer != nil ? .safe : .plain, params: ParamsType.self,
            identities: [ObjectIdentifier(maker)]
        )
    }

    /// A params provider is not got without params: the validator skips it.
    func validationGet() -> ServiceObtainError? {
        nil
    }
}
