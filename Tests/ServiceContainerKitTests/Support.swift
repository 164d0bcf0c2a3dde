import Testing
@testable import ServiceContainerKit
