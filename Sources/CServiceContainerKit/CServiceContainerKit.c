#include "CServiceContainerKit.h"

// See CServiceContainerKit.h: each is read and written only through its functions there.
long sck_recording_users = 0;
long sck_scopes_used = 0;
long sck_task_keepers = 0;
_Thread_local void *sck_thread_context __attribute__((tls_model("initial-exec"))) = 0;
