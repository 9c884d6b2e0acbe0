/* startup.c for the kernel VM tier (kernel/CMakeLists.txt), whose check
 * asks every batch to run in the kernel: without the loop over glibc's
 * internal signal 32, whose batch the runtime runs as its original calls
 * on purpose (tests/e2e/Sigaction_startup.test covers that one). */
#define SIGNALS_KERNEL_ONLY 1
#include "startup.c"
