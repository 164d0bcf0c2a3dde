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
    @usableFromInline let early: Value?
    @usableFromInline let cell: InjectCell<Value>
    // The same cell for reads, which need not retain it: `cell` keeps it alive as long as the
    // wrapper is.
    @usableFromInline let unmanagedCell: Unmanaged<InjectCell<Value>>

    init<Entity>(_ entity: Entity.Type, file: StaticString, line: UInt, make: @escaping (Entity) -> Value) {
        let site = InjectSite(wrapper: "EntityInject", file: file, line: line)
        let cell = RegistryInjectCell<Entity, Value>(registry: EntityInjectResolver.registry, site: site, make: make)
        self.cell = cell
        self.unmanagedCell = .passUnretained(cell)
        self.early = cell.start(lazy: false)
    }

    /// Injects the newest registered entity castable to `type` (a class, struct or protocol).
    public init(_ type: Value.Type, file: StaticString = #file, line: UInt = #line) {
        self.init(type, file: file, line: line) { $0 }
    }

    /// Injects the value at `keyPath` (of any nesting) of the newest registered `Entity`.
    public init<Entity>(_ keyPath: KeyPath<Entity, Value>, file: StaticString = #file, line: UInt = #line) {
        self.init(Entity.self, file: file, line: line) { $0[keyPath: keyPath] }
    }

    /// The injected entity or field.
    @inlinable
    public var wrappedValue: Value {
        if let early { return early }
        return InjectCell.value(of: unmanagedCell)
    }

    /// The injection state: `isReady` and `setReadyHandler(_:)`.
    public var projectedValue: InjectState<Value> {
        InjectState(cell: cell)
    }
}

extension EntityInject: Sendable where Value: Sendable {}
