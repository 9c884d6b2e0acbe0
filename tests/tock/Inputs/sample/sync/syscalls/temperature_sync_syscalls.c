/* The temperature sensor's Yield-WaitFor wrapper, as libtock-c's
 * libtock-sync/sensors/syscalls/temperature_syscalls.c. */
#include "../../sample.h"

returncode_t libtocksync_temperature_yield_wait_for(int *temperature)
{
    yield_waitfor_return_t ret = yield_wait_for(DRIVER_NUM_TEMPERATURE, 0);
    *temperature = (int)ret.data0;
    return RETURNCODE_SUCCESS;
}
