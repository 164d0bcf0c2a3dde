import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ServiceContainerKit
import TestSupport

// Memory that must stay flat, in debug and release builds alike: failed gets with each kind of
// logger, and successful gets of each kind of provider. Each case runs in a child process of its
// own (an exit test), where no other test allocates while the heap is read.
//
// Swift Testing keeps a backtrace for every error thrown while an error object is alive (its
// `swift_willThrow` hook), so a logger that holds errors until its queue delivers them would
// grow the test process's heap and not an app's. The child processes that measure run without
// that capture (`SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0`, which they inherit).

/// The most a get may grow the heap by, on average: a leak of a few bytes per get fails.
private let flatBytesPerGet = 0.5

private struct HeapFailure: Error {}
private final class HeapService: Sendable {}
private final class HeapDependency: Sendable {}

/// Counts the failures it is told of, on the queue it names.
private final class CountingLogger: ProvidersLogger, Sendable {
    let queue: DispatchQueue?
    private let failures = Atomic<Int>(0)

    init(queue: DispatchQueue?) {
        self.queue = queue
    }

    func serviceProviderMakeFailure(type: Any.Type, error: ServiceObtainError) {
        failures.add(1, ordering: .relaxed)
    }

    var count: Int { failures.load(ordering: .relaxed) }

    /// Waits until it was told of `expected` failures: the queue delivered what it was given.
    func settle(at expected: Int) {
        let deadline = ContinuousClock.now + .seconds(30)
        while count < expected, ContinuousClock.now < deadline {
            usleep(1_000)
        }
        #expect(count == expected, "the logger's queue did not deliver every event within 30 s")
    }
}

/// Who hears of the failed gets.
enum FailureListener: String, Codable, Sendable, CaseIterable {
    case noLogger
    case synchronousLogger
    case serialQueueLogger
}

/// A kind of provider, got successfully.
enum GetKind: String, Codable, Sendable, CaseIterable {
    case instance, atOne, lazy, weak, many, session, safe, params
}

// One exit test at a time: each child process runs for seconds, and while several ran at once
// the async tests of the same run starved past their 10-second limits (1 run in 3 or 5 of a
// subset, 0 in 5 serialized), as the run waits for its exit tests on its few threads.
@Suite("Heap: gets leave memory flat", .serialized, .disabled(if: underThreadSanitizer, "ThreadSanitizer's allocator is not the C allocator"))
struct HeapTests {
    /// Turns Swift Testing's capture of thrown errors off for the child processes started from
    /// now on; set once, before the first of them starts.
    static let withoutErrorBacktraces: Void = {
        setenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED", "0", 1)
    }()

    init() {
        Self.withoutErrorBacktraces
    }

    @Test("500,000 failed gets leave the heap flat", arguments: FailureListener.allCases)
    func failedGets(listener: FailureListener) async {
        await #expect(processExitsWith: .success) { [listener] in
            let logger: CountingLogger?
            switch listener {
            case .noLogger: logger = nil
            case .synchronousLogger: logger = CountingLogger(queue: nil)
            case .serialQueueLogger: logger = CountingLogger(queue: DispatchQueue(label: "HeapTests.logger"))
            }
            logger?.register()
            let failing = ServiceProvider<HeapService>(mode: .many) { throw HeapFailure() }
            var gets = 0
            // A queue's own caches fill during the first 100,000 to 200,000 deliveries (about
            // 260 KB, once), later on a loaded machine: the warm-up covers them, and of two rounds
            // the smaller growth counts, so that what is measured is growth per get.
            let growth = heapGrowthPerCall(
                count: 500_000, warmUp: 200_000, rounds: 2, settle: { logger?.settle(at: gets) }
            ) {
                gets += 1
                if let service = try? failing.getService() { withExtendedLifetime(service) {} }
            }
            #expect(growth < flatBytesPerGet, "\(growth) bytes per failed get with \(listener)")
            if let logger {
                #expect(logger.count == gets)
            }
        }
    }

    @Test("500,000 failures for a main-queue logger that is never drained keep at most its cap")
    func undrainedMainQueue() async {
        await #expect(processExitsWith: .success) {
            // A recorder of its own, whose main-queue drain never runs.
            let recorder = LogRecorder(scheduleOnMain: { _ in })
            let logger = CountingLogger(queue: .main)
            recorder.register(logger)
            let error = ServiceObtainError(service: HeapService.self, error: HeapFailure())
            let warmUp = 2 * MainQueueMailbox.capacity
            let growth = heapGrowthPerCall(count: 500_000, warmUp: warmUp) {
                recorder.providerMakeFailure(type: HeapService.self, error: error)
            }
            #expect(growth < flatBytesPerGet, "\(growth) bytes per event")
            #expect(recorder.pendingMainQueueEvents == MainQueueMailbox.capacity)
            #expect(recorder.droppedMainQueueEvents == 500_000 + warmUp - MainQueueMailbox.capacity)
            #expect(logger.count == 0)
        }
    }

    @Test("1,000,000 successful gets of each kind leave the heap flat", arguments: GetKind.allCases)
    func successfulGets(kind: GetKind) async {
        await #expect(processExitsWith: .success) { [kind] in
            let get = HeapTests.getter(kind)
            let growth = heapGrowthPerCall(count: 1_000_000) { get() }
            #expect(growth < flatBytesPerGet, "\(growth) bytes per get of a \(kind) provider")
        }
    }

    /// A get of a provider of `kind` whose service is made with one dependency.
    static func getter(_ kind: GetKind) -> () -> Void {
        let dependency = ServiceProvider(HeapDependency())
        let make: @Sendable () throws -> HeapService = {
            _ = try dependency.getService()
            return HeapService()
        }
        let provider: ServiceProvider<HeapService>
        switch kind {
        case .instance: provider = ServiceProvider(HeapService())
        case .atOne: provider = ServiceProvider(mode: .atOne, factory: make)
        case .lazy: provider = ServiceProvider(mode: .lazy, factory: make)
        case .weak: provider = ServiceProvider(mode: .weak, factory: make)
        case .many: provider = ServiceProvider(mode: .many, factory: make)
        case .session:
            struct Factory: ServiceSessionFactory {
                let mode: ServiceSessionFactoryMode = .lazy
                func makeService(session: ServiceVoidSession) throws -> HeapService { HeapService() }
            }
            provider = Factory().serviceProvider(mediator: ServiceVoidSessionMediator())
        case .safe: provider = ServiceSafeProvider(mode: .lazy, safeThread: .lock, factory: make)
        case .params:
            let params = ServiceParamsProvider<HeapService, Int> { _ in try make() }
            return { if let service = try? params.getService(params: 1) { withExtendedLifetime(service) {} } }
        }
        // A weak service lives while someone holds it: this test does, as a user would.
        let held = kind == .weak ? try? provider.getService() : nil
        return {
            withExtendedLifetime(held) {
                if let service = try? provider.getService() { withExtendedLifetime(service) {} }
            }
        }
    }
}
