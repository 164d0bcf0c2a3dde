// The globals of ServiceContainerKit that a get or a making reads, kept in C for one reason each:
// C gives code inlined into the app's module a single load of them, where Swift gives a call.
// And what `Locked` tells ThreadSanitizer, which Swift cannot name (the last section).
#ifndef C_SERVICE_CONTAINER_KIT_H
#define C_SERVICE_CONTAINER_KIT_H

// MARK: - The count of running validations and graph recorders (GetRecording)
//
// A Swift global of another module is reached through a call to its addressor, which made the
// get of a made singleton 12 instructions longer (core/atOne get, under callgrind); this is one
// load. Its only users are the two functions below, both relaxed atomics: the count says whether
// to record (or, with `SCK_SHUTDOWN_HAPPENED`, to look for shut-down providers), and orders
// nothing else.

extern long sck_recording_users;

/// Added once to the count, for good, when a container is first shut down (`ServiceShutdown`):
/// from then on every get takes its slow path, which also refuses the gets of shut-down
/// providers. The count of validations and recorders is the number below it.
#define SCK_SHUTDOWN_HAPPENED (1L << 40)

/// The number of validations and recorders running (relaxed).
static inline long sck_recording_users_load(void) {
    return __atomic_load_n(&sck_recording_users, __ATOMIC_RELAXED);
}

/// Adds `delta` (1 when a validation or recorder starts, -1 when it ends) to the number (relaxed).
static inline void sck_recording_users_add(long delta) {
    __atomic_fetch_add(&sck_recording_users, delta, __ATOMIC_RELAXED);
}

// MARK: - Whether scopes are in use (ServiceScope)
//
// A singleton's making looks at it before it binds itself to the task-local values that a
// `Task { }` of its factory inherits (`ThreadContext.withKeeper`), which costs about 1,100
// instructions: a process that never made a scope or a scoped provider has no scoped service
// such a task could get (its task would have to make the scoped provider itself). A read of the
// task-local scope alone cost 200 a making (the yardstick's cold start of 200 lazy services:
// 875k instructions, 909k with that read, 879k with this load). Set once, for good, by the
// first scope or scoped provider (one made later loads it and stores nothing); relaxed, as it
// orders nothing.

extern long sck_scopes_used;

/// Whether a `ServiceScope` or a scoped provider was ever made in this process (relaxed).
static inline long sck_scopes_used_load(void) {
    return __atomic_load_n(&sck_scopes_used, __ATOMIC_RELAXED);
}

/// Notes that a `ServiceScope` or a scoped provider was made (relaxed).
static inline void sck_scopes_used_note(void) {
    __atomic_store_n(&sck_scopes_used, 1, __ATOMIC_RELAXED);
}

// MARK: - The singleton makings that chains of tasks name (TaskContext)
//
// A scoped get fails when a singleton's making runs in its chain of tasks (a captive
// dependency): the making names itself in a link of the task-local context that the tasks its
// factory starts inherit. Reading that context cost every scoped get, while nearly always no
// such making runs: `core/scoped get (made)` counted 707 instructions with the read, 551 without
// (`--instructions`). This counts the links that name one and have not ended, in every task, so
// that a get reads the context only while one does. Relaxed:
// a link is counted before it is bound, so before any task that inherits it is made (which
// orders the count before that task's loads), and a load that no longer counts a link comes
// after its making ended.

extern long sck_task_keepers;

/// The number of links naming a running singleton making (relaxed).
static inline long sck_task_keepers_load(void) {
    return __atomic_load_n(&sck_task_keepers, __ATOMIC_RELAXED);
}

/// Adds `delta` (1 when such a link is made, -1 when it ends) to the number (relaxed).
static inline void sck_task_keepers_add(long delta) {
    __atomic_fetch_add(&sck_task_keepers, delta, __ATOMIC_RELAXED);
}

// MARK: - The calling thread's context (ThreadContext)
//
// Each thread's `ThreadContext`, made on the thread's first get and freed when it exits (a
// pthread key's destructor does that, and clears this slot). Reading the slot is one load from
// the thread's own memory, where `pthread_getspecific` through a Swift global key cost 33
// instructions per making (`hand-written/transient: many get`). Only the owning thread reads or
// writes its slot, so nothing is synchronized.
//
// The initial-exec model reads the slot at a fixed offset from the thread pointer: the package
// is linked into the program or into a library loaded with it, not opened later with dlopen.

extern _Thread_local void *sck_thread_context __attribute__((tls_model("initial-exec")));

/// The calling thread's context, or NULL before its first get and after its exit began.
static inline void *sck_thread_context_get(void) {
    return sck_thread_context;
}

/// Sets the calling thread's context.
static inline void sck_thread_context_set(void *context) {
    sck_thread_context = context;
}

// MARK: - What ThreadSanitizer is told about a `Locked` (Locked.swift)
//
// On Linux, a contended `Synchronization.Mutex` is handed from thread to thread by the kernel (a
// priority-inheriting futex), in code ThreadSanitizer does not see. In an optimized build it
// reported the state a `Locked` guards as raced whenever threads contended for it, and services
// handed out under one (dozens of reports a run of Tests/Fixtures/ReleaseThreadSanitizer; debug
// builds, the test suite's included, drew none). With the package's trait
// `ThreadSanitizerAnnotations`, `withLock` tells it the ordering the mutex gives: an acquire
// once the lock is held, a release before it is let go, both on the mutex's address. These are
// ThreadSanitizer's own annotations, declared weak, so that a build with the trait and without
// ThreadSanitizer links and runs: each call is then a test of a null address (a compare and a
// branch where `withLock` is specialized). Without the trait nothing here is called. On Apple
// platforms the mutex is an `os_unfair_lock`, which ThreadSanitizer intercepts, and the
// functions are empty.

#if defined(__linux__)
void __tsan_acquire(void *address) __attribute__((weak));
void __tsan_release(void *address) __attribute__((weak));
#endif

/// Tells ThreadSanitizer, when it runs, that the lock at `lock` is now held.
static inline void sck_lock_acquired(const void *lock) {
#if defined(__linux__)
    if (__tsan_acquire) __tsan_acquire((void *)lock);
#else
    (void)lock;
#endif
}

/// Tells ThreadSanitizer, when it runs, that the lock at `lock` is about to be let go.
static inline void sck_lock_releasing(const void *lock) {
#if defined(__linux__)
    if (__tsan_release) __tsan_release((void *)lock);
#else
    (void)lock;
#endif
}

#endif
