/// The injection state of a `@ServiceParamsInject` property, its projected value
/// (`$property`): the state of ``InjectState`` and the way to give params later.
///
/// ```swift
/// @ServiceParamsInject(\Services.secondService) var secondService
/// $secondService.setParameters(.init(value: "Custom"))
/// ```
public struct ParamsInjectState<Service, Params> {
    @usableFromInline let cell: InjectCell<Service>

    @usableFromInline
    init(cell: InjectCell<Service>) {
        self.cell = cell
    }

    /// Whether the service is injected.
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.secondService) var secondService
    /// print($secondService.isReady)  // false: no params given yet
    /// ```
    public var isReady: Bool { cell.isReady }

    /// Runs `handler` with the service right after it is injected, before its first use; at
    /// once when it is already injected. See `InjectState.setReadyHandler(_:)`.
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.secondService) var secondService
    /// $secondService.setReadyHandler { service in service.prepare() }
    /// ```
    public func setReadyHandler(_ handler: @escaping (Service) -> Void) {
        cell.addReadyHandler(handler)
    }

    /// Gives the params the service is made with. Call it once, before the service is injected;
    /// a second call, or a call after injection, stops the program naming the inject site.
    ///
    /// ```swift
    /// @ServiceParamsInject(\Services.secondService) var secondService
    /// $secondService.setParameters(.init(value: "Custom"))
    /// ```
    ///
    /// - Parameters:
    ///   - params: the params for the provider.
    ///   - lazyInject: `false` injects now (or as soon as the container is registered), `true`
    ///     at the first read; `nil` keeps the `lazyInject` given to the attribute.
    ///   - file: the caller's file, named when the call stops the program.
    ///   - line: the caller's line, named when the call stops the program.
    @inlinable
    public func setParameters(
        _ params: Params,
        lazyInject: Bool? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        let call = InjectSite(wrapper: .setParameters, file: file, line: line)
        cell.setParameters(params as Params, lazyInject: lazyInject, call: call)
    }
}

extension ParamsInjectState: Sendable where Service: Sendable, Params: Sendable {}
