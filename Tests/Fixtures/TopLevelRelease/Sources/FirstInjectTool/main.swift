// A command-line tool whose main.swift awaits nothing, as docs/injects.md ("The main loop on
// Linux") describes: nothing services the main queue until the tool runs `RunLoop.main`, and a
// run of it is the main-loop turn that removes a first-inject entity once injected, and one
// never injected once its `autoRemoveDelay` has passed. Built -c release by
// .ci/top-level-release and run; it exits with the number of checks that failed.

import Foundation
import ServiceInjects

protocol Greeter: AnyObject {
    var greeting: String { get }
}

final class ConsoleGreeter: Greeter {
    let greeting = "hello"
}

final class Settings {
    let verbose = true
}

final class Command {
    @EntityInject(Greeter.self) var greeter
}

nonisolated(unsafe) var failures: Int32 = 0
func check(_ condition: Bool, _ what: String) {
    print(condition ? "ok:" : "FAILED:", what)
    if !condition { failures += 1 }
}

EntityInjectResolver.registerForFirstInject(ConsoleGreeter() as Greeter)
EntityInjectResolver.registerForFirstInject(Settings(), autoRemoveDelay: 0.01)
let first = Command()
let second = Command()
check(first.greeter === second.greeter, "every injection of the same turn gets the entity")
check(first.greeter.greeting == "hello", "the entity injected")
check(EntityInjectResolver.contains(Greeter.self), "kept until the main queue is serviced")

// Turns of the main loop until both are gone, for at most 10 seconds.
let deadline = Date().addingTimeInterval(10)
while EntityInjectResolver.contains(Greeter.self) || EntityInjectResolver.contains(Settings.self), Date() < deadline {
    RunLoop.main.run(until: Date().addingTimeInterval(0.01))
}
check(!EntityInjectResolver.contains(Greeter.self), "removed by a run of RunLoop.main after its first injection")
check(!EntityInjectResolver.contains(Settings.self), "removed by a run of RunLoop.main once its delay passed")
exit(failures)
