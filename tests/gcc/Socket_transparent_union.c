/* With _GNU_SOURCE glibc declares the sockaddr parameters of bind,
 * getsockname, accept4, getpeername (and connect, accept) as transparent
 * unions (__SOCKADDR_ARG); GIMPLE passes a union temporary filled just
 * before the call.  The plugin passes the pointer stored in it instead
 * (gcc-plugin/transparent-union.cc, the same call: a transparent union is
 * passed as its first member), so these calls batch as clang's do.  The
 * programs' behaviour is compared plugged and unplugged in
 * tests/e2e/Reach_small_loop.test (Inputs/reach_loop.c).
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * CHECK-NOT: neither an integer nor a pointer
 * CHECK: Socket_transparent_union.c:[[@LINE+13]]:{{[0-9]+}}: optimized: sysbatch: batched 4 calls (socket, bind, listen, getsockname) into 7 slots with 3 chains
 * CHECK: Socket_transparent_union.c:[[@LINE+21]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (accept4, getpeername) into 3 slots with 1 chains
 * CHECK-NOT: neither an integer nor a pointer
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int serve(const struct sockaddr_un *addr, struct sockaddr_un *bound)
{
    socklen_t len = sizeof *bound;
    int srv = socket(AF_UNIX, SOCK_STREAM, 0);
    bind(srv, (const struct sockaddr *)addr, sizeof *addr);
    listen(srv, 4);
    getsockname(srv, (struct sockaddr *)bound, &len);
    return srv;
}

int take(int srv, struct sockaddr *peer, socklen_t *len)
{
    int conn = accept4(srv, peer, len, SOCK_CLOEXEC);
    getpeername(conn, peer, len);
    return conn;
}
