import Foundation
import LocatorTestSupport
import ServiceEasyLocatorKit

// The services of these tests; the ones both locator products' tests use are in
// LocatorTestSupport.

protocol SharedServicing: AnyObject, Sendable {
    var name: String { get }
}

final class SharedService: SharedServicing {
    let name: String
    init(name: String = "shared") { self.name = name }
}

protocol Tagging: Sendable {}

/// A service of two protocols, for the hint of a miss of their composition.
final class TaggedSharedService: SharedServicing, Tagging {
    let name = "tagged"
}

/// A base class, for the hint of a miss of the composition of a class and a protocol.
class NamedBase: @unchecked Sendable {}  // no state

final class TaggedNamedService: NamedBase, Tagging, @unchecked Sendable {}  // no state

final class DependentService: Sendable {
    let shared: SharedService
    init(shared: SharedService) { self.shared = shared }
}

struct FailingServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> FailingService { throw TestError.failed }
}
