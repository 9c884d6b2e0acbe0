/* For bench/reach/callsites.py's test: known system calls at known lines,
 * one through a function of the program, one straight from main. */
#include <unistd.h>

__attribute__((noinline)) static long ask_parent(void)
{
    return getppid(); /* CALLSITE-ASK */
}

int main(void)
{
    long sum = 0;
    for (int i = 0; i < 7; i++) {
        sum += ask_parent();
    }
    sum += getpgrp(); /* CALLSITE-MAIN */
    return sum == 0;
}
