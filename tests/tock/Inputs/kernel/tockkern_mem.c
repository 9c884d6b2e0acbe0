/* memcpy/memset/memmove for kernel and apps: compilers emit calls to them
 * even under -ffreestanding.  Built with -fno-builtin so these loops are not
 * turned back into calls to themselves. */
#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    /* Word copies when both ends are aligned: frame templates are words. */
    if ((((size_t)d | (size_t)s) & 3) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(unsigned int *)(void *)d = *(const unsigned int *)(const void *)s;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else {
        while (n--)
            d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

#if defined(__arm__)
/* The ARM run-time ABI helpers clang emits for struct copies and clears
 * (note __aeabi_memset's argument order: dest, n, c). */
void __aeabi_memcpy(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
}
void __aeabi_memcpy4(void *dst, const void *src, size_t n) __attribute__((alias("__aeabi_memcpy")));
void __aeabi_memcpy8(void *dst, const void *src, size_t n) __attribute__((alias("__aeabi_memcpy")));

void __aeabi_memmove(void *dst, const void *src, size_t n)
{
    memmove(dst, src, n);
}
void __aeabi_memmove4(void *dst, const void *src, size_t n) __attribute__((alias("__aeabi_memmove")));
void __aeabi_memmove8(void *dst, const void *src, size_t n) __attribute__((alias("__aeabi_memmove")));

void __aeabi_memset(void *dst, size_t n, int c)
{
    memset(dst, c, n);
}
void __aeabi_memset4(void *dst, size_t n, int c) __attribute__((alias("__aeabi_memset")));
void __aeabi_memset8(void *dst, size_t n, int c) __attribute__((alias("__aeabi_memset")));

void __aeabi_memclr(void *dst, size_t n)
{
    memset(dst, 0, n);
}
void __aeabi_memclr4(void *dst, size_t n) __attribute__((alias("__aeabi_memclr")));
void __aeabi_memclr8(void *dst, size_t n) __attribute__((alias("__aeabi_memclr")));
#endif
