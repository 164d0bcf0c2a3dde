/// Which provider's get asked for which: a node per provider, an edge per "making A asked for
/// B". ``ServiceValidator`` gives it in its report; a ``ServiceGraphRecorder`` gives it from an
/// app's real gets.
///
/// ```swift
/// let graph = ServiceValidator.validate(building: Services.makeDefault).graph
/// print(graph.dot())      // Graphviz: dot -Tsvg services.dot > services.svg
/// print(graph.mermaid())  // a Mermaid flowchart, drawn by many Markdown viewers
/// ```
///
/// A node is named by the provider's property path in the container and its service type, and
/// drawn by its mode. Edges on a dependency cycle are red; a provider that failed has a red
/// border, filled red when its own factory failed.
public struct ServiceGraph: Sendable, CustomStringConvertible {
    /// How a provider gives its service, as the graph draws it.
    ///
    /// ```swift
    /// let perGet = graph.nodes.filter { $0.mode == .many }.map(\.name)
    /// print(perGet)  // the providers that make a service on every get
    /// ```
    public enum Mode: String, Sendable {
        /// Made once, up front (an `atOne` factory, or a provider of an instance): a box.
        case atOne
        /// Made on the first get and kept: a rounded box.
        case lazy
        /// Kept while someone holds it: a dashed rounded box.
        case weak
        /// Made anew on every get: a box with a shadow (Graphviz) or a double-sided box (Mermaid).
        case many
        /// Kept for the current session of a mediator: a hexagon.
        case session
        /// Made once in each ``ServiceScope``: an octagon (Graphviz) or a trapezoid (Mermaid).
        case scoped
        /// Made from params on every get: a box with cut corners (Graphviz) or a parallelogram
        /// (Mermaid).
        case params
        /// Asked for, but not a provider of the container: an ellipse.
        case unknown
    }

    /// A provider.
    ///
    /// ```swift
    /// for node in graph.nodes where node.failure != nil {
    ///     print(node.name, node.mode)  // "network.api lazy"
    /// }
    /// ```
    public struct Node: Sendable {
        /// The property path of the provider in the container (`network.api`), or `nil` for a
        /// provider that is not in it.
        ///
        /// ```swift
        /// let outside = graph.nodes.filter { $0.path == nil }  // asked for, but not providers of the container
        /// ```
        public let path: String?
        /// The type of its service.
        ///
        /// ```swift
        /// let settingsNode = graph.nodes.first { $0.serviceType == Settings.self }
        /// print(settingsNode?.path ?? "no provider of Settings")  // "settings"
        /// ```
        public let serviceType: Any.Type
        /// How it gives its service.
        ///
        /// ```swift
        /// for node in graph.nodes where node.mode == .unknown {
        ///     print(node.name, "was asked for, but is not in the container")
        /// }
        /// ```
        public let mode: Mode
        /// Whether its gets are serialized (a safe provider).
        ///
        /// ```swift
        /// let serialized = graph.nodes.filter(\.isSafe).map(\.name)  // the safe providers, by name
        /// ```
        public var isSafe: Bool { kind == .safe }
        /// Why its get failed, when it did.
        ///
        /// ```swift
        /// for node in graph.nodes {
        ///     if let failure = node.failure, !failure.isNested {
        ///         print(node.name, "failed in its own factory:", failure.error)  // filled red when drawn
        ///     }
        /// }
        /// ```
        ///
        /// A drawing fills red the nodes whose own making failed: those whose failure is not
        /// nested, and a singleton that asked for a scoped service (its failure is nested, with
        /// the scoped service at the end of its path); the others that failed get a red border.
        public let failure: ServiceObtainError?
        /// Whether its own making failed (filled red when drawn): its factory threw or was
        /// refused, or, a singleton, it asked for a scoped service (a captive dependency, whose
        /// path goes on to that service); not a failure of a service it asked for.
        var failedItself: Bool {
            guard let failure else { return false }
            if case .captiveDependency(let singleton, _, _)? = failure.error as? ServiceFactoryError {
                return singleton == serviceType
            }
            return !failure.isNested
        }
        /// By which kind of provider its service is made: one field for that and `isSafe`, as
        /// for the facts of a provider (`ProviderFacts.kind`).
        let kind: ProviderFacts.Kind
        /// The names of the graph's service types, and this node's place among them.
        let typeNames: (names: TypeNames, index: Int)
        /// For a node without a path, its place among the nodes without one of its service type
        /// (1 for the first): its number in its name from the second on.
        let ofItsType: Int

        /// A node of the graph whose service types are `names`, to which it adds its own.
        init(
            path: String?,
            serviceType: Any.Type,
            mode: Mode,
            kind: ProviderFacts.Kind,
            failure: ServiceObtainError?,
            in names: TypeNames,
            ofItsType: Int = 1
        ) {
            self.path = path
            self.serviceType = serviceType
            self.mode = mode
            self.kind = kind
            self.failure = failure
            self.ofItsType = ofItsType
            typeNames = (names, names.add(serviceType))
        }

        /// How the graph names its service type: the type's own name (`Token`), or its full name
        /// (`App.Billing.Config`) where another type of the graph has the same own name.
        var typeName: String { typeNames.names.name(at: typeNames.index) }

        /// The path, or for a provider outside the container its service type: its own name,
        /// or its full name where two types of the graph have the same own name. Two or more
        /// such providers of one type are numbered from the second, in the order the graph
        /// found them: `Token`, `Token (2)`.
        ///
        /// ```swift
        /// print(graph.nodes.map(\.name))  // ["settings", ...]; a type's name ("Token") outside the container
        /// ```
        public var name: String {
            if let path { return path }
            return ofItsType > 1 ? "\(typeName) (\(ofItsType))" : typeName
        }
    }

    /// "The making of `from` asked for `to`", by the nodes' indices in ``nodes``.
    ///
    /// ```swift
    /// for edge in graph.edges where edge.isCycle {
    ///     print(graph.nodes[edge.from].name, "asked for", graph.nodes[edge.to].name)
    /// }
    /// ```
    public struct Edge: Hashable, Sendable {
        /// The index of the node whose making asked.
        ///
        /// ```swift
        /// let askers = Set(graph.edges.map { graph.nodes[$0.from].name })  // the providers that asked for another
        /// ```
        public let from: Int
        /// The index of the node asked for.
        ///
        /// ```swift
        /// let askedForSettings = graph.edges.filter { graph.nodes[$0.to].name == "settings" }
        /// print(askedForSettings.map { graph.nodes[$0.from].name })  // ["connectionPool"]: what depends on settings
        /// ```
        public let to: Int
        /// Whether the edge is on a dependency cycle.
        ///
        /// ```swift
        /// if graph.edges.contains(where: \.isCycle) {
        ///     print(graph)  // the edges of the cycle end in "(cycle)"
        /// }
        /// ```
        public let isCycle: Bool
    }

    /// The providers: those of the container in the order of its properties, then any others
    /// that were asked for.
    ///
    /// ```swift
    /// let insideContainer = graph.nodes.prefix { $0.path != nil }.count  // the container's providers come first
    /// ```
    public let nodes: [Node]
    /// The dependencies, ordered by the nodes they start from.
    ///
    /// ```swift
    /// for edge in graph.edges {
    ///     print(graph.nodes[edge.from].name, "->", graph.nodes[edge.to].name)  // connectionPool -> settings
    /// }
    /// ```
    public let edges: [Edge]

    /// The dependencies as text, one `asker -> asked` a line, cycles marked; then each provider
    /// on none of them, as `name (no dependency recorded)`: none was seen, which is not to say
    /// it has none (a get that was not recorded draws no edge).
    ///
    /// ```swift
    /// print(graph)  // connectionPool -> settings, reportJob -> connectionPool, a line each, then the others
    /// ```
    public var description: String {
        var onEdges = Set<Int>()
        for edge in edges {
            onEdges.insert(edge.from)
            onEdges.insert(edge.to)
        }
        let unconnected = nodes.indices.filter { !onEdges.contains($0) }.map {
            "\(nodes[$0].name) (no dependency recorded)"
        }
        return (edgeLines + unconnected).joined(separator: "\n")
    }

    /// The dependencies, one `asker -> asked` a line; cycles are marked.
    var edgeLines: [String] {
        edges.map { edge in
            "\(nodes[edge.from].name) -> \(nodes[edge.to].name)" + (edge.isCycle ? " (cycle)" : "")
        }
    }

    /// The names of a graph's service types (`typeNames(of:)`), worked out when one is first
    /// read: a validation makes a graph for its report, which most start-up checks never draw,
    /// and naming every type of a container of 1,000 providers took longer than walking it.
    /// The graph adds each node's type as it makes the node, before anyone reads a name.
    final class TypeNames: Sendable {
        private let state = Locked(State())

        private struct State {
            var types: [Any.Type] = []
            var names: [String]?
        }

        /// Adds the service type of the next node; its index.
        func add(_ type: Any.Type) -> Int {
            state.withLock { state in
                state.types.append(type)
                return state.types.count - 1
            }
        }

        /// Whether the names were worked out, for tests.
        var areNamed: Bool { state.withLock { $0.names != nil } }

        func name(at index: Int) -> String {
            state.withLock { state in
                let names = state.names ?? ServiceGraph.typeNames(of: state.types)
                state.names = names
                return names[index]
            }
        }
    }

    /// The names of `types` in a graph: each type's own name (`Config`, `Node`), or its full
    /// name (`App.Billing.Config`, `App.Wrap<Swift.Int>.Node`) where another of `types` has the
    /// same own name, so that a drawing never shows two types as one. Two types whose full names
    /// are the same too (`private` types of two files, or types declared in two functions, whose
    /// names leave out the context Swift names by an address) are told apart by number, in the
    /// order of `types`: `App.Config`, then `App.Config (2)`.
    static func typeNames(of types: [Any.Type]) -> [String] {
        var seen: Set<ObjectIdentifier> = []
        let distinct = types.filter { seen.insert(ObjectIdentifier($0)).inserted }
        let byOwnName = Dictionary(grouping: distinct) { String(describing: $0) }
        let byFullName = Dictionary(grouping: distinct, by: TypeName.of)  // each group in the order of `types`
        return types.map { type in
            let name = String(describing: type)
            guard byOwnName[name, default: []].count > 1 else { return name }
            let fullName = TypeName.of(type)
            let number = (byFullName[fullName]?.firstIndex { $0 == type } ?? 0) + 1
            return number > 1 ? "\(fullName) (\(number))" : fullName
        }
    }

    /// The second line of a node's label: its service type and how it is made.
    func detail(of node: Node) -> String {
        var mode = node.mode == .unknown ? "not in the container" : node.mode.rawValue
        if node.isSafe { mode += ", safe" }
        if let madeIn = node.kind.madeIn { mode += ", \(madeIn)" }
        return "\(node.typeName) (\(mode))"
    }
}

// MARK: - Rendering

extension ServiceGraph {
    /// The graph in the Graphviz DOT language; `dot -Tsvg` draws it.
    ///
    /// ```swift
    /// try report.graph.dot().write(toFile: "services.dot", atomically: true, encoding: .utf8)
    /// ```
    public func dot() -> String {
        var lines = [
            "digraph services {",
            "    rankdir=LR;",
            "    node [fontname=\"Helvetica\", fontsize=11, shape=box];",
            "    edge [color=\"#475569\", fontname=\"Helvetica\", fontsize=10];",
        ]
        for (index, node) in nodes.enumerated() {
            var attributes = [(name: "label", value: Self.dotQuoted(node.name + "\n" + detail(of: node)))]
            attributes += Self.dotStyle[node.mode] ?? []
            func set(_ name: String, _ value: String) {
                if let found = attributes.firstIndex(where: { $0.name == name }) {
                    attributes[found].value = value
                } else {
                    attributes.append((name, value))
                }
            }
            if node.isSafe {
                set("peripheries", "2")
            }
            if node.failure != nil {
                set("color", "\"#dc2626\"")
                set("penwidth", "2")
                if node.failedItself {
                    set("fillcolor", "\"#fecaca\"")
                }
            }
            let list = attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
            lines.append("    n\(index) [\(list)];")
        }
        for edge in edges {
            let style = edge.isCycle ? " [color=\"#dc2626\", penwidth=2, label=\"cycle\", fontcolor=\"#dc2626\"]" : ""
            lines.append("    n\(edge.from) -> n\(edge.to)\(style);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The node attributes of each mode; every node is filled, so that a failure can fill it red.
    static let dotStyle: [Mode: [(name: String, value: String)]] = [
        .atOne: [("style", "filled"), ("fillcolor", "\"#dbeafe\"")],
        .lazy: [("style", "\"rounded,filled\""), ("fillcolor", "\"#dcfce7\"")],
        .weak: [("style", "\"rounded,dashed,filled\""), ("fillcolor", "\"#f1f5f9\"")],
        .many: [("shape", "box3d"), ("style", "filled"), ("fillcolor", "\"#fef9c3\"")],
        .session: [("shape", "hexagon"), ("style", "filled"), ("fillcolor", "\"#ede9fe\"")],
        .scoped: [("shape", "octagon"), ("style", "filled"), ("fillcolor", "\"#cffafe\"")],
        .params: [("style", "\"filled,diagonals\""), ("fillcolor", "\"#ffedd5\"")],
        .unknown: [("shape", "ellipse"), ("style", "\"dashed,filled\""), ("fillcolor", "white")],
    ]

    static func dotQuoted(_ text: String) -> String {
        "\"" + escaped(text, ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r\n": "\\n", "\r": "\\n"]) + "\""
    }

    /// `text` with each character that `replacements` has replaced.
    static func escaped(_ text: String, _ replacements: [Character: String]) -> String {
        var result = ""
        for character in text {
            if let replacement = replacements[character] {
                result += replacement
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The graph as a Mermaid flowchart, for a code block of the `mermaid` language in a
    /// Markdown page, which many Markdown viewers draw.
    ///
    /// ```swift
    /// print(report.graph.mermaid())  // flowchart LR ...
    /// ```
    public func mermaid() -> String {
        var lines = ["flowchart LR"]
        for (index, node) in nodes.enumerated() {
            let label = Self.mermaidQuoted(node.name) + "<br/>" + Self.mermaidQuoted(detail(of: node))
            let (open, close) = Self.mermaidShape[node.mode] ?? ("[", "]")
            lines.append("    n\(index)\(open)\"\(label)\"\(close)")
        }
        for edge in edges {
            lines.append("    n\(edge.from) " + (edge.isCycle ? "-->|cycle|" : "-->") + " n\(edge.to)")
        }
        let failedItself = nodes.indices.filter { nodes[$0].failedItself }
        let failedBelow = nodes.indices.filter { nodes[$0].failure != nil && !nodes[$0].failedItself }
        let safe = nodes.indices.filter { nodes[$0].isSafe }
        for (name, members, style) in [
            ("safe", safe, "stroke-width:3px"),
            ("failedBelow", failedBelow, "stroke:#dc2626,stroke-width:2px"),
            ("failed", failedItself, "fill:#fecaca,stroke:#dc2626,stroke-width:2px"),
        ] where !members.isEmpty {
            lines.append("    classDef \(name) \(style)")
            lines.append("    class \(members.map { "n\($0)" }.joined(separator: ",")) \(name)")
        }
        let cycleEdges = edges.indices.filter { edges[$0].isCycle }
        if !cycleEdges.isEmpty {
            lines.append(
                "    linkStyle \(cycleEdges.map(String.init).joined(separator: ",")) stroke:#dc2626,stroke-width:2px"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The brackets of each mode's node shape.
    static let mermaidShape: [Mode: (String, String)] = [
        .atOne: ("[", "]"),
        .lazy: ("(", ")"),
        .weak: ("([", "])"),
        .many: ("[[", "]]"),
        .session: ("{{", "}}"),
        .scoped: ("[\\", "/]"),
        .params: ("[/", "/]"),
        .unknown: ("((", "))"),
    ]

    /// `text` for a quoted Mermaid label, read literally: Mermaid reads `#name;` as an entity
    /// code and the label as HTML, so `#` and `&` are entity codes too; a line break (in a
    /// dictionary key: `\n`, `\r\n` or `\r`) is the label's own, `<br/>`.
    static func mermaidQuoted(_ text: String) -> String {
        escaped(text, [
            "\"": "#quot;", "<": "#lt;", ">": "#gt;", "#": "#35;", "&": "#38;",
            "\n": "<br/>", "\r\n": "<br/>", "\r": "<br/>",
        ])
    }
}

// MARK: - Assembling

extension ServiceGraph.Mode {
    /// How the graph draws a provider made in `mode`.
    init(_ mode: ServiceFactoryMode) {
        switch mode {
        case .atOne: self = .atOne
        case .lazy: self = .lazy
        case .weak: self = .weak
        case .many: self = .many
        case .scoped: self = .scoped
        }
    }
}

/// What the graph knows of a provider of the container.
struct ProviderFacts {
    let service: Any.Type
    let mode: ServiceGraph.Mode
    /// By which kind of provider its service is made, which also says whether its gets are
    /// serialized: one field for both, since a field more made the copies of the facts that a
    /// validation's report makes, one per provider, cost 2% of the validation.
    let kind: Kind
    /// The type of its params, for a provider that needs them.
    let params: Any.Type?
    /// The identities its gets are recorded under (`GetRecording`).
    let identities: [ObjectIdentifier]

    enum Kind {
        /// A synchronous provider, its gets not serialized.
        case plain
        /// A safe provider, its gets serialized.
        case safe
        /// A `ServiceAsyncProvider`.
        case async
        /// A `ServiceMainActorProvider`.
        case mainActor

        /// Where its service is made, as a drawing names it after the mode: `nil` in the get that
        /// asks for it.
        var madeIn: String? {
            switch self {
            case .plain, .safe: nil
            case .async: "async"
            case .mainActor: "main actor"
            }
        }
    }
}

extension ServiceGraph {
    /// The graph of `providers` (found in a container, by path) and of what `log` recorded.
    /// `failures` are a validation's, by path; without them, a provider's failure is the last
    /// one recorded.
    init(
        providers: [(path: String, facts: ProviderFacts)],
        log: GetLog.State,
        failures: [String: ServiceObtainError]? = nil
    ) {
        let typeNames = TypeNames()
        var nodes: [Node] = []
        var index: [ObjectIdentifier: Int] = [:]
        for (path, facts) in providers {
            for identity in facts.identities where index[identity] == nil {
                index[identity] = nodes.count
            }
            let failure = failures.map { $0[path] } ?? facts.identities.lazy.compactMap { log.failures[$0] }.first
            nodes.append(
                Node(
                    path: path, serviceType: facts.service, mode: facts.mode, kind: facts.kind, failure: failure,
                    in: typeNames
                )
            )
        }
        var outsideOfType: [ObjectIdentifier: Int] = [:]  // the nodes without a path, by service type
        func node(_ identity: ObjectIdentifier) -> Int {
            // An alias may lead to an identity that is aliased in turn (the inner provider of a
            // safe one made while recording): the chain ends at the provider's own.
            var chain = [identity]
            while let next = log.aliases[chain[chain.count - 1]], !chain.contains(next) {
                chain.append(next)
            }
            if let found = chain.reversed().lazy.compactMap({ index[$0] }).first {
                return found
            }
            let canonical = chain[chain.count - 1]
            index[canonical] = nodes.count
            let service = chain.reversed().lazy.compactMap { log.services[$0] }.first ?? Any.self
            let failure = chain.reversed().lazy.compactMap { log.failures[$0] }.first
            let ofItsType = outsideOfType[ObjectIdentifier(service), default: 0] + 1
            outsideOfType[ObjectIdentifier(service)] = ofItsType
            nodes.append(
                Node(
                    path: nil, serviceType: service, mode: .unknown, kind: .plain, failure: failure, in: typeNames,
                    ofItsType: ofItsType
                )
            )
            return nodes.count - 1
        }
        for identity in log.order {
            _ = node(identity)
        }
        // One edge per pair of nodes: a cycle when any get between them was one.
        var isCycle: [Edge: Bool] = [:]
        for recorded in log.edgeOrder {
            let pair = Edge(from: node(recorded.from), to: node(recorded.to), isCycle: false)
            guard pair.from != pair.to || recorded.isCycle else { continue }
            isCycle[pair] = (isCycle[pair] ?? false) || recorded.isCycle
        }
        let edges = isCycle.map { Edge(from: $0.key.from, to: $0.key.to, isCycle: $0.value) }
            .sorted { ($0.from, $0.to) < ($1.from, $1.to) }
        self.nodes = nodes
        self.edges = Self.markingCycles(Self.markingLoopsOfFailedNodes(edges, nodes: nodes))
    }

    /// `edges` with each edge marked that closes a loop among providers that failed on a
    /// dependency cycle: an edge between them whose end leads back to its start. A cycle of
    /// async makings that wait for each other is refused where no recorded get is the one that
    /// closes it; the loop is drawn all the same. A provider that failed on a cycle it only
    /// depends on leads back to none of them.
    static func markingLoopsOfFailedNodes(_ edges: [Edge], nodes: [Node]) -> [Edge] {
        let failed = Set(nodes.indices.filter { nodes[$0].failure?.isDependencyCycle == true })
        guard !failed.isEmpty else { return edges }
        var next: [Int: [Int]] = [:]
        for edge in edges where failed.contains(edge.from) && failed.contains(edge.to) {
            next[edge.from, default: []].append(edge.to)
        }
        func leads(from start: Int, backTo goal: Int) -> Bool {
            var reached: Set<Int> = [start]
            var pending = [start]
            while let node = pending.popLast() {
                if node == goal { return true }
                for to in next[node] ?? [] where reached.insert(to).inserted {
                    pending.append(to)
                }
            }
            return false
        }
        return edges.map { edge in
            guard !edge.isCycle, next[edge.from]?.contains(edge.to) == true, leads(from: edge.to, backTo: edge.from) else {
                return edge
            }
            return Edge(from: edge.from, to: edge.to, isCycle: true)
        }
    }

    /// `edges` with every edge on a cycle marked: a recorded cycle edge `a -> b` closes the
    /// path from `b` back to `a`.
    static func markingCycles(_ edges: [Edge]) -> [Edge] {
        var onCycle = Set(edges.indices.filter { edges[$0].isCycle })
        for closing in onCycle {
            // The shortest path from the node asked for back to the asker, breadth first.
            let start = edges[closing].to
            let goal = edges[closing].from
            var cameBy: [Int: Int] = [start: -1]
            var queue = [start]
            var head = 0
            while head < queue.count, cameBy[goal] == nil {
                let current = queue[head]
                head += 1
                for (offset, edge) in edges.enumerated() where edge.from == current && cameBy[edge.to] == nil {
                    cameBy[edge.to] = offset
                    queue.append(edge.to)
                }
            }
            var step = goal
            while step != start, let offset = cameBy[step], offset >= 0 {
                onCycle.insert(offset)
                step = edges[offset].from
            }
        }
        return edges.enumerated().map { offset, edge in
            Edge(from: edge.from, to: edge.to, isCycle: onCycle.contains(offset))
        }
    }
}
