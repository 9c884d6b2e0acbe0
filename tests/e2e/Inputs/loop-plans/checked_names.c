/* Rule 7 for the names later calls read (issue #12, results kept per
 * iteration): a store of the loop, or the kernel's write of an output
 * buffer, that may reach the string a later iteration's name points to.
 * The inspector takes 4096 bytes from each later name (never read) and checks them
 * against every write of the group; both compilers at -O0 and -O2
 * (tests/llvm/Loop_checked_names.test, tests/gcc/Loop_checked_names.test
 * check the PLAN lines; tests/e2e/Inputs/loops/checked_names.c runs the
 * shapes that batch).  The remark checks name lines of this file: keep
 * them in step. */
#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>

// PLAN-DAG: function open_param loop 0: | loop call open: 16 iterations per batch | slot: openat(-100, a0, 0, 0) | run-time check: the group's writes miss what it reads ahead | measured a0: later iterations' names count as 4096 bytes in the check{{$}}
void open_param(const char **n, int *fd, int count)
{
    for (int i = 0; i < count; i++)
        fd[i] = open(n[i], O_RDONLY);
}

// PLAN-DAG: function stat_param loop 0: | loop call stat: 16 iterations per batch | slot: newfstatat(-100, a0, a1, 0) | run-time check: the group's writes miss what it reads ahead | measured a0: later iterations' names count as 4096 bytes in the check{{$}}
void stat_param(const char *const *n, int *rc, struct stat *st, size_t count)
{
    for (size_t i = 0; i < count; i++)
        rc[i] = stat(n[i], &st[i]);
}

// The same with a do-while.  clang -O0 does not repeat the do-while's
// test on its stack slots (loop-always-stops without the store as well).
// WALK-DAG: function unlink_walk loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0) | run-time check: the group's writes miss what it reads ahead | measured a0: later iterations' names count as 4096 bytes in the check{{$}}
// CLANGO0-DAG: function unlink_walk loop 0: | loop call unlink: refused: loop-always-stops: {{.*}}: a branch that leaves the loop on a condition the inspector does not repeat{{$}}
void unlink_walk(char **n, int *rc, int count)
{
    int i = 0;
    do {
        rc[i] = unlink(n[i]);
        i++;
    } while (i < count);
}

// A failure ends the loop: the names of iterations the loop may never
// reach would be measured before the group runs, and the original never
// passes them to the kernel (where a bad pointer is only EFAULT).  The
// names are in a global array the parameter may point into; their
// addresses need no load, so only the measuring is speculative.
char spool[8][16];
// PLAN-DAG: function open_until_failure loop 0: | loop call open: refused: loop-speculative-load: {{.*}}: code between the calls may write the names later calls read, which the run-time check would compare before the group runs, and a result may end the group first{{.*}}
int open_until_failure(int *fd, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        int r = open(spool[i & 7], O_RDONLY);
        fd[i] = r;
        if (r < 0)
            break;
    }
    return i;
}
