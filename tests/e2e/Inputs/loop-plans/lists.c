/* Linked-list walks (issue #12, rule 10 of sysbatch/loop.h): loops whose
 * induction is a pointer chase, `for (p = head; p; p = p->next)`.  The
 * inspector follows the list from the node at hand, one link per later
 * iteration, loading node t's link once slot t is filled: the load the
 * original makes on the way round.  Refused when a result may end the
 * group (the original might never go past node t) and when a test after
 * the call may leave before the link is loaded.
 * tests/{llvm,gcc}/Loop_lists.test check the PLAN lines with both
 * compilers at -O0 and -O2; tests/e2e/Inputs/loops/lists.c runs these
 * functions.  The remark checks name lines of this file: keep them in
 * step. */
#include <sys/stat.h>
#include <unistd.h>

struct node {
    int fd;
    int last;
    struct node *next;
};

struct entry {
    const char *name;
    struct entry *next;
    int rc;
    struct stat st;
};

// PLAN-DAG: function close_all loop 0: | loop call close: 16 iterations per batch | slot: close(a0) | chase: later iterations' nodes followed from the one at hand
void close_all(struct node *head)
{
    for (struct node *p = head; p; p = p->next)
        close(p->fd);
}

// The store of each result and stat's buffer may meet a later node's
// link, name pointer or name as far as the compilers can tell: rule 7's
// check, with the links among its reads from the first iteration on.
// PLAN-DAG: function stat_all loop 0: | loop call stat: 16 iterations per batch | slot: newfstatat(-100, a0, a1, 0) | run-time check: the group's writes miss what it reads ahead | measured a0: later iterations' names count as 4096 bytes in the check | chase: later iterations' nodes followed from the one at hand
void stat_all(struct entry *head)
{
    struct entry *p;
    for (p = head; p; p = p->next)
        p->rc = stat(p->name, &p->st);
}

// PLAN-DAG: function close_open loop 0: | loop call close: 16 iterations per batch | slot: close(a0) | guard repeated: up to 64 iterations looked at per batch | chase: later iterations' nodes followed from the one at hand
void close_open(struct node *head)
{
    for (struct node *p = head; p; p = p->next)
        if (p->fd >= 0)
            close(p->fd);
}

void report(const char *name);

// report may write anything, the list included (relink, free): the node
// a later iteration reaches is not known before it runs.  Left out as a
// write only failures reach (rule 9), the loop would still be refused: a
// failure ends the group there (report may exit), and the inspector would
// follow links of nodes the original might never go past.  The remark
// names the first reason, what the loop's code does.
// PLAN-DAG: function unlink_all loop 0: | loop call unlink: refused: loop-arg-unrepeatable: {{.*}}: the node of the list the loop walks (p = p->next): {{.*}}report{{.*}}
void unlink_all(struct entry *head)
{
    for (struct entry *p = head; p; p = p->next)
        if (unlink(p->name) != 0)
            report(p->name);
}

// A failure that only counts goes on to the next node: no class stops.
// PLAN-DAG: function unlink_counting loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0) | chase: later iterations' nodes followed from the one at hand
int unlink_counting(struct entry *head)
{
    int failed = 0;
    for (struct entry *p = head; p; p = p->next)
        if (unlink(p->name) != 0)
            failed++;
    return failed;
}

// PLAN-DAG: function close_until_failure loop 0: | loop call close: refused: loop-speculative-load: {{.*}}: the loop walks a list (p = p->next) and a result may end the group{{.*}}
int close_until_failure(struct node *head)
{
    int n = 0;
    for (struct node *p = head; p; p = p->next) {
        if (close(p->fd) != 0)
            break;
        n++;
    }
    return n;
}

// The test of p->last comes after the call and before p->next is loaded:
// a node's link would be read ahead of the test that ends the walk there.
// PLAN-DAG: function close_to_last loop 0: | loop call close: refused: loop-speculative-load: {{.*}}: a test after the call may leave the loop before the next node's address (p->next) is loaded
void close_to_last(struct node *head)
{
    for (struct node *p = head; p; p = p->next) {
        close(p->fd);
        if (p->last)
            break;
    }
}
