/* The flags argument of sysbatch_run (SB_RT_RUN_* of sysbatch/runtime-abi.h,
 * SYSBATCH_RUN_* of sysbatch.h): every batch the plugin builds says it is
 * planned (1), whether a slot jumps (2) and whether a slot is a pthread
 * cancellation point (4), straight-line and loop batches alike.  The LLVM
 * pass gives the same values for the same source (tests/llvm/Run_flags.c).
 *
 * REQUIRES: gcc-host
 * RUN: rm -rf %t && mkdir -p %t && cd %t
 * RUN: %sbgcc -O2 -c %s -o %t/x.o -fdump-tree-all -dumpdir %t/
 * RUN: cat %t/*.sysbatch* | %FileCheck %s
 * CHECK-LABEL: ;; Function uid_gid
 * CHECK:         sysbatch_run ({{.*}}, 2, 1);
 * CHECK-LABEL: ;; Function pid_close
 * CHECK:         sysbatch_run ({{.*}}, 2, 5);
 * CHECK-LABEL: ;; Function open_read_close
 * CHECK:         sysbatch_run ({{.*}}, 5, 7);
 * CHECK-LABEL: ;; Function make_then_remove
 * CHECK:         sysbatch_run ({{.*}}, 2, 3);
 * CHECK-LABEL: ;; Function close_array
 * CHECK:         sysbatch_run (&sysbatch_loop_rets{{.*}}, _{{[0-9]+}}, 5);
 * CHECK-LABEL: ;; Function make_dirs
 * CHECK:         sysbatch_run (&sysbatch_loop_rets{{.*}}, _{{[0-9]+}}, 1);
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

long uid_gid(void)
{
    uid_t u = getuid();
    gid_t g = getgid();
    return (long)u + g;
}

long pid_close(int fd)
{
    pid_t p = getpid();
    close(fd);
    return p;
}

long open_read_close(const char *path, char *buf)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    long n = read(fd, buf, 64);
    close(fd);
    return n;
}

int make_then_remove(const char *a, const char *b)
{
    if (mkdir(a, 0755) < 0)
        return -1;
    if (unlink(b) < 0)
        return -2;
    return 0;
}

void close_array(int *fd, int n)
{
    for (int i = 0; i < n; i++)
        close(fd[i]);
}

void make_dirs(const char **names, int n)
{
    for (int i = 0; i < n; i++)
        mkdir(names[i], 0755);
}
