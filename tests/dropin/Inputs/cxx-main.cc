// C++ caller of util.c's file_size, compiled as C++ (sysbatch-c++ test).
#include <cstdio>
#include "util.h"

int main(int argc, char **argv)
{
    char buf[8];
    std::printf("%ld\n", file_size(argc > 1 ? argv[1] : "/dev/null", buf, sizeof buf));
    return 0;
}
