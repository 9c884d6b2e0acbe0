/* The whole sample layer as one translation unit: what -flto gives the
 * compiler, for clang 14, whose lld cannot load the pass plugin at an LTO
 * link (docs/llvm.md, "LTO").  samples.sh --unity builds each app with it. */
#include "syscalls/console_syscalls.c"
#include "syscalls/alarm_syscalls.c"
#include "syscalls/temperature_syscalls.c"
#include "syscalls/led_syscalls.c"
#include "syscalls/button_syscalls.c"
#include "drivers/console.c"
#include "drivers/alarm.c"
#include "drivers/temperature.c"
#include "drivers/led.c"
#include "drivers/button.c"
#include "sync/syscalls/console_sync_syscalls.c"
#include "sync/syscalls/temperature_sync_syscalls.c"
#include "sync/syscalls/button_sync_syscalls.c"
#include "sync/console_sync.c"
#include "sync/alarm_sync.c"
#include "sync/sensor_sync.c"
