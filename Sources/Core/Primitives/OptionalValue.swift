/// An optional, seen through a protocol, so that a generic class can be generic over the
/// optional it keeps (`OnceCell<Value?>`, `LazySource<Service?>`) rather than over the value.
///
/// ```swift
/// final class Slot<Stored: OptionalValue> {
///     var stored: Stored = nil        // destroyed with the metadata of `Stored` itself
///     var value: Stored.Wrapped? { stored.wrapped }
/// }
/// let slot = Slot<Settings?>()
/// ```
///
/// A class generic over `Value` with a field of type `Value?` is released by code compiled once
/// for every `Value`, which asks the run-time for the metadata of `Optional<Value>` to destroy the
/// field: a look-up in the run-time's table, about 150 instructions on every release. Generic over
/// `Value?` itself, the class finds that metadata among its own generic arguments. Specialized
/// code sees through the protocol, so a read costs what a read of an optional costs.
///
/// **Pays for** `hand-written/cold start, 200 lazy providers`: 1,066,000 instructions a container
/// with a `Service?` field in `LazySource`, 1,004,000 without (6% of the count), and
/// `injects/handler per request, 1 lazy inject`: 3,035 with a `Value?` field in `OnceCell`, 2,701
/// without. `Optional` is the one type that adopts it. A locator's miss finds the type an optional
/// wraps through it too (`TypeRelation.wrapped(in:)`).
@usableFromInline
package protocol OptionalValue: ExpressibleByNilLiteral {
    associatedtype Wrapped
    init(_ value: Wrapped)
    var wrapped: Wrapped? { get }
}

extension Optional: OptionalValue {
    @inlinable
    package var wrapped: Wrapped? { self }
}

/// `value`, or the value inside it however many optionals deep; `nil` when one of them is `nil`:
/// what an inject registration registers for a container, and what the Objective-C style
/// wrappers hand out for a service.
///
/// ```swift
/// let settings: Settings?? = Settings()
/// unwrappedValue(settings as Any)  // the Settings, as Any
/// ```
package func unwrappedValue(_ value: Any) -> Any? {
    guard let optional = value as? any OptionalValue else { return value }
    return optional.wrapped.flatMap(unwrappedValue)
}
