import Foundation

extension ServiceProviderInject where Provider == ServiceProviderObjC {
    /// Injects the provider at `keyPath` wrapped in a ``ServiceProviderObjC``, for containers
    /// that Objective-C style code reads.
    ///
    /// ```swift
    /// final class ServicesObjC: NSObject {
    ///     @ServiceProviderInject(objc: \Services.firstService)
    ///     var firstService
    /// }
    /// ```
    @inlinable
    public init<Service, Source: ServiceProvider<Service>>(
        objc keyPath: @autoclosure () -> KeyPath<Container, Source>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { ServiceProviderObjC($0) }
    }

    /// Injects the provider of `NSObject` services at `keyPath` wrapped in a
    /// ``ServiceProviderObjC``.
    ///
    /// ```swift
    /// @ServiceProviderInject(objc: \Services.profile)  // ProfileService is an NSObject
    /// var profile
    /// ```
    @inlinable
    public init<Service: NSObject, Source: ServiceProvider<Service>>(
        objc keyPath: @autoclosure () -> KeyPath<Container, Source>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { ServiceProviderObjC($0) }
    }
}

extension ServiceProviderInject where Provider == ServiceProviderObjC? {
    /// Injects the optional provider at `keyPath` wrapped in a ``ServiceProviderObjC``, or `nil`
    /// when the container holds none.
    ///
    /// ```swift
    /// @ServiceProviderInject(objc: \Services.analytics)  // a ServiceProvider<any Analytics>?
    /// var analytics
    /// ```
    @inlinable
    public init<Service, Source: ServiceProvider<Service>>(
        objc keyPath: @autoclosure () -> KeyPath<Container, Source?>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { $0.map { ServiceProviderObjC($0) } }
    }

    /// Injects the optional provider of `NSObject` services at `keyPath` wrapped in a
    /// ``ServiceProviderObjC``, or `nil` when the container holds none.
    ///
    /// ```swift
    /// @ServiceProviderInject(objc: \Services.debugPanel)  // DebugPanel is an NSObject
    /// var debugPanel
    /// ```
    @inlinable
    public init<Service: NSObject, Source: ServiceProvider<Service>>(
        objc keyPath: @autoclosure () -> KeyPath<Container, Source?>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { $0.map { ServiceProviderObjC($0) } }
    }
}

extension ServiceProviderInject where Provider == ServiceParamsProviderObjC {
    /// Injects the params provider at `keyPath` wrapped in a ``ServiceParamsProviderObjC``.
    ///
    /// ```swift
    /// @ServiceProviderInject(objc: \Services.greeter)
    /// var greeter
    /// ```
    @inlinable
    public init<Service, Params, Source: ServiceParamsProvider<Service, Params>>(
        objc keyPath: @autoclosure () -> KeyPath<Container, Source>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { ServiceParamsProviderObjC($0) }
    }

    /// Injects the params provider of `NSObject` services at `keyPath` wrapped in a
    /// ``ServiceParamsProviderObjC``.
    ///
    /// ```swift
    /// @ServiceProviderInject(objc: \Services.imageLoader)  // ImageLoader is an NSObject
    /// var imageLoader
    /// ```
    @inlinable
    public init<Service: NSObject, Params, Source: ServiceParamsProvider<Service, Params>>(
        objc keyPath: @autoclosure () -> KeyPath<Container, Source>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { ServiceParamsProviderObjC($0) }
    }
}

extension ServiceProviderInject where Provider == ServiceParamsProviderObjC? {
    /// Injects the optional params provider at `keyPath` wrapped in a
    /// ``ServiceParamsProviderObjC``, or `nil` when the container holds none.
    ///
    /// ```swift
    /// @ServiceProviderInject(objc: \Services.translator)  // an optional ServiceParamsProvider
    /// var translator
    /// ```
    @inlinable
    public init<Service, Params, Source: ServiceParamsProvider<Service, Params>>(
        objc keyPath: @autoclosure () -> KeyPath<Container, Source?>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { $0.map { ServiceParamsProviderObjC($0) } }
    }

    /// Injects the optional params provider of `NSObject` services at `keyPath` wrapped in a
    /// ``ServiceParamsProviderObjC``, or `nil` when the container holds none.
    ///
    /// ```swift
    /// @ServiceProviderInject(objc: \Services.thumbnailLoader)  // ThumbnailLoader is an NSObject
    /// var thumbnailLoader
    /// ```
    @inlinable
    public init<Service: NSObject, Params, Source: ServiceParamsProvider<Service, Params>>(
        objc keyPath: @autoclosure () -> KeyPath<Container, Source?>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { $0.map { ServiceParamsProviderObjC($0) } }
    }
}
