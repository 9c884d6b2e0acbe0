/* See app_io.h. */
#include "app_io.h"

#include <stdarg.h>

#define DRV_DEBUG 0xd0

static struct {
    const void *ptr;
    const char *name;
} names[16];
static unsigned nnames;

static void emit(const char *s, unsigned len)
{
    syscall_return_t r = command(DRV_DEBUG, 1, (int)(uintptr_t)s, (int)len);
    (void)r;
}

void app_puts(const char *s)
{
    unsigned n = 0;
    while (s[n])
        n++;
    emit(s, n);
}

void app_name_ptr(const void *p, const char *name)
{
    if (nnames < sizeof names / sizeof names[0]) {
        names[nnames].ptr = p;
        names[nnames].name = name;
        nnames++;
    }
}

static const char *ptr_name(const void *p)
{
    if (!p)
        return "null";
    for (unsigned i = 0; i < nnames; i++)
        if (names[i].ptr == p)
            return names[i].name;
    return "unnamed";
}

static char line[160];
static unsigned pos;

static void put(char c)
{
    if (pos < sizeof line)
        line[pos++] = c;
}

static void put_str(const char *s)
{
    while (*s)
        put(*s++);
}

static void put_num(uint32_t v, unsigned base, int negative)
{
    char buf[12];
    int i = 0;
    if (negative)
        put('-');
    do {
        buf[i++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    while (i)
        put(buf[--i]);
}

void app_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pos = 0;
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            put(*fmt);
            continue;
        }
        switch (*++fmt) {
        case 'd': {
            int v = va_arg(ap, int);
            put_num(v < 0 ? 0u - (uint32_t)v : (uint32_t)v, 10, v < 0);
            break;
        }
        case 'u':
            put_num(va_arg(ap, unsigned), 10, 0);
            break;
        case 'x':
            put_num(va_arg(ap, unsigned), 16, 0);
            break;
        case 's':
            put_str(va_arg(ap, const char *));
            break;
        case 'p':
            put_str(ptr_name(va_arg(ap, const void *)));
            break;
        default:
            put('%');
            put(*fmt);
        }
    }
    va_end(ap);
    emit(line, pos);
}

void print_command(const char *what, syscall_return_t r)
{
    app_printf("%s: command type=%u data=%x,%x,%x\n", what, (unsigned)r.type, r.data[0],
               r.data[1], r.data[2]);
}

void print_subscribe(const char *what, subscribe_return_t r)
{
    app_printf("%s: subscribe success=%u callback=%p userdata=%x status=%u\n", what,
               (unsigned)r.success, (const void *)r.callback, (unsigned)(uintptr_t)r.userdata,
               (unsigned)r.status);
}

void print_allow_rw(const char *what, allow_rw_return_t r)
{
    app_printf("%s: allow-rw success=%u ptr=%p size=%u status=%u\n", what, (unsigned)r.success,
               r.ptr, (unsigned)r.size, (unsigned)r.status);
}

void print_allow_ro(const char *what, allow_ro_return_t r)
{
    app_printf("%s: allow-ro success=%u ptr=%p size=%u status=%u\n", what, (unsigned)r.success,
               r.ptr, (unsigned)r.size, (unsigned)r.status);
}

void print_allow_ur(const char *what, allow_userspace_r_return_t r)
{
    app_printf("%s: allow-ur success=%u ptr=%p size=%u status=%u\n", what, (unsigned)r.success,
               r.ptr, (unsigned)r.size, (unsigned)r.status);
}

void print_memop(const char *what, memop_return_t r)
{
    app_printf("%s: memop status=%u data=%x\n", what, (unsigned)r.status, r.data);
}
