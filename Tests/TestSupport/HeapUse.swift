#if canImport(CMalloc)
import CMalloc
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The bytes the C allocator has handed out and not taken back (small blocks and mapped ones),
/// from its statistics (`mallinfo2`); 0 where they cannot be read.
///
/// The heap is the process's, so a test that compares two readings runs in a process of its
/// own (an exit test), where no other test allocates in between.
public func heapInUse() -> Int {
    #if canImport(CMalloc)
    let info = mallinfo2()
    return Int(info.uordblks + info.hblkhd)
    #else
    return 0
    #endif
}

/// How many bytes the heap grew by per call of `body` over `count` calls, after `warmUp` calls
/// that fill the caches a first call fills (type metadata, the thread's context). `settle` runs
/// before each reading, for work that finishes on another thread (a logger's queue).
///
/// With `rounds` above 1 it measures that many rounds of `count` calls one after the other and
/// gives the smallest growth: a leak grows the heap in every round, while a cache that another
/// thread fills once, at a moment that depends on the machine's load, grows it in one at most.
public func heapGrowthPerCall(
    count: Int,
    warmUp: Int = 50_000,
    rounds: Int = 1,
    settle: () -> Void = {},
    _ body: () -> Void
) -> Double {
    for _ in 0..<warmUp { body() }
    settle()
    var smallest = Double.infinity
    for _ in 0..<max(rounds, 1) {
        let before = heapInUse()
        for _ in 0..<count { body() }
        settle()
        smallest = min(smallest, Double(heapInUse() - before) / Double(count))
    }
    return smallest
}

/// Whether this process runs under ThreadSanitizer, whose allocator the C allocator's
/// statistics do not see and which makes every get many times slower: the heap tests, which
/// check memory and not concurrency, do not run there.
public let underThreadSanitizer: Bool = {
    #if canImport(Glibc)
    guard let program = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(program) }
    return dlsym(program, "__tsan_init") != nil
    #else
    return false
    #endif
}()
