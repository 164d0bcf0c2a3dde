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
    public init<Service>(
        objc keyPath: @autoclosure () -> KeyPath<Container, ServiceProvider<Service>>,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { ServiceProviderObjC($0) }
    }

    /// Injects the provider of `NSObject` services at `keyPath` wrapped in a
    /// ``ServiceProviderObjC``.
    @inlinable
    public init<Service: NSObject>(
        objc keyPath: @autoclosure () -> KeyPath<Container, ServiceProvider<Service>>,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { ServiceProviderObjC($0) }
    }
}

extension ServiceProviderInject where Provider == ServiceProviderObjC? {
    /// Injects the optional provider at `keyPath` wrapped in a ``ServiceProviderObjC``, or `nil`
    /// when the container holds none.
    @inlinable
    public init<Service>(
        objc keyPath: @autoclosure () -> KeyPath<Container, ServiceProvider<Service>?>,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { $0.map { ServiceProviderObjC($0) } }
    }

    /// Injects the optional provider of `NSObject` services at `keyPath` wrapped in a
    /// ``ServiceProviderObjC``, or `nil` when the container holds none.
    @inlinable
    public init<Service: NSObject>(
        objc keyPath: @autoclosure () -> KeyPath<Container, ServiceProvider<Service>?>,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { $0.map { ServiceProviderObjC($0) } }
    }
}

extension ServiceProviderInject where Provider == ServiceParamsProviderObjC {
    /// Injects the params provider at `keyPath` wrapped in a ``ServiceParamsProviderObjC``.
    @inlinable
    public init<Service, Params>(
        objc keyPath: @autoclosure () -> KeyPath<Container, ServiceParamsProvider<Service, Params>>,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { ServiceParamsProviderObjC($0) }
    }

    /// Injects the params provider of `NSObject` services at `keyPath` wrapped in a
    /// ``ServiceParamsProviderObjC``.
    @inlinable
    public init<Service: NSObject, Params>(
        objc keyPath: @autoclosure () -> KeyPath<Container, ServiceParamsProvider<Service, Params>>,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { ServiceParamsProviderObjC($0) }
    }
}

extension ServiceProviderInject where Provider == ServiceParamsProviderObjC? {
    /// Injects the optional params provider at `keyPath` wrapped in a
    /// ``ServiceParamsProviderObjC``, or `nil` when the container holds none.
    @inlinable
    public init<Service, Params>(
        objc keyPath: @autoclosure () -> KeyPath<Container, ServiceParamsProvider<Service, Params>?>,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { $0.map { ServiceParamsProviderObjC($0) } }
    }

    /// Injects the optional params provider of `NSObject` services at `keyPath` wrapped in a
    /// ``ServiceParamsProviderObjC``, or `nil` when the container holds none.
    @inlinable
    public init<Service: NSObject, Params>(
        objc keyPath: @autoclosure () -> KeyPath<Container, ServiceParamsProvider<Service, Params>?>,
        file: StaticString = #file,
        line: UInt = #line
    ) {
        self.init(keyPath(), file: file, line: line) { $0.map { ServiceParamsProviderObjC($0) } }
    }
}
