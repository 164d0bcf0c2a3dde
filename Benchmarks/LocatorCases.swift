import ServiceEasyLocatorKit
import ServiceLocatorKit

/// The cases of the 2.0-era locators: a get from a locator holding 10, 1,000 or 10,000
/// services, against a lookup in a `[ObjectIdentifier: AnyObject]` dictionary of the same size.
enum LocatorCases {
    static let sizes = [10, 1_000, 10_000]
    static let dictionaryLookup = "[ObjectIdentifier: AnyObject] lookup"

    static var all: [BenchmarkCase] {
        sizes.map(locatorGet) + [locatorGrowth, locatorStringKeyGet] + sizes.map(easyLocatorGet) + [easyLocatorGrowth]
            + [easyLocatorTryProvided, easyLocatorTryParams, register]
    }

    /// The ceiling of the instruction count of a get, for the middle size.
    static func getInstructions(size: Int) -> InstructionCeiling? {
        size == 1_000 ? .ratio(1.5) : nil
    }

    /// The growth with size, timed as a pair: the get from the largest locator against the same
    /// get from the smallest one, in back-to-back rounds.
    static var locatorGrowth: BenchmarkCase {
        let (small, large) = (sizes[0], sizes[sizes.count - 1])
        return BenchmarkCase(
            "locator/get, \(large.formatted) vs \(small.formatted) services",
            baseline: "the same get, \(small.formatted) services",
            target: 1.3
        ) {
            let (largeLocator, smallLocator) = (locatorHolder(size: large), locatorHolder(size: small))
            return .init(
                subject: { repeatOperation($0, on: largeLocator, get) },
                baseline: { repeatOperation($0, on: smallLocator, get) }
            )
        }
    }

    static var easyLocatorGrowth: BenchmarkCase {
        let (small, large) = (sizes[0], sizes[sizes.count - 1])
        return BenchmarkCase(
            "easy locator/get, \(large.formatted) vs \(small.formatted) services",
            baseline: "the same get, \(small.formatted) services",
            target: 1.3
        ) {
            let (largeLocator, smallLocator) = (easyLocatorHolder(size: large), easyLocatorHolder(size: small))
            return .init(
                subject: { repeatOperation($0, on: largeLocator, getEasy) },
                baseline: { repeatOperation($0, on: smallLocator, getEasy) }
            )
        }
    }

    static func locatorHolder(size: Int) -> Holder<(ServiceLocator, ServiceLocatorEasyKey<Wanted>)> {
        let locator = ServiceLocator()
        NumberedTypes.forEach(count: size) { $0.add(to: locator) }
        precondition(locator.count == size, "the locator did not keep every service")
        return Holder((locator, ServiceLocatorEasyKey<Wanted>()))
    }

    static func easyLocatorHolder(size: Int) -> Holder<ServiceEasyLocator> {
        let locator = ServiceEasyLocator()
        NumberedTypes.forEach(count: size) { $0.add(to: locator) }
        precondition(locator.count == size, "the locator did not keep every service")
        return Holder(locator)
    }

    /// The service every case gets: one of the registered ones, in the middle of the numbering.
    typealias Wanted = Numbered<D0, D0, D0, D7>

    /// `ServiceLocator.getService(key:)` with `ServiceLocatorEasyKey`, the usual key.
    static func locatorGet(size: Int) -> BenchmarkCase {
        BenchmarkCase(
            "locator/get, \(size.formatted) services",
            baseline: dictionaryLookup + ", \(size.formatted)",
            target: 3.0,
            instructions: getInstructions(size: size)
        ) {
            let subject = locatorHolder(size: size)
            let baseline = dictionaryHolder(size: size)
            return .init(
                subject: { repeatOperation($0, on: subject, get) },
                baseline: { repeatOperation($0, on: baseline, lookUp) }
            )
        }
    }

    /// A key whose store key is a string, as keys written by hand often are.
    struct NamedKey: ServiceLocatorKey {
        typealias ServiceType = BenchService
        let storeKey: String
    }

    static var locatorStringKeyGet: BenchmarkCase {
        BenchmarkCase(
            "locator/get, string key, 10,000",
            baseline: dictionaryLookup + ", 10,000",
            target: nil
        ) {
            let locator = ServiceLocator()
            for index in 0..<10_000 {
                _ = locator.addService(key: NamedKey(storeKey: "service.\(index)"), service: BenchService(number: index))
            }
            let subject = Holder((locator, NamedKey(storeKey: "service.5000")))
            let baseline = dictionaryHolder(size: 10_000)
            return .init(
                subject: { repeatOperation($0, on: subject, getNamed) },
                baseline: { repeatOperation($0, on: baseline, lookUp) }
            )
        }
    }

    /// `ServiceEasyLocator.getService()`, keyed by the service type.
    static func easyLocatorGet(size: Int) -> BenchmarkCase {
        BenchmarkCase(
            "easy locator/get, \(size.formatted) services",
            baseline: dictionaryLookup + ", \(size.formatted)",
            target: 3.0,
            instructions: getInstructions(size: size)
        ) {
            let subject = easyLocatorHolder(size: size)
            let baseline = dictionaryHolder(size: size)
            return .init(
                subject: { repeatOperation($0, on: subject, getEasy) },
                baseline: { repeatOperation($0, on: baseline, lookUp) }
            )
        }
    }

    @inline(never)
    static func get(_ holder: Holder<(ServiceLocator, ServiceLocatorEasyKey<Wanted>)>) -> Wanted {
        holder.value.0.getService(key: holder.value.1)!
    }

    @inline(never)
    static func getNamed(_ holder: Holder<(ServiceLocator, NamedKey)>) -> BenchService {
        holder.value.0.getService(key: holder.value.1)!
    }

    @inline(never)
    static func getEasy(_ holder: Holder<ServiceEasyLocator>) -> Wanted {
        holder.value.getService()!
    }

    /// A service of a provider: made by its factory, once or on every get.
    final class Provided: Sendable {
        let number: Int

        init(number: Int) {
            self.number = number
        }
    }

    /// Makes a `Provided` from a number, as a params provider's factory does: the hand-written
    /// counterpart of an entry with params.
    final class ProvidedMaker {
        let make: (Int) -> Provided

        init(_ make: @escaping (Int) -> Provided) {
            self.make = make
        }
    }

    /// `ServiceEasyLocator.tryService()` of a made `lazy` provider among 1,000 services, the get
    /// the locators guide uses, against a look-up of the service made by hand in a dictionary
    /// of the same size.
    static var easyLocatorTryProvided: BenchmarkCase {
        BenchmarkCase(
            "easy locator/tryService, made provider, 1,000",
            baseline: dictionaryLookup + ", 1,000",
            target: 3.0,
            instructions: .ratio(2.0)
        ) {
            let locator = easyLocatorHolder(size: 999)
            locator.value.addService(provider: ServiceProvider(mode: .lazy) { Provided(number: 1) })
            _ = tryProvided(locator)  // made before the rounds
            var dictionary = dictionaryHolder(size: 999).value.0
            dictionary[ObjectIdentifier(Provided.self)] = Provided(number: 1)
            let baseline = Holder(dictionary)
            return .init(
                subject: { repeatOperation($0, on: locator, tryProvided) },
                baseline: { repeatOperation($0, on: baseline, lookUpProvided) }
            )
        }
    }

    /// `ServiceEasyLocator.tryService(params:)` of a params provider among 1,000 services, which
    /// makes its service on every get, against a look-up of a maker written by hand in a
    /// dictionary of the same size and its call.
    static var easyLocatorTryParams: BenchmarkCase {
        BenchmarkCase(
            "easy locator/tryService(params:), 1,000",
            baseline: "a maker looked up by type and called, 1,000",
            target: 3.0,
            instructions: .ratio(1.5)
        ) {
            let locator = easyLocatorHolder(size: 999)
            locator.value.addService(provider: ServiceParamsProvider<Provided, Int> { Provided(number: $0) })
            var dictionary = dictionaryHolder(size: 999).value.0
            dictionary[ObjectIdentifier(Provided.self)] = ProvidedMaker { Provided(number: $0) }
            let baseline = Holder(dictionary)
            return .init(
                subject: { repeatOperation($0, on: locator, tryParams) },
                baseline: { repeatOperation($0, on: baseline, makeByHand) }
            )
        }
    }

    @inline(never)
    static func tryProvided(_ holder: Holder<ServiceEasyLocator>) -> Provided {
        try! holder.value.tryService()
    }

    @inline(never)
    static func lookUpProvided(_ holder: Holder<[ObjectIdentifier: AnyObject]>) -> Provided {
        holder.value[ObjectIdentifier(Provided.self)] as! Provided
    }

    @inline(never)
    static func tryParams(_ holder: Holder<ServiceEasyLocator>) -> Provided {
        try! holder.value.tryService(params: 7)
    }

    @inline(never)
    static func makeByHand(_ holder: Holder<[ObjectIdentifier: AnyObject]>) -> Provided {
        (holder.value[ObjectIdentifier(Provided.self)] as! ProvidedMaker).make(7)
    }

    /// The baseline: the same number of objects in a dictionary keyed by their type.
    static func dictionaryHolder(size: Int) -> Holder<([ObjectIdentifier: AnyObject], ObjectIdentifier)> {
        var dictionary: [ObjectIdentifier: AnyObject] = [:]
        NumberedTypes.forEach(count: size) { service in
            dictionary[ObjectIdentifier(type(of: service))] = service
        }
        precondition(dictionary.count == size, "the baseline did not keep every object")
        return Holder((dictionary, ObjectIdentifier(Wanted.self)))
    }

    /// A get does the same: finds the object by its type and hands it out as that type.
    @inline(never)
    static func lookUp(_ holder: Holder<([ObjectIdentifier: AnyObject], ObjectIdentifier)>) -> Wanted {
        holder.value.0[holder.value.1] as! Wanted
    }

    // MARK: - Registering

    /// The services the registering case adds: sixteen of distinct types, each added by code
    /// written for its type, as an app's set-up code is.

    /// `addService(key:service:)` into new locators, sixteen services each, against inserting
    /// the same instances into new `[ObjectIdentifier: AnyObject]` dictionaries.
    static var register: BenchmarkCase {
        BenchmarkCase(
            "locator/register a service",
            baseline: "insert into a dictionary by type",
            target: nil,
            instructions: .ratio(2.5)
        ) {
            let registered = Registered()
            let locators = Holder(Batches<ServiceLocator>())
            let dictionaries = Holder(Batches<DictionaryBox>())
            return .init(
                subject: { iterations in
                    let all = locators.value.all
                    for index in 0..<iterations {
                        registered.addToLocator[index & 15](all[index >> 4])
                    }
                },
                baseline: { iterations in
                    let all = dictionaries.value.all
                    for index in 0..<iterations {
                        registered.addToDictionary[index & 15](all[index >> 4])
                    }
                },
                setUpSubject: { iterations in
                    locators.value.fill(1, batchSize: iterations / 16 + 1) { ServiceLocator() }
                },
                setUpBaseline: { iterations in
                    dictionaries.value.fill(1, batchSize: iterations / 16 + 1) { DictionaryBox() }
                }
            )
        }
    }

    /// A dictionary kept in an object, as a locator keeps its own.
    final class DictionaryBox {
        var entries: [ObjectIdentifier: AnyObject] = [:]
    }

    /// Sixteen services and, for each, a function that adds it to a locator or a dictionary.
    struct Registered {
        typealias S0 = Numbered<D0, D0, D0, D0>
        typealias S1 = Numbered<D0, D0, D0, D1>
        typealias S2 = Numbered<D0, D0, D0, D2>
        typealias S3 = Numbered<D0, D0, D0, D3>
        typealias S4 = Numbered<D0, D0, D0, D4>
        typealias S5 = Numbered<D0, D0, D0, D5>
        typealias S6 = Numbered<D0, D0, D0, D6>
        typealias S7 = Numbered<D0, D0, D0, D7>
        typealias S8 = Numbered<D0, D0, D0, D8>
        typealias S9 = Numbered<D0, D0, D0, D9>
        typealias S10 = Numbered<D0, D0, D1, D0>
        typealias S11 = Numbered<D0, D0, D1, D1>
        typealias S12 = Numbered<D0, D0, D1, D2>
        typealias S13 = Numbered<D0, D0, D1, D3>
        typealias S14 = Numbered<D0, D0, D1, D4>
        typealias S15 = Numbered<D0, D0, D1, D5>

        let addToLocator: [(ServiceLocator) -> Void] = [
            adder(S0()), adder(S1()), adder(S2()), adder(S3()), adder(S4()), adder(S5()), adder(S6()), adder(S7()),
            adder(S8()), adder(S9()), adder(S10()), adder(S11()), adder(S12()), adder(S13()), adder(S14()),
            adder(S15()),
        ]
        let addToDictionary: [(DictionaryBox) -> Void] = [
            inserter(S0()), inserter(S1()), inserter(S2()), inserter(S3()), inserter(S4()), inserter(S5()),
            inserter(S6()), inserter(S7()), inserter(S8()), inserter(S9()), inserter(S10()), inserter(S11()),
            inserter(S12()), inserter(S13()), inserter(S14()), inserter(S15()),
        ]

        /// Adds `service` by its type; specialized for each type, as code written for it is.
        @inline(__always)
        static func adder<Service: AnyObject>(_ service: Service) -> (ServiceLocator) -> Void {
            { locator in addOne(locator, service) }
        }

        @inline(__always)
        static func inserter<Service: AnyObject>(_ service: Service) -> (DictionaryBox) -> Void {
            { box in insertOne(box, service) }
        }

        @inline(never)
        static func addOne<Service: AnyObject>(_ locator: ServiceLocator, _ service: Service) {
            _ = locator.addService(key: ServiceLocatorEasyKey<Service>(), service: service)
        }

        @inline(never)
        static func insertOne<Service: AnyObject>(_ box: DictionaryBox, _ service: Service) {
            box.entries[ObjectIdentifier(Service.self)] = service
        }
    }
}

// MARK: - Many distinct service types

/// A decimal digit as a type, so that `Numbered<A, B, C, D>` gives 10,000 distinct types.
protocol Digit: Sendable {}
enum D0: Digit {}
enum D1: Digit {}
enum D2: Digit {}
enum D3: Digit {}
enum D4: Digit {}
enum D5: Digit {}
enum D6: Digit {}
enum D7: Digit {}
enum D8: Digit {}
enum D9: Digit {}

/// A service whose type is a number from 0 to 9,999.
final class Numbered<A: Digit, B: Digit, C: Digit, D: Digit>: Sendable {}

/// Something that takes services of many distinct types.
protocol NumberedServiceSink {
    func add<A: Digit, B: Digit, C: Digit, D: Digit>(_ service: Numbered<A, B, C, D>)
}

extension ServiceLocator: NumberedServiceSink {
    func add<A: Digit, B: Digit, C: Digit, D: Digit>(_ service: Numbered<A, B, C, D>) {
        _ = addService(key: ServiceLocatorEasyKey<Numbered<A, B, C, D>>(), service: service)
    }
}

extension ServiceEasyLocator: NumberedServiceSink {
    func add<A: Digit, B: Digit, C: Digit, D: Digit>(_ service: Numbered<A, B, C, D>) {
        _ = addService(service)
    }
}

enum NumberedTypes {
    static let digits: [any Digit.Type] = [
        D0.self, D1.self, D2.self, D3.self, D4.self, D5.self, D6.self, D7.self, D8.self, D9.self,
    ]

    /// Calls `body` with a new service of each of the types numbered 0 to `count - 1`.
    static func forEach(count: Int, _ body: (any NumberedServiceSinkValue) -> Void) {
        for number in 0..<count {
            let thousands: any Digit.Type = digits[number / 1000 % 10]
            let hundreds: any Digit.Type = digits[number / 100 % 10]
            let tens: any Digit.Type = digits[number / 10 % 10]
            let ones: any Digit.Type = digits[number % 10]
            body(make(thousands, hundreds, tens, ones))
        }
    }

    private static func make<A: Digit, B: Digit, C: Digit, D: Digit>(
        _ a: A.Type, _ b: B.Type, _ c: C.Type, _ d: D.Type
    ) -> any NumberedServiceSinkValue {
        Numbered<A, B, C, D>()
    }
}

/// A `Numbered` service of any number, which can add itself to a sink with its own type.
protocol NumberedServiceSinkValue: AnyObject {
    func add(to sink: NumberedServiceSink)
}

extension Numbered: NumberedServiceSinkValue {
    func add(to sink: NumberedServiceSink) {
        sink.add(self)
    }
}

extension Int {
    /// `10,000`: thousands separated, for case names.
    var formatted: String {
        let digits = String(self)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}
