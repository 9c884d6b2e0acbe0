/* One lone candidate call: refused (below-min-batch) in the report. */
#include <unistd.h>

int lone(void)
{
    return getuid() == 0;
}
