// The wrappers are Foundation classes (`NSObject`, `NSError`) over the other products' types,
// so one `import ServiceContainerKitObjC` gives everything their API uses.
@_exported import Foundation
@_exported import ServiceContainerKit
@_exported import ServiceEasyLocatorKit
@_exported import ServiceInjects
@_exported import ServiceLocatorKit
