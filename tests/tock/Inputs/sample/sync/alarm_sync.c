/* libtocksync_alarm_delay_ms: an alarm, then yield until it fired
 * (libtock-c's libtock-sync/services/alarm.c); and libtock-c's yield_for. */
#include "../sample.h"

void yield_for(bool *cond)
{
    while (!*cond)
        yield();
}

static bool delay_fired;

static void delay_done(uint32_t now, uint32_t scheduled, void *opaque)
{
    (void)now;
    (void)scheduled;
    (void)opaque;
    delay_fired = true;
}

int libtocksync_alarm_delay_ms(uint32_t ms)
{
    delay_fired = false;
    int rc = libtock_alarm_in_ms(ms, delay_done, NULL);
    if (rc != RETURNCODE_SUCCESS)
        return rc;
    yield_for(&delay_fired);
    return rc;
}
