import Foundation
import ServiceContainerKitObjC

/// The cases of `ServiceContainerKitObjC`: `ServiceProviderObjC.getService()` against the Swift
/// provider's get plus the cast to `NSObject` written by hand.
enum BridgeCases {
    static let getAndCast = "provider get + NSObject cast by hand"

    static var all: [BenchmarkCase] {
        [
            bridgeGet("bridge/getService(), NSObject service") {
                ServiceProvider<BenchObjCService>(mode: .lazy) { BenchObjCService() }
            },
            bridgeGet("bridge/getService(), protocol service") {
                ServiceProvider<any BenchObjCServing>(mode: .lazy) { BenchObjCService() }
            },
            missedGetGrowth,
            missedKeyGetGrowth,
        ]
    }

    /// A get that finds nothing, from the largest locator against the smallest: a get without
    /// an error pointer drops the error, so it must not pay for the scan of the stored types
    /// that the error's hint takes (`LocatorStorage.explained(_:)`), which grows with them.
    static var missedGetGrowth: BenchmarkCase {
        missedGrowth(
            "bridge/missed get",
            wrap: { ServiceEasyLocatorObjC(LocatorCases.easyLocatorHolder(size: $0).value) },
            miss
        )
    }

    /// The same for `ServiceLocatorObjC.getServiceWithKey(_:)` with a typed key.
    static var missedKeyGetGrowth: BenchmarkCase {
        missedGrowth(
            "bridge/missed key get",
            wrap: { ServiceLocatorObjC(LocatorCases.locatorHolder(size: $0).value.0) },
            missKey
        )
    }

    /// A miss looks through one run of the locator's table, whose length depends on where the
    /// missing type's hash falls, and so on the addresses of the types, which move with every
    /// change of the code: the cases take turns among 16 missing types, so that the count is
    /// the mean of 16 runs, not the length of one.
    static func missedGrowth<Wrapper>(
        _ name: String,
        wrap: @escaping (Int) -> Wrapper,
        _ miss: @escaping (Holder<Wrapper>, Int) -> Any?
    ) -> BenchmarkCase {
        let (small, large) = (LocatorCases.sizes[0], LocatorCases.sizes[LocatorCases.sizes.count - 1])
        return BenchmarkCase(
            "\(name), \(large.formatted) vs \(small.formatted) services",
            baseline: "the same miss, \(small.formatted) services",
            target: 1.3,
            instructions: .ratio(1.1)
        ) {
            let (largeLocator, smallLocator) = (Holder(wrap(large)), Holder(wrap(small)))
            for turn in 0..<missingTypes.count {
                precondition(miss(largeLocator, turn) == nil && miss(smallLocator, turn) == nil, "a missing service was found")
            }
            return .init(
                subject: { iterations in
                    for turn in 0..<iterations { blackHole(miss(largeLocator, turn)) }
                },
                baseline: { iterations in
                    for turn in 0..<iterations { blackHole(miss(smallLocator, turn)) }
                }
            )
        }
    }

    /// The types no locator of the benchmark holds, one for each turn of 16.
    static let missingTypes: [AnyClass] = [
        BenchMissingService<Int>.self, BenchMissingService<Int8>.self, BenchMissingService<Int16>.self,
        BenchMissingService<Int32>.self, BenchMissingService<Int64>.self, BenchMissingService<UInt>.self,
        BenchMissingService<UInt8>.self, BenchMissingService<UInt16>.self, BenchMissingService<UInt32>.self,
        BenchMissingService<UInt64>.self, BenchMissingService<Float>.self, BenchMissingService<Double>.self,
        BenchMissingService<String>.self, BenchMissingService<Bool>.self, BenchMissingService<Character>.self,
        BenchMissingService<Substring>.self,
    ]

    @inline(never)
    static func miss(_ holder: Holder<ServiceEasyLocatorObjC>, _ turn: Int) -> Any? {
        holder.value.getServiceWithClass(missingTypes[turn & 15])
    }

    /// The keys of the missing types.
    static let missingKeys: [ServiceLocatorObjCKey] = [
        key(Int.self), key(Int8.self), key(Int16.self), key(Int32.self), key(Int64.self), key(UInt.self),
        key(UInt8.self), key(UInt16.self), key(UInt32.self), key(UInt64.self), key(Float.self), key(Double.self),
        key(String.self), key(Bool.self), key(Character.self), key(Substring.self),
    ]

    static func key<Tag>(_: Tag.Type) -> ServiceLocatorObjCKey {
        ServiceLocatorObjCKey(ServiceLocatorEasyKey<BenchMissingService<Tag>>())
    }

    @inline(never)
    static func missKey(_ holder: Holder<ServiceLocatorObjC>, _ turn: Int) -> Any? {
        holder.value.getServiceWithKey(missingKeys[turn & 15])
    }

    static func bridgeGet<Service>(
        _ name: String,
        make: @escaping () -> ServiceProvider<Service>
    ) -> BenchmarkCase {
        BenchmarkCase(name, baseline: getAndCast, target: 2.0) {
            let provider = make()
            _ = try! provider.getService()
            let objc = Holder(ServiceProviderObjC(provider))
            let swift = Holder(provider)
            precondition(objc.value.getService() is BenchObjCService, "the bridge did not give the service")
            return .init(
                subject: { repeatOperation($0, on: objc, getObjC) },
                baseline: { repeatOperation($0, on: swift, getAndCastByHand) }
            )
        }
    }

    @inline(never)
    static func getObjC(_ holder: Holder<ServiceProviderObjC>) -> Any? {
        holder.value.getService()
    }

    @inline(never)
    static func getAndCastByHand<Service>(_ holder: Holder<ServiceProvider<Service>>) -> Any? {
        guard let service = try? holder.value.getService() else { return nil }
        return service as? NSObject
    }
}

/// A service as Objective-C style callers get it: an `NSObject`.
final class BenchObjCService: NSObject, BenchObjCServing {}

/// What a provider of a protocol-typed service hands out.
protocol BenchObjCServing: AnyObject {}

/// The services no locator of the benchmark holds, one type for each `Tag`.
final class BenchMissingService<Tag>: NSObject {}
