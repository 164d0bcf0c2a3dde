import Foundation
import Testing

@testable import ServiceContainerKitObjC

@Suite struct ServiceObjCParamsCastTests {
    @Test func concreteParamsTypesAreCastByTheWrapper() {
        #expect(ServiceObjCParamsCast.castsHere(String.self))
        #expect(ServiceObjCParamsCast.castsHere(Int.self))
        #expect(ServiceObjCParamsCast.castsHere(NSString.self))
        #expect(ServiceObjCParamsCast.castsHere((any GreetingService).self))
    }

    @Test func paramsTypesThatTakeANilAreLeftToTheProvider() {
        #expect(!ServiceObjCParamsCast.castsHere(String?.self))
        #expect(!ServiceObjCParamsCast.castsHere(Int??.self))
        #expect(!ServiceObjCParamsCast.castsHere(Any.self))
        #expect(!ServiceObjCParamsCast.castsHere(Any?.self))
        #expect(!ServiceObjCParamsCast.castsHere((any CustomDebugStringConvertible).self))
    }
}
