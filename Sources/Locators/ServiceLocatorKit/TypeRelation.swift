/// Whether one type is another at run time, for error messages: a class is its superclasses,
/// a type is the protocols it conforms to.
enum TypeRelation {
    /// Whether a value of `type` is a `wanted`: `ThirdService` is a `ThirdServicing`.
    ///
    /// A protocol's conformances are asked of the run time through the protocol's existential
    /// metatype (`any ThirdServicing.Type`), which generic code cannot name: it is looked up by
    /// its mangled name. For other `wanted` types, the cast of the metatype answers.
    static func isType(_ type: Any.Type, a wanted: Any.Type) -> Bool {
        func isSubtype<Wanted>(of _: Wanted.Type) -> Bool { type is Wanted.Type }
        if _openExistential(wanted, do: isSubtype) {
            return true
        }
        guard let protocolName = _mangledTypeName(wanted), protocolName.hasSuffix("_p"),
            let existentialMetatype = _typeByName(protocolName + "Xp")
        else { return false }
        func isInstance<Metatype>(of _: Metatype.Type) -> Bool { type as Any is Metatype }
        return _openExistential(existentialMetatype, do: isInstance)
    }
}
