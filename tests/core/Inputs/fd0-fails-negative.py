"""For every catalogue row flagged fd0-fails-negative (read from
`sysbatch-plan --catalog` on stdin), make its raw system call with a
negative fd as argument 0 and every other argument 0, and print one line:
`ROW NR FD: fails ERRNO` or `ROW NR FD: succeeded` (the flag would then be
wrong: the planner relies on such a call failing on every negative fd)."""
import ctypes
import errno
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
rows = 0
for line in sys.stdin:
    fields = dict(f.split("=", 1) for f in line.split()[2:] if "=" in f)
    if not line.startswith("row ") or "fd0-fails-negative" not in fields.get("flags", ""):
        continue
    rows += 1
    name, nr = line.split()[1], int(fields["nr"])
    for fd in (-1, -100, -2147483648):
        ctypes.set_errno(0)
        # glibc passes an int fd sign-extended; the kernel reads the low 32
        # bits as unsigned int.
        rc = libc.syscall(ctypes.c_long(nr), ctypes.c_long(fd), ctypes.c_long(0),
                          ctypes.c_long(0), ctypes.c_long(0), ctypes.c_long(0),
                          ctypes.c_long(0))
        err = ctypes.get_errno()
        print(f"{name} {nr} {fd}: " +
              (f"fails {errno.errorcode.get(err, err)}" if rc == -1 else "succeeded"))
print(f"rows {rows}")
