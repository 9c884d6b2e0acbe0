/* A small program shaped like the loops of real file utilities (cp -a,
 * cpio -p, a socket server's set-up), written here for the reach test.  It
 * uses the catalogue rows added for real programs: fcntl value commands,
 * futimens, fchmodat, fchownat, readlinkat, renameat2, linkat, symlinkat,
 * pipe2, socket, bind, listen, getsockname, connect, accept4, shutdown.
 *
 *   reach_loop FILE...   copies each FILE into out/ keeping mode and times,
 *                        then renames, links and reads back in out/, and
 *                        talks to itself over a pipe and a Unix socket.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int copy_one(int dir, const char *name)
{
    char buf[256];
    struct stat st;
    struct timespec times[2];
    ssize_t n;
    int in, out, flags;

    in = open(name, O_RDONLY);
    if (in < 0) {
        printf("%s: open: %s\n", name, strerror(errno));
        return 1;
    }
    if (fstat(in, &st) < 0) {
        close(in);
        return 1;
    }
    flags = fcntl(in, F_GETFD);
    fcntl(in, F_SETFD, FD_CLOEXEC);
    out = openat(dir, name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0) {
        close(in);
        printf("%s: create: %s\n", name, strerror(errno));
        return 1;
    }
    n = read(in, buf, sizeof buf);
    if (n > 0)
        write(out, buf, (size_t)n);
    /* Fixed times (a real cp -p would copy st's): the runs compared by the
     * test create their inputs afresh, so the originals' times differ. */
    times[0].tv_sec = 1000000000;
    times[0].tv_nsec = 0;
    times[1].tv_sec = 1234567890;
    times[1].tv_nsec = UTIME_OMIT;
    futimens(out, times);
    fchmodat(dir, name, st.st_mode & 0777, 0);
    fchownat(dir, name, st.st_uid, st.st_gid, AT_SYMLINK_NOFOLLOW);
    close(out);
    close(in);
    printf("%s: %zd bytes, fd flags %d\n", name, n, flags);
    return 0;
}

static void names(int dir)
{
    char target[64];
    ssize_t n;
    int r1, r2, r3, r4;

    r1 = renameat2(dir, "a", dir, "renamed", RENAME_NOREPLACE);
    r2 = renameat2(dir, "b", dir, "renamed", RENAME_NOREPLACE); /* EEXIST */
    r3 = linkat(dir, "renamed", dir, "hard", 0);
    r4 = symlinkat("renamed", dir, "soft");
    n = readlinkat(dir, "soft", target, sizeof target - 1);
    target[n > 0 ? n : 0] = '\0';
    printf("names: %d %d %d %d link=%s\n", r1, r2, r3, r4, target);
    unlinkat(dir, "hard", 0);
    unlinkat(dir, "soft", 0);
}

static void talk(void)
{
    struct sockaddr_un addr, bound;
    socklen_t len = sizeof bound;
    int p[2], srv, cli, conn, fl, now;
    char got[8] = "";

    if (pipe2(p, O_CLOEXEC) == 0) {
        fl = fcntl(p[1], F_GETFL);
        fcntl(p[1], F_SETFL, fl | O_NONBLOCK);
        write(p[1], "ping", 4);
        read(p[0], got, 4);
        now = fcntl(p[1], F_GETFL);
        close(p[0]);
        close(p[1]);
        printf("pipe: %s nonblock %d -> %d\n", got, (fl & O_NONBLOCK) != 0, (now & O_NONBLOCK) != 0);
    }
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    strcpy(addr.sun_path, "sock");
    srv = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (srv < 0)
        return;
    if (bind(srv, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(srv, 4) < 0) {
        printf("socket: %s\n", strerror(errno));
        close(srv);
        return;
    }
    getsockname(srv, (struct sockaddr *)&bound, &len);
    cli = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    connect(cli, (struct sockaddr *)&addr, sizeof addr);
    conn = accept4(srv, NULL, NULL, SOCK_CLOEXEC);
    write(cli, "hello", 5);
    memset(got, 0, sizeof got);
    read(conn, got, 5);
    shutdown(cli, SHUT_WR);
    close(conn);
    close(cli);
    close(srv);
    unlink("sock");
    printf("socket: %s bound=%s\n", got, bound.sun_path);
}

int main(int argc, char **argv)
{
    int dir, i, failed = 0;
    mkdir("out", 0755);
    dir = open("out", O_RDONLY | O_DIRECTORY);
    if (dir < 0)
        return 2;
    for (i = 1; i < argc; i++)
        failed += copy_one(dir, argv[i]);
    names(dir);
    close(dir);
    talk();
    return failed ? 1 : 0;
}
