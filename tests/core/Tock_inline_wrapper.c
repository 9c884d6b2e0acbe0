/* sb_tock_inline_wrapper: which function bodies are libtock-c syscall
 * wrappers that a front end has inlined wherever it can (one batchable raw
 * call, at most one converter, nothing else that calls, no loop, a few
 * statements).  Exits 0 when every check holds, 1 otherwise.
 *
 * RUN: %gcc -std=c11 -Wall -Wextra -Werror -I%srcroot/core/include %s %objroot/core/libsysbatch_core.a -o %t
 * RUN: %t
 */
#include "sysbatch/tock.h"

#include <stdio.h>

#include "Inputs/check.h"

int main(void)
{
    /* command(...) then tock_command_return_novalue_to_returncode(r) */
    const struct sb_tock_body wrapper = {1, 0, 1, 0, 3, false};
    CHECK(sb_tock_inline_wrapper(&wrapper));
    /* a raw call returned as it is (no converter) */
    const struct sb_tock_body bare = {1, 0, 0, 0, 1, false};
    CHECK(sb_tock_inline_wrapper(&bare));
    CHECK(!sb_tock_inline_wrapper(NULL));

    struct sb_tock_body b = wrapper;
    b.raw_calls = 0; /* a converter alone makes no system call */
    CHECK(!sb_tock_inline_wrapper(&b));
    b = wrapper;
    b.raw_calls = 2; /* two raw calls: a driver, GCC's to decide */
    CHECK(!sb_tock_inline_wrapper(&b));
    b = wrapper;
    b.never_calls = 1; /* yield_for, tock_exit: never in a series */
    CHECK(!sb_tock_inline_wrapper(&b));
    b = wrapper;
    b.converter_calls = 2;
    CHECK(!sb_tock_inline_wrapper(&b));
    b = wrapper;
    b.other_calls = 1; /* e.g. a log call before the raw call */
    CHECK(!sb_tock_inline_wrapper(&b));
    b = wrapper;
    b.loops = true;
    CHECK(!sb_tock_inline_wrapper(&b));
    b = wrapper;
    b.statements = 8;
    CHECK(sb_tock_inline_wrapper(&b));
    b.statements = 9; /* more code than a wrapper has */
    CHECK(!sb_tock_inline_wrapper(&b));
    return failures != 0;
}
