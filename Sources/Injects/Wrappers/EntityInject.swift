/// Injects an entity registered in ``EntityInjectResolver``, or a field of it.
///
/// ```swift
/// final class SimpleViewController {
///     @EntityInject(SimplePresenter.self)
///     private var presenter
///
///     @EntityInject(\AppSettings.common.uiConfig)
///     private var uiConfig
/// }
/// ```
///
/// The newest registered entity castable to the type is injected when the wrapper is made, or
/// as soon as one is registered. A first read with no entity registered stops the program,
/// naming this declaration's file and line. Once injected, a read is a stored read.
@propertyWrapper
public struct EntityInject<Value> {
    /// The entity or field when it was injected as the wrapper was made, else the injection's
    /// cell.
    @usableFromInline let storage: InjectStorage<Value>

    /// The storage of a wrapper that injects from the current registry as soon as an `Entity` is
    /// registered, with `make`, which makes the value from the entity's box: specialized for its
    /// types, but not inlined into its owner. It takes `make` over (`consuming`), which the cell
    /// keeps.
    @inlinable @inline(never)
    static func waiting<Entity>(
        for entity: Entity.Type,
        file: StaticString,
        line: UInt,
        make: consuming @escaping (_ box: AnyObject, _ cell: InjectCell<Value>) -> Value
    ) -> InjectStorage<Value> {
        let site = InjectSite(wrapper: .entityInject, file: file, line: line)
        let registry = EntityInjectResolver.registry
        return InjectStorage(waitingFor: Entity.self, in: registry, site: site, lazy: false, make: make)
    }

    /// Injects the newest registered entity castable to `type` (a class, struct or protocol).
    ///
    /// ```swift
    /// final class Screen {
    ///     @EntityInject(SimplePresenter.self)
    ///     private var presenter
    /// }
    /// ```
    @inlinable
    public init(_ type: Value.Type, file: StaticString = #fileID, line: UInt = #line) {
        // Specialized in the owner's initializer: with the entity registered, it is injected
        // here, without a cell.
        if let box = EntityInjectResolver.newest(Value.self) {
            storage = InjectStorage(injected: box.value)
        } else {
            // The cell's `box` boxed it as an `InjectBox<Value>`.
            storage = Self.waiting(for: Value.self, file: file, line: line) { box, _ in
                (box as! InjectBox<Value>).value
            }
        }
    }

    /// Injects the value at `keyPath` (of any nesting) of the newest registered `Entity`.
    ///
    /// ```swift
    /// final class Screen {
    ///     @EntityInject(\AppSettings.common.uiConfig)
    ///     private var uiConfig
    /// }
    /// ```
    @inlinable
    public init<Entity>(_ keyPath: @autoclosure () -> KeyPath<Entity, Value>, file: StaticString = #fileID, line: UInt = #line) {
        if let box = EntityInjectResolver.newest(Entity.self) {
            storage = InjectStorage(injected: box.value[keyPath: keyPath()])
        } else {
            let keyPath = keyPath()
            storage = Self.waiting(for: Entity.self, file: file, line: line) { box, _ in
                (box as! InjectBox<Entity>).value[keyPath: keyPath]
            }
        }
    }

    /// The injected entity or field.
    ///
    /// ```swift
    /// @EntityInject(\AppSettings.common.uiConfig) var uiConfig
    /// let config = uiConfig  // the field of the newest registered AppSettings
    /// ```
    @inlinable
    public var wrappedValue: Value {
        storage.value
    }

    /// The injection state: `isReady` and `setReadyHandler(_:)`.
    ///
    /// ```swift
    /// @EntityInject(SimplePresenter.self) var simplePresenter
    /// print($simplePresenter.isReady)  // false until a SimplePresenter is registered
    /// ```
    public var projectedValue: InjectState<Value> {
        storage.state
    }
}

extension EntityInject: Sendable where Value: Sendable {}
