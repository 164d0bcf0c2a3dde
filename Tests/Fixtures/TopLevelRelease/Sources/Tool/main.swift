// The top-level code of a small tool: services got with `try` in the statements of main.swift,
// among them a plain `throws` method of the tool's own. Built -c release by .ci/top-level-release
// and run.
//
// Swift 6.3.1 crashed while optimizing this file ("swifterror value can only be loaded and stored
// from, or as a swifterror argument!") while each get written here inlined two calls that may
// throw; a get now inlines one (ServiceProvider.getService()). Whether the optimizer crashes
// depends on the shape of the whole file, down to statements that look idle (the empty `_ =`
// comparison, the unused mirror): change it only together with a check that it still crashed
// against the getter of two calls.

import Foundation
import ServiceContainerKit
nonisolated(unsafe) var failures = 0
func check(_ c: Bool, _ msg: String) {
    print(c ? "ok:" : "FAILED:", msg)
    if !c { failures += 1 }
}
protocol Clock: AnyObject {}
final class SystemClock: Clock {}
protocol Cache: AnyObject {}
final class MemoryCache: Cache {}
protocol Store: AnyObject {}
final class MemoryStore: Store { let s: Clock; init(clock: Clock) { s = clock } }
struct ExportOptions { let number: Int }
final class Exporter { let cache: Cache; let store: Store; var number = 0
    init(cache: Cache, store: Store) { self.cache = cache; self.store = store } }
final class Session {}
struct ClockFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .atOne
    func makeService() throws -> Clock {
        return SystemClock()
    }
}
struct CacheFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> Cache {
        return MemoryCache()
    }
}
class StoreFactory: ServiceFactory {
    let clocks: ServiceProvider<Clock>
    var count: Int

    init(clocks: ServiceProvider<Clock>) {
        self.clocks = clocks
        self.count = 0
    }

    let mode: ServiceFactoryMode = .many
    func makeService() throws -> Store {
        return MemoryStore(clock: try clocks.getService())
    }
}
struct ExporterFactory: ServiceParamsFactory {
    let caches: ServiceProvider<Cache>
    let stores: ServiceProvider<Store>
    func makeService(params: ExportOptions?) throws -> Exporter {
        let instance = Exporter(
            cache: try caches.getService(),
            store: try stores.getService()
        )
        instance.number = params?.number ?? 1
        return instance
    }
}
struct SessionFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .weak
    func makeService() throws -> Session { Session() }
}
struct Tool {
    private let stores: ServiceProvider<Store>
    private let exporters: ServiceParamsProvider<Exporter, ExportOptions?>
    init(first: ServiceProvider<Store>, second: ServiceParamsProvider<Exporter, ExportOptions?>) {
        stores = first; exporters = second
    }
    func getStore() -> Store {
        return stores.getServiceOrFatal()
    }
    func getExporter(params: ExportOptions?) throws -> Exporter {
        return try exporters.getService(params: params)
    }
}
let clocks = ClockFactory().serviceProvider()
let caches = CacheFactory().serviceProvider()
let stores: ServiceSafeProvider<Store> = StoreFactory(clocks: clocks).serviceSafeProvider(safeThread: .lock)
let second = ExporterFactory(caches: caches, stores: stores).serviceProvider()
let tool = Tool(first: stores, second: second)
check(try tool.getExporter(params: .init(number: 5)).number == 5, "an exporter made with its options")
check(try clocks.getService() === (try clocks.getService()), "one clock, made at once")
check(try caches.getService() === (try caches.getService()), "one cache, made at the first get")
let sessions = SessionFactory().serviceProvider()
var held: Session? = try sessions.getService()
let heldID = ObjectIdentifier(held!)
check(held === (try sessions.getService()), "the session while it is held")
let current = try sessions.getService()
_ = ObjectIdentifier(current) == heldID
weak var watched: Session?
do { let session = try sessions.getService(); watched = session }
let serialized = CacheFactory().serviceSafeProvider(safeThread: .semaphore)
let queued = CacheFactory().serviceSafeProvider(safeThread: .queue(qos: .default, label: "caches"))
let locked = CacheFactory().serviceSafeProvider()
check(serialized.getServiceAsOptional() != nil && queued.getServiceAsOptional() != nil && locked.getServiceAsOptional() != nil, "a cache through each kind of lock")
struct OfflineError: Error {}
enum Offline {
    final class Mirror { init(store: Store) {} }
    struct StoreFactory: ServiceFactory {
        let mode: ServiceFactoryMode = .lazy
        func makeService() throws -> Store {
            if CommandLine.arguments.contains("--offline") { throw OfflineError() }
            return MemoryStore(clock: SystemClock())
        }
    }
    struct MirrorFactory: ServiceFactory {
        let store: ServiceProvider<Store>
        let mode: ServiceFactoryMode = .many
        func makeService() throws -> Mirror {
            return Mirror(store: try store.getService())
        }
    }
}
let mirrors = Offline.MirrorFactory(store: Offline.StoreFactory().serviceProvider()).serviceProvider()
do {
    _ = try mirrors.getService()
}
let labels = ServiceParamsProvider<String, Int> { count in "\(count) items" }
check((try? labels.getService(params: 3)) == "3 items", "a label made with its params")
guard failures == 0 else { fatalError("\(failures) failed") }
