import CServiceContainerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the current thread is doing for the library: the providers whose service it is
/// obtaining, innermost last, whether it is delivering a log event, the objects whose release
/// it has put off, the mark of its last making, and the call of the package's API that a crash
/// on it stops inside. The package's one thread-local state.
///
/// A get that finds its own provider already being obtained is a dependency cycle: it fails at
/// once instead of waiting for itself or recursing until the stack overflows. A log event
/// raised while the thread delivers another is dropped, so a logger cannot re-enter itself.
///
/// Each thread has its own context, so nothing here is synchronized. It is plain memory reached
/// through a C thread-local pointer (`sck_thread_context`, one load), not an object, so entering
/// it on a get costs no reference counting (the objects it keeps, such as the spare mark, are
/// moved in and out, not retained on a get). A pthread key frees it, and releases them, when
/// the thread exits.
@usableFromInline
package struct ThreadContext {
    /// The providers being obtained, innermost last: `capacity` slots, of which the first
    /// `count` are initialized, and `count < capacity` before `push` writes one (it grows first).
    @usableFromInline var entries: UnsafeMutablePointer<ObjectIdentifier>
    @usableFromInline var capacity: Int
    @usableFromInline var count: Int
    @usableFromInline var deliveringLogEvent: Bool
    /// Objects released by `releaseIteratively` while it was releasing another, in line.
    var deferredReleases: [AnyObject]?
    /// What this thread records for a validation or a graph recorder (`GetRecording`).
    var recording: ThreadRecording?
    /// The innermost singleton whose making this thread runs, if any: a scoped get made while
    /// it is set fails, since the singleton would keep the scope's service.
    @usableFromInline var keeper: SingletonKeeper?
    /// The mark of this thread's last making, kept for its next one (`Making.forThisThread()`);
    /// never with the error of a failed making (`Making.keepForThisThread(_:)`).
    @usableFromInline var spareMaking: Making?
    /// The innermost call of the package's API that this thread runs and that a crash inside it
    /// names (`whileRunning(_:_:)`).
    var runningCall: String?

    /// The context of the calling thread, made on first use and freed when the thread exits.
    @inlinable
    static var current: UnsafeMutablePointer<ThreadContext> {
        if let raw = sck_thread_context_get() {
            return raw.assumingMemoryBound(to: ThreadContext.self)
        }
        return makeCurrent()
    }

    @usableFromInline
    static func makeCurrent() -> UnsafeMutablePointer<ThreadContext> {
        let context = UnsafeMutablePointer<ThreadContext>.allocate(capacity: 1)
        let capacity = 16
        context.initialize(
            to: ThreadContext(
                entries: .allocate(capacity: capacity),
                capacity: capacity,
                count: 0,
                deliveringLogEvent: false,
                deferredReleases: nil,
                recording: nil,
                keeper: nil,
                spareMaking: nil,
                runningCall: nil
            )
        )
        pthread_setspecific(threadContextKey, context)  // for its destructor, at the thread's exit
        sck_thread_context_set(context)
        return context
    }

    @inlinable
    func contains(_ id: ObjectIdentifier) -> Bool {
        var index = 0
        while index < count {
            if entries[index] == id { return true }
            index += 1
        }
        return false
    }

    @inlinable
    mutating func push(_ id: ObjectIdentifier) {
        if count == capacity {
            grow()
        }
        assert(count < capacity, "a write past the \(capacity) slots of the thread's stack of gets")
        entries[count] = id
        count &+= 1
    }

    @usableFromInline
    mutating func grow() {
        let grown = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = grown
        capacity *= 2
    }

    /// Runs `body` with `id` marked as being obtained on this thread. While a validation or a
    /// graph recorder runs, `body` is recorded as a making of `node` (`id` unless given), which
    /// runs the making of `id` when the two differ.
    ///
    /// - Throws: a `ServiceObtainError` with `ServiceFactoryError.dependencyCycle` when `id` is
    ///   already being obtained on this thread; `body` is not run then.
    @inlinable
    static func withEntered<Service, Value>(
        _ id: ObjectIdentifier,
        service: Service.Type,
        node: ObjectIdentifier? = nil,
        _ body: () throws(ServiceObtainError) -> Value
    ) throws(ServiceObtainError) -> Value {
        let context = current
        if context.pointee.contains(id) {
            throw cycleError(Service.self, id: id)
        }
        context.pointee.push(id)
        defer { context.pointee.count &-= 1 }
        if GetRecording.isOn {
            return try GetRecording.recordMaking(id, node: node, service: Service.self, body)
        }
        return try body()
    }

    /// Runs `body` with `id` marked as being obtained on this thread, whether or not it is
    /// already: a get of `id` that `body` makes fails as a cycle.
    @inlinable
    static func withMarked<Value, Failure>(_ id: ObjectIdentifier, _ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        let context = current
        context.pointee.push(id)
        defer { context.pointee.count &-= 1 }
        return try body()
    }

    /// Runs `body`, the making of a singleton, with `keeper` as this thread's innermost one and,
    /// once the process has made a scope or a scoped provider (`ServiceScope.areUsed`), as its
    /// task's too: the scoped gets of a `Task {}` the factory starts fail as captive while the
    /// making runs, whatever scope the task is in (`TaskContext.whileKeeping`), also the
    /// process's first scope. Only a thread or task that makes the process's first scoped
    /// provider after the making began is not watched so.
    @inlinable
    static func withKeeper<Value>(_ keeper: SingletonKeeper, _ body: () -> Value) -> Value {
        let context = current
        let outer = context.pointee.keeper
        context.pointee.keeper = keeper
        defer { context.pointee.keeper = outer }
        if ServiceScope.areUsed {
            return TaskContext.whileKeeping(keeper, body)
        }
        return body()
    }

    /// Whether this thread is obtaining any service (running a factory or a session hook).
    @usableFromInline
    static var isObtainingAny: Bool {
        current.pointee.count > 0
    }

    /// The calling thread, as a number no other living thread has.
    @usableFromInline
    static var currentThread: Int {
        Int(bitPattern: current)
    }

    /// The error of a get that found its provider (`id`, when it has one) already being
    /// obtained; it is logged, and recorded while a validation or a graph recorder runs.
    @usableFromInline
    static func cycleError(_ service: Any.Type, id: ObjectIdentifier? = nil) -> ServiceObtainError {
        cycleError(along: [service], id: id)
    }

    /// The error of a get of `loop[0]` that would wait, through makings of other threads or
    /// tasks that wait for each other, for a making of this thread or task: `loop` holds the
    /// services those makings make, in the order they wait, and ends with the service this one
    /// makes, which the cycle is named after. The makings this error then fails add the rest of
    /// the cycle to its path (`[A, B, A]` for a making of A on this thread whose get of B waits
    /// for another thread's making of B, which waits for A). Recorded as a cycle of `loop[0]`.
    static func cycleError(along loop: [Any.Type], id: ObjectIdentifier?) -> ServiceObtainError {
        if let id, GetRecording.isOn {
            GetRecording.recordCycle(node: id, service: loop[0])
        }
        let repeated = loop[loop.count - 1]
        return loop.dropLast().reversed().reduce(.refused(repeated, .dependencyCycle(service: repeated))) { error, service in
            error.withAddedToPath(service: service)
        }
    }

    /// What this thread records, if it ever recorded.
    static var recording: ThreadRecording? {
        current.pointee.recording
    }

    /// What this thread records, made on first use.
    static var recordingState: ThreadRecording {
        let context = current
        if let recording = context.pointee.recording { return recording }
        let made = ThreadRecording()
        context.pointee.recording = made
        return made
    }

    /// Whether this thread is delivering a log event.
    static var isDeliveringLogEvent: Bool {
        current.pointee.deliveringLogEvent
    }

    /// Runs `body`, which delivers a log event, with this thread marked as delivering one. The
    /// gets a logger makes are its own, not those of the making whose failure it logs: the
    /// thread's recording frames are set aside while it runs, and its task's recording, so that a
    /// validation or a recorder does not take them (or those of a task it starts) for that
    /// making's dependencies.
    static func withLogDelivery(_ body: () -> Void) {
        let context = current
        let outer = context.pointee.deliveringLogEvent
        context.pointee.deliveringLogEvent = true
        let recording = context.pointee.recording
        let frames = recording?.frames ?? []
        recording?.frames = []
        defer {
            context.pointee.deliveringLogEvent = outer
            recording?.frames = frames
        }
        TaskRecording.outside(body)
    }
}

extension ThreadContext {
    /// The innermost call that this thread runs through `whileRunning(_:_:)`, if any: a crash
    /// of code that call ran names it, since the file and line the crash reports are elsewhere.
    /// A thread-local value, not a task-local one, so that a task started inside the call, which
    /// may run on another thread or after the call returned, does not inherit it.
    package static var runningCall: String? {
        current.pointee.runningCall
    }

    /// Runs `body` with `call` (`ServiceInjectResolver.register(_:) at App/Start.swift:7`) as the
    /// innermost call this thread runs.
    package static func whileRunning<Value>(_ call: String, _ body: () -> Value) -> Value {
        let context = current
        let outer = context.pointee.runningCall
        context.pointee.runningCall = call
        defer { context.pointee.runningCall = outer }
        return body()
    }

    /// Releases `objects`, and whatever their deinits release the same way, one after the
    /// other instead of one inside the other: a chain of objects that each release the next in
    /// their deinit (a locator's parents) would otherwise overflow the stack when it is long.
    ///
    /// The first call on a thread releases its objects in a loop; a call made by a deinit that
    /// loop runs only queues its objects for the loop.
    package static func releaseIteratively(_ objects: consuming [AnyObject]) {
        let context = current
        if context.pointee.deferredReleases != nil {
            context.pointee.deferredReleases!.append(contentsOf: objects)
            return
        }
        context.pointee.deferredReleases = consume objects
        // Each object goes at the end of its turn of the loop; its deinit may queue more.
        while let next = context.pointee.deferredReleases?.popLast() {
            _ = next
        }
        context.pointee.deferredReleases = nil
    }
}

/// The key whose destructor frees a thread's context when the thread exits.
let threadContextKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key) { raw in
        #if canImport(Darwin)
        let context = raw.assumingMemoryBound(to: ThreadContext.self)
        #else
        guard let context = raw?.assumingMemoryBound(to: ThreadContext.self) else { return }
        #endif
        // A destructor of another key that runs after this one and gets a service makes a new
        // context, which this destructor frees in its next round.
        sck_thread_context_set(nil)
        context.pointee.entries.deallocate()
        context.deinitialize(count: 1)
        context.deallocate()
    }
    precondition(rc == 0, "pthread_key_create failed: \(rc)")
    return key
}()
