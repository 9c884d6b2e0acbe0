/* Return-convention helpers for compiler-rewritten code.
 *
 * After a batch, each original call site gets its slot's raw kernel result
 * and must see what the libc wrapper would have returned, with errno set at
 * that point exactly as the wrapper would have set it:
 *
 *     before:  fd = open(p, O_RDONLY);
 *     after:   fd = (int)sysbatch_ret_errno(rets[0]);   -- -1 + errno on failure
 *
 * A raw value r is a failure iff (unsigned long)r > -4096UL, i.e. -4095..-1
 * (the kernel's and libc's rule: larger magnitudes are valid results, such as
 * high addresses or large offsets).  On success errno is left untouched.
 */
#include "sysbatch.h"

#include <errno.h>
#include <sys/mman.h>

const char sysbatch_empty_string[1] = "";

static inline int sb__is_failure(long raw)
{
    return (unsigned long)raw > -4096UL;
}

long sysbatch_ret_errno(long raw)
{
    if (sb__is_failure(raw)) {
        errno = (int)-raw;
        return -1;
    }
    return raw;
}

void *sysbatch_ret_mmap(long raw)
{
    if (sb__is_failure(raw)) {
        errno = (int)-raw;
        return MAP_FAILED;
    }
    return (void *)raw;
}

int sysbatch_ret_positive_error(long raw)
{
    /* posix_fadvise and friends return the error number and leave errno. */
    return sb__is_failure(raw) ? (int)-raw : (int)raw;
}
