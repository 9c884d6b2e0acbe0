/* Tock app for Tock_exec.test: the GIMPLE shapes of a libtock-c call's
 * result that the GCC plugin's rewrite must copy into (an array element,
 * a struct field, the function's own return value, a struct the caller
 * passes in), a word of an earlier series' result reloaded where the next
 * series is issued, and series whose first or middle call fails so that
 * the calls after it run from their own call sites.  Built unplugged and
 * plugged; the two runs must print the same. */
#include <stdint.h>

#include "app_io.h"

static uint32_t cell;

struct pair {
    int tag;
    syscall_return_t r;
};

static void into_array(void)
{
    syscall_return_t rs[3];
    rs[0] = command(DRV_LED, 1, 1, 0);
    rs[1] = command(DRV_LED, 3, 9, 0); /* fails: the series stops here */
    rs[2] = command(DRV_LED, 2, 1, 0);
    for (int i = 0; i < 3; i++)
        print_command("array", rs[i]);
}

static void into_field(void)
{
    struct pair p, q;
    p.tag = 1;
    p.r = command(DRV_LED, 3, 2, 0);
    q.r = command(DRV_LED, 3, 2, 0);
    q.tag = 2;
    print_command("field p", p.r);
    print_command("field q", q.r);
    app_printf("tags %d %d\n", p.tag, q.tag);
}

static syscall_return_t returned(void)
{
    command(DRV_LED, 1, 3, 0);
    return command(DRV_COUNTER, 2, 0, 0);
}

static memop_return_t returned_memop(void)
{
    memop(10, 0);
    return memop(11, 0);
}

static void into_caller(syscall_return_t *out)
{
    syscall_return_t a = command(99, 1, 0, 0); /* fails first: no driver */
    /* straight into the caller's memory: a run did not reach it, take runs it */
    *out = command(DRV_LED, 2, 3, 0);
    print_command("missing driver", a);
}

static void reloaded(void)
{
    allow_readwrite(DRV_COUNTER, 0, &cell, sizeof cell);
    syscall_return_t add = command(DRV_COUNTER, 1, 4, 0);
    syscall_return_t get = command(DRV_COUNTER, 2, 0, 0);
    app_puts("between\n");
    syscall_return_t add2 = command(DRV_COUNTER, 1, 1, 0);
    syscall_return_t add3 = command(DRV_COUNTER, 1, (int)get.data[0], 0);
    print_command("add", add);
    print_command("get", get);
    print_command("add 1", add2);
    print_command("add get", add3);
    app_printf("cell %u\n", cell);
    allow_readwrite(DRV_COUNTER, 0, NULL, 0);
}

int main(void)
{
    app_name_ptr(&cell, "cell");
    into_array();
    into_field();
    print_command("returned", returned());
    print_memop("returned memop", returned_memop());
    syscall_return_t out;
    into_caller(&out);
    print_command("into caller", out);
    reloaded();
    return 0;
}
