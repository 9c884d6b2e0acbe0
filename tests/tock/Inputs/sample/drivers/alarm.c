/* libtock_alarm_in_ms: one alarm ms milliseconds from now, in the driver's
 * ticks (libtock-c's libtock/services/alarm.c, without its list of
 * virtual alarms). */
#include "../sample.h"

static libtock_alarm_callback alarm_cb;

static void alarm_upcall(int now, int scheduled, int unused, void *opaque)
{
    (void)unused;
    alarm_cb((uint32_t)now, (uint32_t)scheduled, opaque);
}

int libtock_alarm_in_ms(uint32_t ms, libtock_alarm_callback cb, void *opaque)
{
    uint32_t frequency, now;
    int rc = libtock_alarm_command_get_frequency(&frequency);
    if (rc != RETURNCODE_SUCCESS)
        return rc;
    rc = libtock_alarm_command_read(&now);
    if (rc != RETURNCODE_SUCCESS)
        return rc;
    uint32_t ticks = (uint32_t)(((uint64_t)ms * frequency) / 1000);
    alarm_cb = cb;
    rc = libtock_alarm_set_upcall(alarm_upcall, opaque);
    if (rc != RETURNCODE_SUCCESS)
        return rc;
    return libtock_alarm_command_set_absolute(now, ticks);
}
