import Foundation
import Testing

@testable import ServiceContainerKit
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread keeps the mark of its last making for its next one, and reuses it only when
/// nothing else refers to it. Each test runs on one thread: no `await` in between.
@Suite("Making marks")
struct MakingMarkTests {
    @Test("A thread's next making reuses the mark of its last one")
    func nextMakingReusesTheMark() throws {
        let first = ServiceProvider<MarkedA>(mode: .lazy) { MarkedA() }
        let second = ServiceProvider<MarkedB>(mode: .lazy) { MarkedB() }
        _ = try first.getService()
        let ended = ThreadContext.current.pointee.spareMaking?.hasEnded.load(ordering: .relaxed)
        #expect(ended == true)
        let spareID = try #require(Self.spareMark())  // no reference kept: it would stop the reuse
        _ = try second.getService()
        #expect(Self.spareMark() == spareID)
    }

    @Test("A making inside a making takes a mark of its own")
    func nestedMakingTakesAnotherMark() throws {
        let innerMark = Locked<ObjectIdentifier?>(nil)
        let inner = ServiceProvider<MarkedB>(mode: .lazy) { MarkedB() }
        let outer = ServiceProvider<MarkedA>(mode: .lazy) {
            _ = try inner.getService()
            // The inner making is over: its mark is the spare, while the outer one is in use.
            innerMark.withLock { $0 = Self.spareMark() }
            return MarkedA()
        }
        _ = try outer.getService()
        let outerMark = try #require(Self.spareMark())
        let kept = try #require(innerMark.withLock { $0 })
        #expect(kept != outerMark)
    }

    private static func spareMark() -> ObjectIdentifier? {
        ThreadContext.current.pointee.spareMaking.map(ObjectIdentifier.init)
    }

    @Test("A mark that something else still refers to is not reused nor reset")
    func referencedMarkIsNotReused() {
        let held = Making.forThisThread()
        held.hold {}
        Making.keepForThisThread(held)  // `held` still refers to it, as a waiter would
        let next = Making.forThisThread()
        #expect(next !== held)
        #expect(held.hasEnded.load(ordering: .relaxed) == true)
        #expect(next.hasEnded.load(ordering: .relaxed) == false)
    }

    @Test("A reused mark starts again as not ended")
    func reusedMarkIsReset() {
        var id: ObjectIdentifier?
        do {
            let making = Making.forThisThread()
            making.hold {}
            id = ObjectIdentifier(making)
            Making.keepForThisThread(consume making)
        }
        let again = Making.forThisThread()
        #expect(ObjectIdentifier(again) == id)
        #expect(again.hasEnded.load(ordering: .relaxed) == false)
        #expect(again.owner == ThreadContext.currentThread)
    }

    @Test(
        "A failed making's mark, kept for the thread's next making, keeps no error",
        arguments: [ServiceFactoryMode.lazy, .weak, .scoped]
    )
    func failedMarkKeepsNoError(mode: ServiceFactoryMode) {
        let provider = ServiceProvider<MarkedA>(mode: mode) { throw PayloadError(payload: FailurePayload()) }
        let result = ServiceScope(label: "failed mark").run { provider.getServiceAsResult() }
        #expect(result.failure?.error is PayloadError)
        let spare = ThreadContext.current.pointee.spareMaking
        #expect(spare?.hasFailed.load(ordering: .relaxed) == false)
        #expect(spare?.failure.withLock { $0 == nil } == true)
    }

    // In a process of its own: a logger that another test registers keeps the errors it hears of.
    @Test("The error of a failed making, and what it holds, is freed once its provider and its get are")
    func failedMakingsErrorIsFreed() async {
        await #expect(processExitsWith: .success) {
            for mode in [ServiceFactoryMode.lazy, .weak, .scoped] {
                weak var weakPayload: FailurePayload?
                do {
                    let payload = FailurePayload()
                    weakPayload = payload
                    let provider = ServiceProvider<MarkedA>(mode: mode) { throw PayloadError(payload: payload) }
                    let result = ServiceScope(label: "failed mark").run { provider.getServiceAsResult() }
                    #expect(result.failure?.error is PayloadError)
                }
                // The provider, its get and its error are gone; the thread makes nothing after them.
                #expect(weakPayload == nil, "the error of a failed \(mode) making lives on")
            }
        }
    }

    @Test("A failed making's mark that a waiting get still refers to is not kept")
    func failedMarkReferencedIsNotKept() throws {
        let held = Making.forThisThread()
        held.hold { held.fail(with: .refused(MarkedA.self, .dependencyCycle(service: MarkedA.self))) }
        Making.keepForThisThread(held)  // `held` still refers to it, as a waiting get would
        #expect(ThreadContext.current.pointee.spareMaking !== held)
        let error = try #require(held.endedFailure)  // what that get reads: still there
        #expect(error.isDependencyCycle)
    }

    @Test("A thread's spare mark is released when the thread exits", .offThePool)
    func spareIsReleasedAtThreadExit() throws {
        final class Probe: @unchecked Sendable {  // written by the thread before the join reads it
            weak var spare: Making?
            var made = false
            var hadSpare = false
        }
        let probe = Probe()
        let provider = ServiceProvider<MarkedA>(mode: .lazy) { MarkedA() }
        let box = Unmanaged.passRetained(ThreadBody {
            probe.made = (try? provider.getService()) != nil
            probe.spare = ThreadContext.current.pointee.spareMaking
            probe.hadSpare = probe.spare != nil
        })
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let created = pthread_create(&thread, nil, { raw in
            #if canImport(Darwin)
            let body = Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue()
            #else
            let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
            #endif
            body.run()
            return nil
        }, box.toOpaque())
        try #require(created == 0)
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
        #expect(probe.made)
        #expect(probe.hadSpare)
        #expect(probe.spare == nil)
    }
}

private final class MarkedA: Sendable {}
private final class FailurePayload: Sendable {}

/// A factory's error that holds an object, to see how long the error lives.
private struct PayloadError: Error {
    let payload: FailurePayload
}
private final class MarkedB: Sendable {}

/// What a thread started with `pthread_create` runs.
private final class ThreadBody: @unchecked Sendable {  // handed to one thread, run once there
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}
