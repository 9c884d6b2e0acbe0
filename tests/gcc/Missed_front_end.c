/* A function with a catalogue name defined in this translation unit is not
 * the C library's: the front end refuses it with its own reason.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s
 */
int close(int fd) { return fd; }
int getuid(void);
int getgid(void);

int own_close(void)
{
    int a = getuid();
    int b = close(3);
    // CHECK: Missed_front_end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: close not batched: front-end (the compiler front end refused it: defined in this translation unit, not the C library)
    int c = getgid();
    return a + b + c;
}
