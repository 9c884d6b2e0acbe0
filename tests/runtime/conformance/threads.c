/* Batches from several threads at once: each thread sees its own results
 * (gettid inside the batch equals the thread's id) and the statistics add
 * up exactly (the counters are atomic). */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <pthread.h>

#define THREADS 4
#define ROUNDS 300

static int thread_errors[THREADS];

static void *worker(void *arg)
{
    int id = (int)(long)arg, round;
    long tid = syscall(SYS_gettid);
    for (round = 0; round < ROUNDS; round++) {
        long rets[4], v = round, out = -1;
        struct sysbatch_slot s[4];
        s[0] = sbt_slot(SYS_gettid, 0, 0, 0, 0, 0, 0, 0);
        s[1] = sbt_copy(&out, &v);
        s[2] = sbt_jumps(sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0), 0, 0, 1); /* skips 3 */
        s[3] = sbt_slot(SYS_getppid, 0, 0, 0, 0, 0, 0, 0);
        if (sysbatch_run(rets, s, 4, 0) != 2 || rets[0] != tid || out != round ||
            rets[2] != getpid()) {
            thread_errors[id]++;
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t th[THREADS];
    struct sysbatch_stats a, b;
    enum sysbatch_path p;
    long k;

    sbt_begin("threads");
    p = sysbatch_path();
    sysbatch_get_stats(&a);
    for (k = 0; k < THREADS; k++) {
        if (pthread_create(&th[k], NULL, worker, (void *)k) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (k = 0; k < THREADS; k++) {
        pthread_join(th[k], NULL);
    }
    sysbatch_get_stats(&b);
    for (k = 0; k < THREADS; k++) {
        SBT_EQ("wrong results in a thread", thread_errors[k], 0);
    }
    SBT_EQ("batches", b.batches[p] - a.batches[p], THREADS * ROUNDS);
    SBT_EQ("slots executed", b.slots[p] - a.slots[p], THREADS * ROUNDS * 3);
    return sbt_end();
}
