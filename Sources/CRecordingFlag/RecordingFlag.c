#include "CRecordingFlag.h"

// See CRecordingFlag.h: read and written only through its relaxed atomic functions.
long sck_recording_users = 0;
