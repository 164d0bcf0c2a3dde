import ServiceLocatorKit

#if canImport(CMalloc)
import CMalloc
#endif

/// The heap a locator takes per registered service, read from the C allocator's statistics.
enum MemoryUse {
    static let count = 10_000
    /// The most heap bytes a registered service may take: its provider, the locator's entry and
    /// its share of the locator's dictionary.
    static let ceiling = 64.0

    /// Registers `count` services of distinct types into a new locator and divides the growth
    /// of the allocated heap by `count`. The services are made, and every type's metadata is
    /// instantiated by a first registration elsewhere, before measuring.
    static func bytesPerRegisteredService() -> Double {
        var services: [any NumberedServiceSinkValue] = []
        services.reserveCapacity(count)
        NumberedTypes.forEach(count: count) { services.append($0) }
        let warmUp = ServiceLocator()
        for service in services { service.add(to: warmUp) }
        let locator = ServiceLocator()
        let before = allocatedBytes()
        for service in services { service.add(to: locator) }
        let after = allocatedBytes()
        withExtendedLifetime((warmUp, locator, services)) {}
        return Double(after - before) / Double(count)
    }

    static func allocatedBytes() -> Int {
        #if canImport(CMalloc)
        return Int(mallinfo2().uordblks)
        #else
        return 0
        #endif
    }
}
