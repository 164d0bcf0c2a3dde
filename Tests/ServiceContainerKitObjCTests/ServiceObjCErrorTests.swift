import Foundation
import ServiceContainerKitObjC
import Testing

@Suite struct ServiceObjCErrorTests {
    @Test func codesAreDistinctAndStable() {
        let codes = ServiceObjCErrorCode.allCases.map(\.rawValue)
        #expect(codes == [1, 2, 3, 4])
        #expect(ServiceObjCErrorCode.obtainFailure.rawValue == 1)
        #expect(ServiceObjCErrorCode.notNSObject.rawValue == 2)
        #expect(ServiceObjCErrorCode.serviceNotFound.rawValue == 3)
        #expect(ServiceObjCErrorCode.wrongParams.rawValue == 4)
    }

    @Test func domainIsDocumented() {
        #expect(ServiceObjCError.domain == "ServiceContainerKitObjC.ServiceError")
    }

    @Test(arguments: ServiceObjCErrorCode.allCases)
    func codeOfAnErrorOfTheDomain(code: ServiceObjCErrorCode) {
        let error = NSError(domain: ServiceObjCError.domain, code: code.rawValue)
        #expect(ServiceObjCError.code(of: error) == code)
    }

    @Test func codeOfOtherErrorsIsNil() {
        #expect(ServiceObjCError.code(of: NSError(domain: "Other", code: 1)) == nil)
        #expect(ServiceObjCError.code(of: NSError(domain: ServiceObjCError.domain + ".Other", code: 1)) == nil)
        #expect(ServiceObjCError.code(of: NSError(domain: ServiceObjCError.domain, code: 99)) == nil)
    }

    @Test func notNSObjectErrorNamesTheService() {
        let same = ServiceNotNSObjectError(service: ValueService.self, obtainedType: ValueService.self)
        #expect(same.description == same.errorDescription)
        #expect(same.description
            == "Service \(String(reflecting: ValueService.self)) cannot be handed to an Objective-C style caller: it is not an NSObject; "
                + "provide an NSObject subclass that wraps it")

        // A class, unlike a struct, can become a subclass of NSObject.
        let plainClass = ServiceNotNSObjectError(service: PlainSwiftService.self, obtainedType: PlainSwiftService.self)
        #expect(plainClass.description
            == "Service \(String(reflecting: PlainSwiftService.self)) cannot be handed to an Objective-C style caller: it is not an "
                + "NSObject; make \(String(reflecting: PlainSwiftService.self)) a subclass of NSObject, or provide an NSObject that wraps it")

        let behind = ServiceNotNSObjectError(service: (any Sendable).self, obtainedType: ValueService.self)
        #expect(behind.description.contains("it is of type \(String(reflecting: ValueService.self)), which is not an NSObject"))

        let absent = ServiceNotNSObjectError(service: ValueService?.self, obtainedType: ValueService?.self, isNil: true)
        #expect(absent.description
            == "Service \(String(reflecting: ValueService?.self)) cannot be handed to an Objective-C style caller: the provider "
                + "gave nil, which such a caller takes for a failure; make the factory return an object, or throw an error "
                + "that says why there is none")
        #expect(!same.isNil)
    }
}
