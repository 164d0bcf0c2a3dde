import Testing

@testable import ServiceContainerKit

@Suite("The object a value is")
struct ObjectReferenceTests {
    private protocol Named { var name: String { get } }
    private final class Object: Named { let name = "object" }
    private struct Value: Named { let name = "value" }

    /// Passes `value` on as code generic over its type does.
    private static func passedGenerically<Wrapped>(_ value: Wrapped) -> AnyObject? {
        objectReference(of: value)
    }

    @Test("An object is taken as the reference it is, whatever type it is passed as")
    func objectsAreTheirReference() {
        let object = Object()
        #expect(objectReference(of: object) === object)
        #expect(objectReference(of: object as any Named) === object)
        #expect(Self.passedGenerically(object) === object)
        #expect(Self.passedGenerically(object as any Named) === object)
    }

    @Test("A class type's value is taken as it is; any other type's is not")
    func classReferences() {
        let object = Object()
        #expect(classReference(object) === object)
        #expect(classReference(Value()) == nil)
        #expect(classReference(object as any Named) == nil)  // opened only as `Any`
    }

    @Test("A value that is not an object has none")
    func valuesHaveNone() {
        #expect(objectReference(of: Value()) == nil)
        #expect(objectReference(of: Value() as any Named) == nil)
        #expect(Self.passedGenerically(Value() as any Named) == nil)
        #expect(objectReference(of: 42) == nil)
        #expect(objectReference(of: [Object()]) == nil)
        #expect(objectReference(of: Optional(Object()) as Any) == nil)
    }
}
