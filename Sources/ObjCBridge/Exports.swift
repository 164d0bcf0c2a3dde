@_exported import ServiceContainerKit
@_exported import ServiceEasyLocatorKit
@_exported import ServiceInjects
@_exported import ServiceLocatorKit
