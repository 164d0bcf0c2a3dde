@_exported import ServiceContainerKit
@_exported import ServiceLocatorKit
