/// Takes ownership of a value in a call the optimizer cannot see into, so the work that
/// produced the value is never removed as dead code, and nothing read before the call can be
/// kept in a register across it (the call may have written anything).
///
/// The value is `consuming`, as a caller that keeps a service owns it: a library get that hands
/// out a strong reference and a hand-written read that does the same both pay one retain here
/// and one release inside the call, and the optimizer cannot drop that pair from one side only.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: consuming T) {}

/// Returns `value` through a call the optimizer cannot see into, so a value built during setup
/// is not folded into the measured loop as a constant.
@inline(never) @_optimize(none)
func opaque<T>(_ value: T) -> T { value }
