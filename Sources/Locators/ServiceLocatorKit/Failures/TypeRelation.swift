/// Whether one type is another at run time, for error messages: a class is its superclasses,
/// a type is the protocols it conforms to.
enum TypeRelation {
    /// Whether a value of `type` is a `wanted`: `ThirdService` is a `ThirdServicing`.
    static func isType(_ type: Any.Type, a wanted: Any.Type) -> Bool {
        test(for: wanted)(type)
    }

    /// The test of whether a value of a type is a `wanted`, for many types: what it needs of
    /// `wanted` is looked up once.
    ///
    /// A protocol's conformances are asked of the run time through the protocol's existential
    /// metatype (`any ThirdServicing.Type`), which generic code cannot name: it is looked up by
    /// its mangled name, which ends in `p` for a protocol (`_p`) or a composition of protocols,
    /// in `Xl` for a composition with `AnyObject`, and in `Xc` for one with a class. `Any` (`yp`)
    /// and `AnyObject` (`yXl`) name no protocol: every type, or every class, is one, which the
    /// cast of the metatype answers, as it does for other `wanted` types. The existential of a
    /// protocol with its primary associated types (`any Store<Int>`, which ends in `XP`) has no
    /// metatype the run time can look up by name: no type is found to be one.
    static func test(for wanted: Any.Type) -> (Any.Type) -> Bool {
        let existentialMetatype = _mangledTypeName(wanted).flatMap { name in
            let namesProtocols =
                (name.hasSuffix("p") || name.hasSuffix("Xl") || name.hasSuffix("Xc")) && name != "yp" && name != "yXl"
            return namesProtocols ? _typeByName(name + "Xp") : nil
        }
        return { type in
            func isSubtype<Wanted>(of _: Wanted.Type) -> Bool { type is Wanted.Type }
            if _openExistential(wanted, do: isSubtype) {
                return true
            }
            guard let existentialMetatype else { return false }
            func isInstance<Metatype>(of _: Metatype.Type) -> Bool { type as Any is Metatype }
            return _openExistential(existentialMetatype, do: isInstance)
        }
    }

    /// The type that the `Optional` type `type` wraps, through every level (`ThirdService` for
    /// `ThirdService?` and `ThirdService??`), or `nil` for a type that is not an `Optional`.
    static func wrapped(in type: Any.Type) -> Any.Type? {
        guard let optional = type as? any OptionalValue.Type else { return nil }
        var wrapped = wrappedType(optional)
        while let inner = wrapped as? any OptionalValue.Type {
            wrapped = wrappedType(inner)
        }
        return wrapped
    }

    private static func wrappedType<Stored: OptionalValue>(_: Stored.Type) -> Any.Type {
        Stored.Wrapped.self
    }
}
