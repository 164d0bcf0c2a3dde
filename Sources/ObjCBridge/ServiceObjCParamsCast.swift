/// Decides, once per wrapper, whether untyped params may be cast where the caller's types are
/// known instead of through the provider's own reading of untyped params.
///
/// The provider reads params as Swift casts them, except that a `nil` must be a `nil` of its
/// params type itself (Swift casts a `nil` of any optional type to every optional type, and to
/// `Any`). So the cast may be done here for params types that no `nil` of another optional type
/// casts to — concrete, non-optional types, the usual case — and is left to the provider for
/// optional and `Any`-like params types. (An existential of a protocol that `Optional`
/// conforms to only for some wrapped types is not told apart here.)
@usableFromInline
enum ServiceObjCParamsCast {
    private struct Probe {}

    /// Whether params of type `Params` may be cast outside the provider.
    @usableFromInline
    static func castsHere<Params>(_ type: Params.Type) -> Bool {
        !(Optional<Int>.none as Any is Params) && !(Optional<Probe>.none as Any is Params)
    }
}
