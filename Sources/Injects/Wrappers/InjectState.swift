/// The injection state of an injected property, its projected value (`$property`).
///
/// ```swift
/// presenter.$userService.isReady
/// presenter.$userService.setReadyHandler { service in /* injected, not used yet */ }
/// ```
public struct InjectState<Value> {
    /// The wrapper's cell, or the value it was injected with when it was made (it has no cell).
    let injection: Injection

    enum Injection {
        case cell(InjectCell<Value>)
        case injected(Value)
    }

    /// The state of a wrapper with `cell`; without one, of a wrapper injected with `early`
    /// when it was made.
    init(cell: InjectCell<Value>?, early: Value?) {
        if let cell {
            injection = .cell(cell)
        } else {
            // A wrapper without a cell was made injected.
            injection = .injected(early!)
        }
    }

    /// Whether the value is injected.
    ///
    /// ```swift
    /// if !presenter.$userService.isReady {
    ///     print("waiting for Services to be registered")
    /// }
    /// ```
    public var isReady: Bool {
        switch injection {
        case .cell(let cell): return cell.isReady
        case .injected: return true
        }
    }

    /// Runs `handler` with the value right after it is injected, before its first use; at once
    /// when it is already injected.
    ///
    /// ```swift
    /// presenter.$userService.setReadyHandler { service in service.startObserving() }
    /// ```
    ///
    /// Each call adds a handler; they run in the order they were set, on the thread that
    /// performs the injection (the one registering the container or entity, or the one reading
    /// the property first).
    public func setReadyHandler(_ handler: @escaping (Value) -> Void) {
        switch injection {
        case .cell(let cell): cell.addReadyHandler(handler)
        case .injected(let value): handler(value)
        }
    }
}

extension InjectState: Sendable where Value: Sendable {}
extension InjectState.Injection: Sendable where Value: Sendable {}
