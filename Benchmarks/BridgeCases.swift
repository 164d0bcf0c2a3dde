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
        ]
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
