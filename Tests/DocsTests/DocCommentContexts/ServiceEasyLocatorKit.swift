// The names that the examples in the doc comments of ServiceEasyLocatorKit (the ```swift blocks
// of the `///` comments in Sources/Locators/ServiceEasyLocatorKit) use: DocCommentExamplesTests
// type-checks those examples after this file, in one file. Read by that test, compiled into no
// target.
import ServiceEasyLocatorKit

final class FirstService {}
final class LazyService {}
final class ThirdService {}
final class Profile {}
final class Image {}
final class Greeting {
    init(name: String) {}
}
struct SecondServiceParams { let number: Int }
final class SecondService { init(_ params: SecondServiceParams?) {} }

struct LazyServiceFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> LazyService { LazyService() }
}
struct SecondServiceFactory: ServiceParamsFactory {
    func makeService(params: SecondServiceParams?) throws -> SecondService { SecondService(params) }
}
struct ProfileFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .lazy
    func makeService() throws -> Profile { Profile() }
}
struct ImageFactory: ServiceParamsFactory {
    func makeService(params: String) throws -> Image { Image() }
}
// Both kinds of factory at once.
struct BothKindsFactory: ServiceFactory, ServiceParamsFactory {
    let mode: ServiceFactoryMode = .many
    func makeService() throws -> Image { Image() }
    func makeService(params: String) throws -> Image { Image() }
}
// Factories that are not `Sendable`: each counts what it made.
final class CountingFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .many
    var made = 0
    func makeService() throws -> Profile {
        made += 1
        return Profile()
    }
}
final class CountingImageFactory: ServiceParamsFactory {
    var made = 0
    func makeService(params: String) throws -> Image {
        made += 1
        return Image()
    }
}
final class BothKindsCountingFactory: ServiceFactory, ServiceParamsFactory {
    let mode: ServiceFactoryMode = .many
    var made = 0
    func makeService() throws -> Image {
        made += 1
        return Image()
    }
    func makeService(params: String) throws -> Image {
        made += 1
        return Image()
    }
}

let locator = ServiceEasyLocator()
let profileProvider = ProfileFactory().serviceProvider()
let imageProvider = ImageFactory().serviceProvider()
