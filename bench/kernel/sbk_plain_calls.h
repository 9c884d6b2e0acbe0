/* The compiler-batched functions of sbk_plain_calls.c: plain_<call>_<N>
 * makes N calls of one kind (getuid, fstat(fd), lstat(path)). */
#ifndef SBK_PLAIN_CALLS_H
#define SBK_PLAIN_CALLS_H

#define SBK_PLAIN_DECLARE(kind)                                                \
    long plain_##kind##_1(int, const char *);                                  \
    long plain_##kind##_2(int, const char *);                                  \
    long plain_##kind##_4(int, const char *);                                  \
    long plain_##kind##_8(int, const char *);                                  \
    long plain_##kind##_16(int, const char *);                                 \
    long plain_##kind##_32(int, const char *);                                 \
    long plain_##kind##_64(int, const char *);

SBK_PLAIN_DECLARE(getuid)
SBK_PLAIN_DECLARE(fstat)
SBK_PLAIN_DECLARE(lstat)

#endif
