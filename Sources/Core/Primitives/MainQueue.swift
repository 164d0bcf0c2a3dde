import Dispatch
import Foundation

/// Where the main actor runs: the main thread, or a block of the main queue.
///
/// The main actor's executor is the main queue, and Linux serves that queue from a thread other
/// than the first once a program with an asynchronous `main` has awaited (or once it called
/// `dispatchMain()`): there `Thread.isMainThread` is `false` on the main actor. A mark set on the
/// main queue, which `DispatchQueue.getSpecific` finds only in its blocks, tells it apart.
enum MainQueue {
    /// Whether the caller runs on the main actor (the main thread or the main queue).
    static var isCurrent: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mark) != nil
    }

    private static let mark: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}
