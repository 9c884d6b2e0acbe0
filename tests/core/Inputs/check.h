/* The check every core API test uses: CHECK(cond) prints the line and the
 * condition that failed and counts it in `failures`, so that one run shows
 * every failed check; the test's main exits 1 when `failures` is nonzero. */
#ifndef SYSBATCH_TEST_CHECK_H
#define SYSBATCH_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            printf("FAIL line %d: %s\n", __LINE__, #cond);                   \
            failures++;                                                      \
        }                                                                    \
    } while (0)

#endif
