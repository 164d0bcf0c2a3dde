#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a round is timed with.
enum BenchmarkClock {
    /// CPU time of the measuring thread: time the scheduler gives to other processes is not
    /// counted, so a busy machine slows a round down much less. For work on one thread.
    case threadCPU
    /// Wall-clock time, for cases whose work runs on other threads.
    case wall

    /// Nanoseconds, read around a whole round of iterations (never per operation).
    @inline(__always)
    func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(self == .threadCPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
