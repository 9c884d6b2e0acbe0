#include "util.h"
#include <stdio.h>

int main(int argc, char **argv)
{
    char buf[16];
    for (int i = 1; i < argc; i++) {
        long size = file_size(argv[i], buf, sizeof buf);
        if (size < 0) {
            perror(argv[i]);
            return 1;
        }
        printf("%s: %ld bytes, starts with '%c'\n", argv[i], size, buf[0]);
    }
    return 0;
}
