/* A batch is one pthread cancellation point: with a deferred cancellation
 * pending, a batch without cancellation-point calls (getpid, lseek) runs and
 * returns, and a batch containing one (write) acts on the cancellation
 * before its first slot, so nothing in it runs.  Without a pending request
 * (or with cancellation disabled) the same batch runs normally. */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <pthread.h>

static struct sbt_trace t;
static volatile int reached_after_plain, reached_after_cancel_point;

static void *victim(void *arg)
{
    struct sysbatch_slot s[2];
    long rets[2];
    (void)arg;
    pthread_cancel(pthread_self()); /* deferred: pending until a cancellation point */

    s[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    s[1] = sbt_slot(SYS_lseek, 3, t.rd, 0, SEEK_CUR, 0, 0, 0);
    if (sysbatch_run(rets, s, 2, 0) == 1 && rets[0] == getpid()) {
        reached_after_plain = 1;
    }
    s[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    s[1] = sbt_mark(t, "X", 1);
    sysbatch_run(rets, s, 2, 0); /* cancelled here, before slot 0 */
    reached_after_cancel_point = 1;
    return NULL;
}

static void *disabled(void *arg)
{
    struct sysbatch_slot s[1];
    long rets[1];
    int old;
    (void)arg;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    pthread_cancel(pthread_self());
    s[0] = sbt_mark(t, "D", 1);
    return (void *)(sysbatch_run(rets, s, 1, 0) == 0 && rets[0] == 1 ? (long)1 : (long)0);
}

int main(void)
{
    pthread_t th;
    void *ret = NULL;
    struct sysbatch_slot s[1];
    long rets[1];

    sbt_begin("cancel");
    t = sbt_trace_open();
    if (pthread_create(&th, NULL, victim, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    pthread_join(th, &ret);
    SBT_TRUE("victim was cancelled", ret == PTHREAD_CANCELED);
    SBT_EQ("batch without cancellation points ran and returned", reached_after_plain, 1);
    SBT_EQ("returned from the batch with a cancellation point", reached_after_cancel_point, 0);
    SBT_STREQ("slots of the cancelled batch that ran", sbt_trace_read(t), "");

    if (pthread_create(&th, NULL, disabled, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    pthread_join(th, &ret);
    SBT_TRUE("cancellation disabled: batch ran", ret == (void *)1L);
    SBT_STREQ("cancellation disabled: trace", sbt_trace_read(t), "D");

    /* No request pending: the same kind of batch just runs. */
    s[0] = sbt_mark(t, "M", 1);
    SBT_EQ("no request: last", sysbatch_run(rets, s, 1, 0), 0);
    SBT_STREQ("no request: trace", sbt_trace_read(t), "M");
    return sbt_end();
}
