/* Wrappers in a unit of their own (the LTO tests' other half: lto_main.c
 * calls them): xopen dies on failure, xclose passes close's result on. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int xopen(const char *name, int flags)
{
    int fd = open(name, flags);
    if (fd < 0) {
        perror(name);
        exit(2);
    }
    return fd;
}
int xclose(int fd)
{
    return close(fd);
}
