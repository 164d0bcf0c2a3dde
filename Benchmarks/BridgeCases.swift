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

    static func missedGrowth<Wrapper>(
        _ name: String,
        wrap: @escaping (Int) -> Wrapper,
        _ miss: @escaping (Holder<Wrapper>) -> Any?
    ) -> BenchmarkCase {
        let (small, large) = (LocatorCases.sizes[0], LocatorCases.sizes[LocatorCases.sizes.count - 1])
        return BenchmarkCase(
            "\(name), \(large.formatted) vs \(small.formatted) services",
            baseline: "the same miss, \(small.formatted) services",
            target: 1.3,
            instructions: .ratio(1.1)
        ) {
            let (largeLocator, smallLocator) = (Holder(wrap(large)), Holder(wrap(small)))
            precondition(miss(largeLocator) == nil && miss(smallLocator) == nil, "the missing service was found")
            return .init(
                subject: { repeatOperation($0, on: largeLocator, miss) },
                baseline: { repeatOperation($0, on: smallLocator, miss) }
            )
        }
    }

    @inline(never)
    static func miss(_ holder: Holder<ServiceEasyLocatorObjC>) -> Any? {
        holder.value.getServiceWithClass(BenchMissingService.self)
    }

    static let missingKey = ServiceLocatorObjCKey(ServiceLocatorEasyKey<BenchMissingService>())

    @inline(never)
    static func missKey(_ holder: Holder<ServiceLocatorObjC>) -> Any? {
        holder.value.getServiceWithKey(missingKey)
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

/// A service no locator of the benchmark holds.
final class BenchMissingService: NSObject {}
