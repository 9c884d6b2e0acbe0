// The flags argument of sysbatch_run (SB_RT_RUN_* of sysbatch/runtime-abi.h,
// SYSBATCH_RUN_* of sysbatch.h): every batch the pass builds says it is
// planned (1), whether a slot jumps (2) and whether a slot is a pthread
// cancellation point (4), straight-line and loop batches alike.  The GCC
// plugin gives the same values for the same source (tests/gcc/Run_flags.c).
// REQUIRES: llvm
// RUN: %sbclang -O2 -S -emit-llvm %s -o - | %FileCheck %s
// CHECK-LABEL: define {{.*}} @uid_gid(
// CHECK:         call i64 @sysbatch_run({{.*}}, i64 2, i64 1)
// CHECK-LABEL: define {{.*}} @pid_close(
// CHECK:         call i64 @sysbatch_run({{.*}}, i64 2, i64 5)
// CHECK-LABEL: define {{.*}} @open_read_close(
// CHECK:         call i64 @sysbatch_run({{.*}}, i64 5, i64 7)
// CHECK-LABEL: define {{.*}} @make_then_remove(
// CHECK:         call i64 @sysbatch_run({{.*}}, i64 2, i64 3)
// CHECK-LABEL: define {{.*}} @close_array(
// CHECK:         call i64 @sysbatch_run({{.*}}, i64 %{{[0-9a-z.]+}}, i64 5)
// CHECK-LABEL: define {{.*}} @make_dirs(
// CHECK:         call i64 @sysbatch_run({{.*}}, i64 %{{[0-9a-z.]+}}, i64 1)
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
