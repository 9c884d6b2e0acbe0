// Loop batching of a call whose name the loop builds each iteration into
// one buffer (issue #12, rule 6), from clang at -O0 and -O2: the inspector
// builds the name again for each later iteration into a private buffer per
// slot (snprintf, strcpy + strcat, memcpy), errno saved around it; the
// loop's own code still builds the shared buffer.  A buffer also written by
// other code, or built from what the loop writes, is refused as
// loop-built-arg with the cause.
// REQUIRES: llvm
// RUN: %sbclang -O2 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | awk '/^function /{if (b) print b; b = $0; next} {sub(/^ +/, ""); b = b " | " $0} END{if (b) print b}' | %FileCheck %s
// RUN: %sbclang -O0 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | awk '/^function /{if (b) print b; b = $0; next} {sub(/^ +/, ""); b = b " | " $0} END{if (b) print b}' | %FileCheck %s
// RUN: %sbclang -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %sbclang -O2 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// The inspector's copy of the builder writes the private buffer, and errno
// is restored after it.
// RUN: %sbclang -O2 -S -emit-llvm -fno-discard-value-names %s -o - | %FileCheck %s --check-prefix=IR
// IR-LABEL: define{{.*}} @sizes(
// IR: %sb.loop.built = alloca [4096 x i8], align 16
// IR: %sb.errno = call {{.*}}@__errno_location()
// IR: %sb.errno.saved = load i32, {{.*}}%sb.errno
// IR: store i32 %sb.errno.saved, {{.*}}%sb.errno
// IR: %sb.built = getelementptr inbounds [4096 x i8], {{.*}}%sb.loop.built
// IR: call {{.*}}@snprintf({{.*}}%sb.built, i64 noundef 256,
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const names[4] = {"a", "b", "c", "d"};

// CHECK-DAG: function sizes loop 0: | loop call lstat: 16 iterations per batch | slot: newfstatat(-100, built, private, 256) | private a1: 144 bytes per slot, copied back on success | built a0: 256 bytes per slot, by the loop's own code
long sizes(const char *dir, int n)
{
    char path[256];
    struct stat st;
    long total = 0;
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i & 3]);
        if (lstat(path, &st) == 0)
            // REMARK: Loop_built_names.c:[[@LINE-1]]:13: remark: batched loop call lstat: 16 iterations per batch [-Rpass=sysbatch]
            total += st.st_size;
    }
    return total;
}

// CHECK-DAG: function remove_all loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(built) | built a0: 64 bytes per slot, by the loop's own code
void remove_all(const char *dir, int n)
{
    char path[64];
    for (int i = 0; i < n; i++) {
        strcpy(path, dir);
        strcat(path, names[i & 3]);
        unlink(path);
    }
}

static const char prefix[4] = {'d', 'i', 'r', '-'};

// CHECK-DAG: function make_dirs loop 0: | loop call mkdir: 16 iterations per batch | slot: mkdir(built, 493) | built a0: 16 bytes per slot, by the loop's own code
void make_dirs(int n)
{
    char name[16];
    for (int i = 0; i < n; i++) {
        memcpy(name, prefix, sizeof prefix);
        memcpy(name + sizeof prefix, names[i & 3], 2);
        mkdir(name, 0755);
    }
}

// The buffer is also written by code the inspector does not repeat.
// CHECK-DAG: function touch_up loop 0: | loop call unlink: refused: loop-built-arg: {{.*}}: the buffer is built in the loop, but {{.*}}
void touch_up(const char *dir, int n, char c)
{
    char path[64];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i & 3]);
        path[n & 7] = c++;
        unlink(path);
        // REMARK: Loop_built_names.c:[[@LINE-1]]:9: remark: unlink not batched in its loop: loop-built-arg ({{.*}}) [-Rpass-missed=sysbatch]
    }
}

// A name built from a counter the loop keeps: not repeatable.
// CHECK-DAG: function numbered loop 0: | loop call unlink: refused: loop-built-arg: {{.*}}: the buffer is built in the loop, but a call to snprintf takes {{.*}}
void numbered(int n, int *seq)
{
    char path[32];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "f%d", *seq);
        *seq += 3;
        unlink(path);
    }
}
