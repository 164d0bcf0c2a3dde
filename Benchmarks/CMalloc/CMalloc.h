// The C allocator's statistics (mallinfo2), which the Swift Glibc module does not import.
#include <malloc.h>
