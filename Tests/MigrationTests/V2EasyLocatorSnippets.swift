import Foundation
import Testing
import ServiceEasyLocatorKit

// The 2.0 docs' "Usage ServiceEasyLocator", adapted as docs/migration.md says.

struct ParamsServiceFactory: ServiceParamsFactory {
    /// Optional params for support get service without params in ServiceEasyLocator.
    func makeService(params: String?) throws -> ParamsService {
        return ParamsService(text: params ?? "")
    }
}

/// The 2.x shared-locator subclass; its `static var`s become reads of a `SharedServiceLocator`,
/// which Swift 6 accepts.
enum V2Shared {
    final class ServiceLocator: ServiceEasyLocator, @unchecked Sendable {
        enum Error: LocalizedError {
            case sharedRequireSetup

            public var errorDescription: String? {
                switch self {
                case .sharedRequireSetup: return "ServiceLocator don't setuped for use as share (singleton)"
                }
            }
        }

        private static let holder = SharedServiceLocator<ServiceEasyLocator>()

        public static var shared: ServiceEasyLocator? { holder.locator }

        public static func tryShared() throws -> ServiceEasyLocator {
            if let shared = shared {
                return shared
            } else {
                throw Error.sharedRequireSetup
            }
        }

        public static var readOnlyShared: Bool { holder.readOnly }

        public static func setupShared(
            _ serviceLocator: ServiceLocator,
            readOnlySharedAfter: Bool = true,
            file: StaticString = #fileID,
            line: UInt = #line
        ) {
            holder.setup(serviceLocator, readOnlySharedAfter: readOnlySharedAfter, file: file, line: line)
        }
    }
}

@Suite("2.x ServiceEasyLocator snippets")
struct V2EasyLocatorSnippetTests {
    func makeLocator() -> ServiceEasyLocator {
        let sharedTestService = SharedTestService()
        let singletonServiceProvider = SingletonServiceFactory().serviceProvider()
        let lazyServiceProvider = LazyServiceFactory().serviceProvider()

        let serviceLocator = ServiceEasyLocator()

        serviceLocator.addService(provider: singletonServiceProvider)
        serviceLocator.addService(provider: lazyServiceProvider)

        serviceLocator.addService(provider: FirstServiceFactory(singletonServiceProvider: singletonServiceProvider).serviceSafeProvider())
        serviceLocator.addService(sharedTestService as TestServiceShared) //TestServiceShared is protocol

        serviceLocator.addLazyService {
            LazySecondService()
        }

        serviceLocator.addService {
            ThirdService() as ThirdServicing
        }

        serviceLocator.addService(factory: ParamsServiceFactory())
        serviceLocator.addService(provider: SecondServiceFactory(
            lazyServiceProvider: lazyServiceProvider,
            firstServiceProvider: FirstServiceFactory(singletonServiceProvider: singletonServiceProvider)
                .serviceSafeProvider()
        ).serviceProvider())

        serviceLocator.setReadOnly()
        return serviceLocator
    }

    @Test func addAndGetServices() throws {
        let serviceLocator = makeLocator()

        let firstService: FirstService = serviceLocator.getService()!
        let secondService = serviceLocator.getService(serviceType: SecondService.self)!

        let thirdService: ThirdServicing
        do {
            thirdService = try serviceLocator.tryService(serviceType: ThirdServicing.self)
        } catch {
            fatalError("Error get thirdService: \(error)")
        }

        let paramsService: ParamsService = serviceLocator.getService(params: "test")!

        let serviceDefault: ParamsService = try serviceLocator.tryService()
        let serviceManual: ParamsService = try serviceLocator.tryService(params: "Manual value")

        #expect(firstService.singletonService === secondService.firstService.singletonService)
        #expect(thirdService is ThirdService)
        #expect(paramsService.text == "test")
        #expect(serviceDefault.text == "")
        #expect(serviceManual.text == "Manual value")
        #expect(serviceLocator.getService(serviceType: TestServiceShared.self) != nil)
    }

    @Test func wrongParamsAreReported() {
        let serviceLocator = makeLocator()
        #expect(throws: ServiceLocatorError.self) { () -> ParamsService in try serviceLocator.tryService(params: 5) }
    }

    @Test func sharedSubclass() throws {
        #expect(V2Shared.ServiceLocator.shared == nil)
        #expect(throws: V2Shared.ServiceLocator.Error.self) { try V2Shared.ServiceLocator.tryShared() }

        let serviceLocator = V2Shared.ServiceLocator()
        serviceLocator.addService { ThirdService() }
        serviceLocator.setReadOnly()
        V2Shared.ServiceLocator.setupShared(serviceLocator)

        #expect(V2Shared.ServiceLocator.readOnlyShared)
        let third: ThirdService = try V2Shared.ServiceLocator.tryShared().tryService()
        #expect(third !== (try V2Shared.ServiceLocator.tryShared().tryService() as ThirdService))
    }
}
