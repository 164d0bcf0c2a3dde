// The container of the README's quick start, as it is there (a test checks that the README's
// blocks are in this file word for word), for docs/diagnostics.md.

import Foundation
import ServiceContainerKit

final class Settings: Sendable {
    let databaseURL: String
    init(environment: [String: String]) {
        databaseURL = environment["DATABASE_URL"] ?? "postgres://localhost/app"
    }
}

final class ConnectionPool: Sendable {
    let url: String
    init(url: String) { self.url = url }
}

final class ReportJob {
    let pool: ConnectionPool
    init(pool: ConnectionPool) { self.pool = pool }
}

final class SubsystemLog: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

struct SettingsFactory: ServiceFactory {
    let mode: ServiceFactoryMode = .atOne      // made at once
    func makeService() throws -> Settings {
        Settings(environment: ProcessInfo.processInfo.environment)
    }
}

struct ConnectionPoolFactory: ServiceFactory {
    let settings: ServiceProvider<Settings>
    let mode: ServiceFactoryMode = .lazy       // made on the first get
    func makeService() throws -> ConnectionPool {
        ConnectionPool(url: try settings.getService().databaseURL)
    }
}

struct ReportJobFactory: ServiceFactory {
    let pool: ServiceProvider<ConnectionPool>
    let mode: ServiceFactoryMode = .many       // a new one on every get
    func makeService() throws -> ReportJob {
        ReportJob(pool: try pool.getService())
    }
}

struct SubsystemLogFactory: ServiceParamsFactory {
    func makeService(params: String) throws -> SubsystemLog {   // made from params on every get
        SubsystemLog(label: "server.\(params)")
    }
}

struct Services {
    let settings: ServiceProvider<Settings>
    let connectionPool: ServiceProvider<ConnectionPool>
    let reportJob: ServiceProvider<ReportJob>
    let log: ServiceParamsProvider<SubsystemLog, String>
    let httpLog: ServiceProvider<SubsystemLog>
}

extension Services {
    static func makeDefault() -> Services {
        let settings = SettingsFactory().serviceProvider()
        let connectionPool = ConnectionPoolFactory(settings: settings).serviceProvider()
        let log = SubsystemLogFactory().serviceProvider()
        return Services(
            settings: settings,
            connectionPool: connectionPool,
            reportJob: ReportJobFactory(pool: connectionPool).serviceProvider(),
            log: log,
            httpLog: log.convert(params: "http")
        )
    }
}
