/// The injection state of an injected property, its projected value (`$property`).
///
/// ```swift
/// presenter.$userService.isReady
/// presenter.$userService.setReadyHandler { service in /* injected, not used yet */ }
/// ```
public struct InjectState<Value> {
    @usableFromInline let cell: InjectCell<Value>

    @usableFromInline
    init(cell: InjectCell<Value>) {
        self.cell = cell
    }

    /// Whether the value is injected.
    public var isReady: Bool { cell.isReady }

    /// Runs `handler` with the value right after it is injected, before its first use; at once
    /// when it is already injected.
    ///
    /// Each call adds a handler; they run in the order they were set, on the thread that
    /// performs the injection (the one registering the container or entity, or the one reading
    /// the property first).
    public func setReadyHandler(_ handler: @escaping (Value) -> Void) {
        cell.addReadyHandler(handler)
    }
}

extension InjectState: Sendable where Value: Sendable {}
