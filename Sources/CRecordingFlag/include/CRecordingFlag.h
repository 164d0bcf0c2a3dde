// How many validations and graph recorders are running: ServiceContainerKit's GetRecording.
//
// A C global rather than a Swift one, for one reason: a get is inlined into the app's module, and
// a Swift global of another module is reached there through a call to its addressor, which made
// the get of a made singleton 12 instructions longer (core/atOne get, under callgrind). A C
// global is one load away. Its only users are the two functions below, both relaxed atomics:
// the count says whether to record, and orders nothing else.
#ifndef SERVICE_CONTAINER_KIT_RECORDING_FLAG_H
#define SERVICE_CONTAINER_KIT_RECORDING_FLAG_H

extern long sck_recording_users;

/// The number of validations and recorders running (relaxed).
static inline long sck_recording_users_load(void) {
    return __atomic_load_n(&sck_recording_users, __ATOMIC_RELAXED);
}

/// Adds `delta` (1 when a validation or recorder starts, -1 when it ends) to the number (relaxed).
static inline void sck_recording_users_add(long delta) {
    __atomic_fetch_add(&sck_recording_users, delta, __ATOMIC_RELAXED);
}

#endif
