import Foundation
import ServiceContainerKit
import ServiceEasyLocatorKit

/// The hot paths next to the same work written by hand the way an app would write it, for the
/// instruction counts (`--instructions`): the loop is written out in each body, with nothing
/// between it and the get but a call that keeps the result alive (`keep(_:)`), so that the
/// baseline is the cheapest form of that work. A stored `let` read, an `NSLock` taken around a
/// read, a bare allocation, a dictionary keyed by type, closures calling each other.
///
/// Registration is not among them: counted fairly, it needs a thousand distinct non-generic
/// service types, and the locator cases register generic `Numbered` types, whose metadata
/// costs more to look up than the registration itself; `locator/register a service` times it.
///
/// A ceiling the package does not meet yet is `open`: its count is printed with the word
/// `open` and does not fail the run, so that the gap stays in sight until it is closed.
enum HandWrittenCases {
    static var all: [BenchmarkCase] {
        [singleton, transient, transientWithParams, graph, threadSafe, lookup, coldStart]
    }

    /// A made singleton against a stored `let` read.
    static var singleton: BenchmarkCase {
        BenchmarkCase(
            "hand-written/singleton: atOne get",
            baseline: "stored let read",
            target: nil,
            instructions: .extra(25),
            instructionsOpen: true
        ) {
            let provider = ServiceProvider(mode: .atOne) { BenchService(number: 1) }
            let stored = try! provider.getService()
            return .init(
                subject: { for _ in 0..<$0 { keep(try! provider.getService()) } },
                baseline: { for _ in 0..<$0 { keep(stored) } },
                probe: { try! provider.getService() === stored ? nil : "a get gave another service" }
            )
        }
    }

    /// A `many` get against a bare allocation.
    static var transient: BenchmarkCase {
        BenchmarkCase(
            "hand-written/transient: many get",
            baseline: "bare allocation",
            target: nil,
            instructions: .ratio(1.2),
            instructionsOpen: true
        ) {
            let provider = ServiceProvider(mode: .many) { BenchService(number: 1) }
            return .init(
                subject: { for _ in 0..<$0 { keep(try! provider.getService()) } },
                baseline: { for _ in 0..<$0 { keep(BenchService(number: 1)) } },
                probe: { try! provider.getService() !== (try! provider.getService()) ? nil : "two gets gave one service" }
            )
        }
    }

    /// A params get against an allocation taking the same argument.
    static var transientWithParams: BenchmarkCase {
        BenchmarkCase(
            "hand-written/transient, 1 param: params get",
            baseline: "allocation with one argument",
            target: nil,
            instructions: .ratio(1.2)
        ) {
            let provider = ServiceParamsProvider<BenchService, Int> { BenchService(number: $0) }
            return .init(
                subject: { for index in 0..<$0 { keep(try! provider.getService(params: index)) } },
                baseline: { for index in 0..<$0 { keep(BenchService(number: index)) } },
                probe: { (try! provider.getService(params: 5)).number == 5 ? nil : "params 5 did not reach the factory" }
            )
        }
    }

    /// `a` and `b` made on every get, `c` a singleton, each factory getting its dependency.
    static var graph: BenchmarkCase {
        BenchmarkCase(
            "hand-written/graph, 3 deep",
            baseline: "a(b(c)) made by hand",
            target: nil,
            instructions: .ratio(1.2),
            instructionsOpen: true
        ) {
            let c = ServiceProvider(mode: .atOne) { GraphC() }
            let b = ServiceProvider(mode: .many) { GraphB(c: try c.getService()) }
            let a = ServiceProvider(mode: .many) { GraphA(b: try b.getService()) }
            let madeC = try! c.getService()
            return .init(
                subject: { for _ in 0..<$0 { keep(try! a.getService()) } },
                baseline: { for _ in 0..<$0 { keep(GraphA(b: GraphB(c: madeC))) } },
                probe: { (try! a.getService()).b.c === madeC ? nil : "the graph did not reach the singleton" }
            )
        }
    }

    /// A safe provider's made service against an `NSLock` taken around a stored read.
    static var threadSafe: BenchmarkCase {
        BenchmarkCase(
            "hand-written/thread-safe singleton: .lock get",
            baseline: "NSLock lock, read, unlock",
            target: nil,
            instructions: .ratio(1.5)
        ) {
            let provider = ServiceSafeProvider(mode: .lazy, safeThread: .lock) { BenchService(number: 1) }
            let lock = NSLock()
            let stored = try! provider.getService()
            return .init(
                subject: { for _ in 0..<$0 { keep(try! provider.getService()) } },
                baseline: {
                    for _ in 0..<$0 {
                        lock.lock()
                        let service = stored
                        lock.unlock()
                        keep(service)
                    }
                },
                probe: { try! provider.getService() === stored ? nil : "a get gave another service" }
            )
        }
    }

    static let lookupSize = 1_000

    /// A get by type from a locator of 1,000 types against a dictionary keyed by type.
    static var lookup: BenchmarkCase {
        BenchmarkCase(
            "hand-written/lookup among \(lookupSize.formatted) types",
            baseline: "[ObjectIdentifier: AnyObject] lookup",
            target: nil,
            instructions: .ratio(1.3)
        ) {
            let locator = LocatorCases.easyLocatorHolder(size: lookupSize).value
            let (dictionary, key) = LocatorCases.dictionaryHolder(size: lookupSize).value
            typealias Wanted = LocatorCases.Wanted
            return .init(
                subject: { for _ in 0..<$0 { keep(locator.getService(serviceType: Wanted.self)!) } },
                baseline: { for _ in 0..<$0 { keep(dictionary[key] as! Wanted) } },
                probe: {
                    let first = locator.getService(serviceType: Wanted.self)
                    return first != nil && first === locator.getService(serviceType: Wanted.self)
                        ? nil : "the locator did not give its one service"
                }
            )
        }
    }

    /// A container of 200 `lazy` providers whose factories get the providers they depend on,
    /// every one got once, against the same closures written by hand, each making its object
    /// once; one operation is one container.
    static var coldStart: BenchmarkCase {
        BenchmarkCase(
            "hand-written/cold start, \(ColdGraph.size) lazy providers",
            baseline: "\(ColdGraph.size) lazy closures by hand",
            target: nil,
            instructions: .ratio(2.0),
            countedIterations: (small: 10, large: 60)
        ) {
            .init(
                subject: { for _ in 0..<$0 { keep(ColdContainer().getEveryService()) } },
                baseline: { for _ in 0..<$0 { keep(HandColdContainer().getEveryService()) } },
                probe: {
                    let numbers = ColdContainer().getEveryService().services.map { ($0 as! BenchService).number }
                    return numbers == Array(0..<ColdGraph.size) ? nil : "the nodes were not each made once"
                }
            )
        }
    }
}

/// Keeps `object` alive through a call the optimizer cannot see into, borrowing it: a read of a
/// stored `let` handed to it costs no reference counting.
@inline(never) @_optimize(none)
func keep(_ object: AnyObject) {}

/// A fixed graph of `size` nodes, each depending on up to three earlier ones, the same on every
/// run (a linear congruential sequence from a fixed seed).
enum ColdGraph {
    static let size = 200
    static let dependencies: [[Int]] = {
        var state: UInt64 = 0x5EED
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        return (0..<size).map { node in node == 0 ? [] : (0..<next() % 4).map { _ in next() % node } }
    }()
}

/// What a cold container hands back: its services, in the order of its nodes.
final class ColdServices {
    let services: [AnyObject]

    init(_ services: [AnyObject]) {
        self.services = services
    }
}

/// The graph in providers, as a user's container holds them.
final class ColdContainer: @unchecked Sendable {
    // Filled in `init` before any get; read-only afterwards.
    private(set) var providers: [ServiceProvider<AnyObject>] = []

    init() {
        providers.reserveCapacity(ColdGraph.size)
        for node in 0..<ColdGraph.size {
            let dependencies = ColdGraph.dependencies[node]
            providers.append(
                ServiceProvider<AnyObject>(mode: .lazy) { [unowned self] in
                    for dependency in dependencies { _ = try self.providers[dependency].getService() }
                    return BenchService(number: node)
                })
        }
    }

    func getEveryService() -> ColdServices {
        ColdServices(providers.map { try! $0.getService() })
    }
}

/// The graph by hand: a closure per node that makes its object once, after its dependencies'.
final class HandColdContainer {
    private var made: [AnyObject?] = Array(repeating: nil, count: ColdGraph.size)
    private var makers: [() -> AnyObject] = []

    init() {
        makers.reserveCapacity(ColdGraph.size)
        for node in 0..<ColdGraph.size {
            let dependencies = ColdGraph.dependencies[node]
            makers.append { [unowned self] in
                if let object = self.made[node] { return object }
                for dependency in dependencies { _ = self.makers[dependency]() }
                let object = BenchService(number: node)
                self.made[node] = object
                return object
            }
        }
    }

    func getEveryService() -> ColdServices {
        ColdServices(makers.map { $0() })
    }
}
