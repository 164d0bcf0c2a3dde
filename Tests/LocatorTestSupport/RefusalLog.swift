import Foundation
import ServiceLocatorKit

/// Keeps every refusal reported to the `ServiceLocatorLogger`s, by locator.
public final class RefusalLog: ServiceLocatorLogger, @unchecked Sendable {  // `events` is reached under `lock` only
    /// The log, registered once for the whole test process.
    public static let shared: RefusalLog = {
        let log = RefusalLog()
        log.register()
        return log
    }()

    private let lock = NSLock()
    // The locators are kept, so that no other locator can take the address of one seen here.
    private var events: [(locator: AnyObject & Sendable, error: ServiceLocatorError)] = []

    public func serviceLocatorRefused(_ locator: AnyObject & Sendable, error: ServiceLocatorError) {
        lock.withLock { events.append((locator, error)) }
    }

    /// The refusals reported for `locator`, oldest first.
    public func errors(of locator: AnyObject) -> [ServiceLocatorError] {
        lock.withLock { events.filter { $0.locator === locator }.map(\.error) }
    }
}
