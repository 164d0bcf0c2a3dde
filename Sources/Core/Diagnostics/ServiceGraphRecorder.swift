/// Records which provider's get asks for which while an app runs, on every thread, and gives
/// the same ``ServiceGraph`` as a validation, from the app's real gets.
///
/// ```swift
/// let recorder = ServiceGraphRecorder()      // starts recording
/// let services = Services.makeDefault()
/// handleRequests(services)
/// recorder.stop()
/// print(recorder.graph(of: services).dot())  // nodes named by the container's paths
/// ```
///
/// Every get that a making asks for is recorded as an edge, whatever the state of the provider
/// it gets: a read of a service already made is an edge too. Providers made while a recorder
/// runs record every get, `atOne` makings included: start the recorder before the container is
/// built to see what those makings ask for. Such providers cost a call more per get
/// for as long as they live, recording or not, so use a recorder in a debug build or a test.
/// While no recorder or validation runs, the other providers pay one relaxed load and a branch
/// per get.
///
/// The gets of async and main-actor providers (`ServiceAsyncProvider`,
/// `ServiceMainActorProvider`) are recorded too, from any task: what an async making gets, and
/// what a `Task { }` it starts gets while it runs, are its dependencies.
public final class ServiceGraphRecorder: Sendable {
    private let log = GetLog()
    private let running = Locked(false)

    /// Starts recording the gets of every thread (but a thread that runs a validation, whose gets
    /// go to the validation's report).
    ///
    /// ```swift
    /// let recorder = ServiceGraphRecorder()  // records every get from here
    /// ```
    public init() {
        running.withLock { $0 = true }
        GetRecording.addRecorder(log)
        GetRecording.count(1)
    }

    deinit {
        stop()
    }

    /// Whether it is recording (it is from its start until ``stop()``).
    ///
    /// ```swift
    /// recorder.stop()
    /// // recorder.isRecording == false
    /// ```
    public var isRecording: Bool {
        running.withLock { $0 }
    }

    /// Stops recording; what was recorded stays. Calling it again does nothing.
    ///
    /// ```swift
    /// recorder.stop()
    /// let graph = recorder.graph(of: services)  // the gets made until stop()
    /// ```
    public func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        GetRecording.removeRecorder(log)
        GetRecording.count(-1)
    }

    /// The graph of what was recorded so far.
    ///
    /// ```swift
    /// print(recorder.graph(of: services).mermaid())  // nodes named by the container's paths
    /// print(recorder.graph().dot())                  // nodes named by their service types
    /// ```
    ///
    /// A provider released while the recorder ran keeps a node of its own; one released after
    /// ``stop()`` may leave its identity to an object made later at its address. So pass the
    /// container that was recorded, kept since, not one built after the stop.
    ///
    /// - Parameter container: the app's container (or locator), whose property paths name the
    ///   nodes; every provider of it is a node, asked for or not. Without it, the nodes are named
    ///   by their service types.
    public func graph(of container: Any? = nil) -> ServiceGraph {
        ServiceGraph(
            providers: container.map { ContainerWalk($0).graphFacts } ?? [],
            log: log.snapshot
        )
    }
}
