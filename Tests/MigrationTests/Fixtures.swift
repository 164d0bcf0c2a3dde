import ServiceEasyLocatorKit

// The services of the 1.x and 2.x snippets. The factories are in the snippet files, written as
// the snippets wrote them except for what docs/migration.md says to change.

final class UserService {}
final class SingletonService {}
final class LazyService {}

final class FirstService {
    let singletonService: SingletonService
    init(singletonService: SingletonService) { self.singletonService = singletonService }
}

struct SecondServiceParams {
    let number: Int
    let text: String
    init(number: Int) {
        self.number = number
        self.text = ""
    }
    init(_ text: String) {
        self.number = 0
        self.text = text
    }
}

final class SecondService {
    typealias Params = SecondServiceParams
    let lazyService: LazyService
    let firstService: FirstService
    var number = 0
    var text = ""
    init(lazyService: LazyService, firstService: FirstService) {
        self.lazyService = lazyService
        self.firstService = firstService
    }
}

protocol SecondServicing: AnyObject {}
final class LazySecondService: SecondServicing {}

protocol ThirdServicing: AnyObject {}
final class ThirdService: ThirdServicing {}

protocol TestServiceShared: AnyObject {}
final class SharedTestService: TestServiceShared {}

final class ParamsService {
    let text: String
    init(text: String) { self.text = text }
}

final class ServiceExampleV1 {}
final class ServiceExampleV2 {}
