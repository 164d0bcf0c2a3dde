/// The registries that keep the identities of objects (`ObjectIdentifier`) without keeping the
/// objects: the keys a shutdown refused (`ShutdownRegistry`), and what a running validation or
/// graph recorder saw (`GetLog`).
///
/// **Invariant.** An identity is kept only while its object lives, or is renamed when it dies:
/// every class whose identity they may keep calls `released(_:)` in its `deinit`, before the
/// object's memory can be reused by another object, so no object is ever taken for a dead one.
/// Those classes are the sources of `ServiceSource`'s cases, `ServiceProvider`, `ParamsMaker`,
/// `RecordingNode`, the session cell, and the async and main-actor providers and sources.
/// `ShutdownTests` shuts down and releases one of each and checks that nothing stays; the graph
/// recorder's and the validator's tests drop providers while recording.
@usableFromInline
enum KeptIdentities {
    /// Notes that `object` is being released. One load of a global while no container was shut
    /// down and nothing records in the process (`GetRecording.isOn`).
    @inline(__always)
    static func released(_ object: AnyObject) {
        if GetRecording.isOn {
            released(ObjectIdentifier(object))
        }
    }

    @inline(never)
    private static func released(_ identity: ObjectIdentifier) {
        ShutdownRegistry.forget(identity)
        GetRecording.retire(identity)
    }
}
