import Foundation
import ServiceContainerKitObjC
import Synchronization
import Testing

// A get through the Objective-C style wrapper after the last user released a service of a `weak`
// provider: the case an optimized build once crashed on. Run in debug and release.
@Suite("The ObjC bridge's weak provider after its service was released")
struct ObjCReleasedServiceTests {
    @Test("Each get after a release makes a new service, through a provider of a class or of a protocol")
    func weakProvider() {
        let made = Atomic<Int>(0)
        let byClass = ServiceProviderObjC(ServiceProvider<FirstService>(mode: .weak) {
            FirstService(name: "first \(made.add(1, ordering: .relaxed).newValue)")
        })
        let byProtocol = ServiceProviderObjC(ServiceProvider<any GreetingService>(mode: .weak) {
            Greeter(greeting: "hello \(made.add(1, ordering: .relaxed).newValue)")
        })
        var names: [String] = []
        for _ in 0..<2 {
            weak var releasedFirst: NSObject?
            weak var releasedGreeter: NSObject?
            do {
                let first = byClass.getService() as? FirstService
                let greeter = byProtocol.getService() as? Greeter
                names += [first?.name ?? "nil", greeter?.greeting ?? "nil"]
                releasedFirst = first
                releasedGreeter = greeter
            }
            #expect(releasedFirst == nil)
            #expect(releasedGreeter == nil)
        }
        #expect(names == ["first 1", "hello 2", "first 3", "hello 4"])
    }
}
