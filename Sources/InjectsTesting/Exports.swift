@_exported import ServiceInjects
