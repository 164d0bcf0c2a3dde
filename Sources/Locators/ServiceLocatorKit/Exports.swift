@_exported import ServiceContainerKit
