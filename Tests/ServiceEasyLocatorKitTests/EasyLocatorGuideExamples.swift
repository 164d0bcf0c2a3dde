import Testing
import ServiceEasyLocatorKit

// The examples of docs/locators.md (ServiceEasyLocatorKit part), verbatim.

protocol Analytics: AnyObject {
    func track(_ event: String)
}

final class ConsoleAnalytics: Analytics {
    private(set) var events: [String] = []
    func track(_ event: String) { events.append(event) }
}

final class Session {}

final class ProfileLoader {
    let analytics: Analytics
    init(analytics: Analytics) { self.analytics = analytics }
}

func makeEasyLocator() -> ServiceEasyLocator {
    let locator = ServiceEasyLocator()
    locator.addService(ConsoleAnalytics() as Analytics)      // stored as Analytics
    locator.addLazyService { Session() }                     // made on the first get, then kept
    locator.addService { [unowned locator] in                // made anew on every get
        ProfileLoader(analytics: try locator.tryService())
    }
    locator.setReadOnly()
    return locator
}

func useEasyLocator() throws -> ProfileLoader {
    let locator = makeEasyLocator()
    let analytics: Analytics = try locator.tryService()
    analytics.track("start")
    let session = locator.getService(serviceType: Session.self)    // Session?
    _ = session
    return try locator.tryService(serviceType: ProfileLoader.self)
}

final class Report {
    let title: String
    init(title: String) { self.title = title }
}

struct ReportFactory: ServiceParamsFactory {
    func makeService(params: String?) throws -> Report { Report(title: params ?? "Untitled") }
}

func reports() throws -> [String] {
    let locator = ServiceEasyLocator()
    locator.addService(factory: ReportFactory())
    let titled: Report = try locator.tryService(params: "Q3")
    let untitled: Report = try locator.tryService()
    do {
        let _: Report = try locator.tryService(params: 42)
    } catch ServiceLocatorError.wrongParams(_, _, let expected, let received) {
        // expected: String?, received: Int
        _ = (expected, received)
    }
    return [titled.title, untitled.title]
}

@Suite("docs/locators.md examples: ServiceEasyLocator")
struct EasyLocatorGuideExamples {
    @Test func easyLocatorWorks() throws {
        let loader = try useEasyLocator()
        #expect((loader.analytics as? ConsoleAnalytics)?.events == ["start"])
    }

    @Test func reportsWork() throws {
        #expect(try reports() == ["Q3", "Untitled"])
    }
}
