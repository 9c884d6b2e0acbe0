/* sb_offset_in_bounds_after (sysbatch/shape.h): when an earlier access at
 * c1 + V proves that a later load at c2 + V cannot fault where the batch
 * is issued.  The rtapelib shapes (int to[4][2], from[4][2]; V = 8n) are
 * safe; a load past the row's end, one into a smaller object, one before
 * the object's start, and V without a known factor are not.
 * Exits 0 when every check holds, 1 (after printing the failures) otherwise.
 *
 * RUN: %gcc -std=c11 -Wall -Wextra -Werror -I%srcroot/core/include %s %objroot/core/libsysbatch_core.a -o %t
 * RUN: %t
 */
#include "sysbatch/shape.h"

#include "Inputs/check.h"

int main(void)
{
    /* to[n][0] proves n in 0..3: to[n][1], from[n][1], from[n][0]. */
    CHECK(sb_offset_in_bounds_after(8, 0, 4, 32, 4, 4, 32));
    CHECK(sb_offset_in_bounds_after(8, 0, 4, 32, 0, 4, 32));
    /* The same element again, or a narrower part of it. */
    CHECK(sb_offset_in_bounds_after(8, 4, 4, 32, 4, 4, 32));
    CHECK(sb_offset_in_bounds_after(8, 0, 4, 32, 2, 2, 32));
    /* Without the factor, V may be 28: to[n][1] could end past 32. */
    CHECK(!sb_offset_in_bounds_after(0, 0, 4, 32, 4, 4, 32));
    CHECK(!sb_offset_in_bounds_after(1, 0, 4, 32, 4, 4, 32));
    /* A factor that is no power of two is read as 1. */
    CHECK(!sb_offset_in_bounds_after(24, 0, 4, 32, 4, 4, 32));
    /* An 8-byte load at offset 4 of an 8-byte row runs past it. */
    CHECK(!sb_offset_in_bounds_after(8, 0, 4, 32, 4, 8, 32));
    /* A smaller second object: from[3][2] when to is [4][2]. */
    CHECK(!sb_offset_in_bounds_after(8, 0, 4, 32, 4, 4, 24));
    /* A larger second object is fine. */
    CHECK(sb_offset_in_bounds_after(8, 0, 4, 32, 4, 4, 64));
    /* to[n][1] proves n in 0..3 too, so to[n][0] is safe; with V any
     * byte offset, V may be -4 and c2 + V lies before the start. */
    CHECK(sb_offset_in_bounds_after(8, 4, 4, 32, 0, 4, 32));
    CHECK(!sb_offset_in_bounds_after(1, 4, 4, 32, 0, 4, 32));
    /* An earlier access that cannot be in bounds proves nothing. */
    CHECK(!sb_offset_in_bounds_after(8, 0, 64, 32, 0, 4, 32));
    /* Bad sizes. */
    CHECK(!sb_offset_in_bounds_after(8, 0, 0, 32, 0, 4, 32));
    CHECK(!sb_offset_in_bounds_after(8, 0, 4, 0, 0, 4, 32));
    CHECK(!sb_offset_in_bounds_after(8, 0, 4, 32, 0, 4, -1));
    /* Negative constant parts (an object addressed from its end). */
    CHECK(sb_offset_in_bounds_after(8, -8, 4, 32, -4, 4, 32));
    CHECK(!sb_offset_in_bounds_after(8, -8, 4, 32, -12, 4, 32));
    return failures != 0;
}
