import Foundation
import Testing

@testable import ServiceContainerKit

private struct NumberParams: Sendable {
    var number: Int
}

private final class NumberedService: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}

private struct NumberedFactory: ServiceParamsFactory {
    func makeService(params: NumberParams?) throws -> NumberedService {
        NumberedService(number: params?.number ?? -1)
    }
}

private struct StrictFactory: ServiceParamsFactory {
    func makeService(params: Int) throws -> NumberedService {
        guard params >= 0 else { throw TestError(code: params) }
        return NumberedService(number: params)
    }
}

@Suite("Params providers")
struct ParamsProviderTests {
    @Test("A params provider makes a new service for each get")
    func makesPerGet() throws {
        let provider = NumberedFactory().serviceProvider()
        let first = try provider.getService(params: .init(number: 1))
        let second = try provider.getService(params: .init(number: 1))
        #expect(first !== second)
        #expect(first.number == 1)
        #expect(try provider.getService(params: nil).number == -1)
        #expect(provider.getServiceAsOptional(params: .init(number: 5))?.number == 5)
        #expect(try provider.getServiceAsResult(params: .init(number: 6)).get().number == 6)
        #expect(provider.getServiceOrFatal(params: .init(number: 7)).number == 7)
    }

    @Test("A closure params provider")
    func closure() throws {
        let provider = ServiceParamsProvider<String, Int> { "#\($0)" }
        #expect(try provider.getService(params: 3) == "#3")
    }

    @Test("A failing params factory gives a ServiceObtainError")
    func failure() {
        let provider = StrictFactory().serviceProvider()
        let error = #expect(throws: ServiceObtainError.self) { try provider.getService(params: -4) }
        #expect(error?.error as? TestError == TestError(code: -4))
        #expect(sameType(error?.service, NumberedService.self))
        #expect(provider.getServiceAsOptional(params: -1) == nil)
    }

    @Test("convert(params:) and serviceProvider(params:) bind fixed params")
    func convert() throws {
        let params = NumberedFactory().serviceProvider()
        let converted = params.convert(params: .init(number: 0))
        let first = try converted.getService()
        #expect(first.number == 0)
        #expect(try converted.getService() !== first)

        let bound = NumberedFactory().serviceProvider(params: .init(number: 8))
        #expect(try bound.getService().number == 8)
        let viaInit = ServiceProvider(factory: StrictFactory(), params: 2)
        #expect(try viaInit.getService().number == 2)
        let failing = ServiceProvider(factory: StrictFactory(), params: -2)
        #expect(failing.getServiceAsOptional() == nil)
    }

    @Test("Untyped params are cast, and the wrong type is reported")
    func untypedParams() throws {
        let provider = StrictFactory().serviceProvider()
        #expect(try provider.getServiceAsResult(untypedParams: 4).get().number == 4)
        guard case .failure(let error) = provider.getServiceAsResult(untypedParams: "four") else {
            Issue.record("expected wrongParams")
            return
        }
        #expect(error.isWrongParams)
        #expect(error.isFactoryError)
        #expect(sameType(error.service, NumberedService.self))
        #expect(error.fatalMessage.contains("String"))
        #expect(error.fatalMessage.contains("Int"))
        guard case .failure(let missing) = provider.getServiceAsResult(untypedParams: nil) else {
            Issue.record("nil params for a non-optional type must fail")
            return
        }
        #expect(missing.isWrongParams)
        #expect(missing.fatalMessage.contains("no params given"))
        // A nil of an optional type, passed as Any, is no params too.
        let optionalNil: Int? = nil
        #expect(provider.getServiceAsResult(untypedParams: optionalNil as Any).failure?.fatalMessage
            == missing.fatalMessage)
        #expect(missing.fatalMessage.contains("no params given, expected Swift.Int"))
        // An optional params type takes a plain nil: a nil of another optional type is named.
        let optionalParams = ServiceParamsProvider<String, Int?> { "got \(String(describing: $0))" }
        #expect(try optionalParams.getServiceAsResult(untypedParams: nil).get() == "got nil")
        let otherNil: String? = nil
        #expect(optionalParams.getServiceAsResult(untypedParams: otherNil as Any).failure?.fatalMessage.contains(
            "wrong params type Swift.Optional<Swift.String>, expected Swift.Optional<Swift.Int>") == true)
    }

    @Test("nil untyped params stand for nil of an optional params type")
    func untypedNil() throws {
        let provider = NumberedFactory().serviceProvider()
        #expect(try provider.getServiceAsResult(untypedParams: nil).get().number == -1)
        #expect(try provider.getServiceAsResult(untypedParams: NumberParams(number: 3)).get().number == 3)
        let wrong = provider.getServiceAsResult(untypedParams: 3)
        #expect(throws: ServiceObtainError.self) { try wrong.get() }
    }

    @Test("A provider with optional params gets its service without params, for nil")
    func optionalParamsWithoutParams() throws {
        let provider = NumberedFactory().serviceProvider()
        #expect(try provider.getService().number == -1)
        #expect(try provider.getServiceAsResult().get().number == -1)
        #expect(provider.getServiceAsOptional()?.number == -1)
        #expect(provider.getServiceOrFatal().number == -1)
        let failing = ServiceParamsProvider<Int, Int?> { params in
            guard let params else { throw TestError(code: 7) }
            return params
        }
        #expect(failing.getServiceAsOptional() == nil)
        #expect(failing.getServiceAsResult().failure?.error as? TestError == TestError(code: 7))
        #expect(try failing.getService(params: 2) == 2)
    }

    @Test("getServiceOrFatal(params:) and, for nil params, getServiceOrFatal() stop the program with the fatal message, at the caller's line")
    func orFatal() async {
        let withParams = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let provider = ServiceParamsProvider<Int, Int?> { _ in throw TestError(code: 5) }
            _ = provider.getServiceOrFatal(params: 1, line: 4_343)
        }
        let withoutParams = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let provider = ServiceParamsProvider<Int, Int?> { _ in throw TestError(code: 5) }
            _ = provider.getServiceOrFatal(line: 4_343)
        }
        for result in [withParams, withoutParams] {
            let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(stderr.contains(":4343: Fatal error: Failed to obtain service Swift.Int with error: TestError(code: 5)"))
        }
    }
}

@Suite("Untyped params casting")
struct ParamsCastTests {
    @Test("nil of another optional type is not nil of the params type")
    func foreignNil() {
        #expect(ParamsCast<String?>.cast(Optional<Int>.none as Any) == nil)
        #expect(ParamsCast<String?>.cast(Optional<String>.none as Any) == .some(nil))
        #expect(ParamsCast<String?>.cast("text") == .some("text"))
        #expect(ParamsCast<String?>.cast(nil) == .some(nil))
        #expect(ParamsCast<String>.cast(nil) == nil)
        #expect(ParamsCast<String>.cast(3) == nil)
    }

    @Test("Missing params stand for nil only when the params type is optional")
    func missingParams() throws {
        #expect(ParamsCast<Any>.cast(nil) == nil)
        #expect(ParamsCast<Any>.missing() == nil)
        #expect(ParamsCast<Int?>.missing() == .some(nil))
        #expect(ParamsCast<Int>.missing() == nil)
        let provider = ServiceParamsProvider<String, Any> { "\($0)" }
        #expect(provider.getServiceAsOptional(params: 1) == "1")
        #expect(throws: ServiceObtainError.self) { try provider.getServiceAsResult(untypedParams: nil).get() }
        let optional = ServiceParamsProvider<String, Int?> { "\($0 ?? -1)" }
        #expect(throws: ServiceObtainError.self) {
            try optional.getServiceAsResult(untypedParams: Optional<String>.none as Any).get()
        }
        #expect(try optional.getServiceAsResult(untypedParams: nil).get() == "-1")
    }
}

@Suite("Params types that take a foreign nil")
struct ForeignNilTests {
    @Test("Optional and Any-like params types take a foreign nil; concrete ones do not")
    func decidedPerType() {
        #expect(ParamsCast<String?>.takesForeignNil)
        #expect(ParamsCast<Int??>.takesForeignNil)
        #expect(ParamsCast<Any>.takesForeignNil)
        #expect(ParamsCast<(any CustomDebugStringConvertible)>.takesForeignNil)
        #expect(!ParamsCast<String>.takesForeignNil)
        #expect(!ParamsCast<Int>.takesForeignNil)
        #expect(!ParamsCast<(any Greeting)>.takesForeignNil)
    }

    @Test("A params provider over Any refuses a nil of another type")
    func anyParams() throws {
        let provider = ServiceParamsProvider<String, Any> { "\($0)" }
        #expect(throws: ServiceObtainError.self) {
            try provider.getServiceAsResult(untypedParams: Optional<Int>.none as Any).get()
        }
        #expect(try provider.getServiceAsResult(untypedParams: 5).get() == "5")
    }

    @Test("A params provider over AnyHashable refuses a nil of another type, as one over Any does")
    func anyHashableParams() throws {
        let provider = ServiceParamsProvider<String, AnyHashable> { "\($0)" }
        let refused = provider.getServiceAsResult(untypedParams: Optional<Int>.none as Any)
        #expect(refused.failure?.isWrongParams == true)
        #expect(refused.failure?.fatalMessage.contains("no params given, expected Swift.AnyHashable") == true)
        #expect(try provider.getServiceAsResult(untypedParams: 5).get() == "5")
    }
}
