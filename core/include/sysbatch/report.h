/* sysbatch/report.h: the build-wide report's record of one translation unit.
 *
 * With report=DIR (core/config.c) each plugin collects, for the unit it
 * compiles, every batch it made and every candidate call it refused, and
 * at the end of the unit writes one file DIR/<source>.<hash>.sbrec
 * (atomically: a temporary file renamed into place, so parallel compiles
 * and a reader never see half a record).  `sysbatch-report DIR` reads all
 * of them.  Both plugins call this same code, so the records have one
 * format:
 *
 *     sysbatch-record 1
 *     unit <TAB> <source> <TAB> <compiler>
 *     batch <TAB> <file> <TAB> <line> <TAB> <function> <TAB> <calls> <TAB> <slots> <TAB> <callees>
 *     refused <TAB> <file> <TAB> <line> <TAB> <function> <TAB> <callee> <TAB> <reason>
 *     loop <TAB> <file> <TAB> <line> <TAB> <function> <TAB> <callee> <TAB> <iterations>
 *
 * Fields never hold a tab or newline (they are replaced by spaces); a file
 * without line information has line 0.  A batch's calls are sites that
 * were batched; a loop line is one call site batched by loop batching
 * (sysbatch/loop.h), the calls of up to <iterations> iterations per batch;
 * refused lines are sites that were not: sites seen = sum of calls + loop
 * lines + refused lines.  (A loop site that loop batching refuses is left
 * to the straight-line planner, which records it.)
 */
#ifndef SYSBATCH_REPORT_H
#define SYSBATCH_REPORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sb_report;

/* A record for the unit compiled from `source` by `compiler` ("gcc 12",
 * "clang 16"), to be written into `dir`.  NULL only when out of memory. */
struct sb_report *sb_report_begin(const char *dir, const char *source,
                                  const char *compiler);

void sb_report_batch(struct sb_report *r, const char *file, unsigned line,
                     const char *function, int ncalls, int nslots,
                     const char *callees);

void sb_report_loop(struct sb_report *r, const char *file, unsigned line,
                    const char *function, const char *callee, int iterations);

void sb_report_refused(struct sb_report *r, const char *file, unsigned line,
                       const char *function, const char *callee,
                       const char *reason);

/* Writes the record and frees r.  Returns 0, or -1 with a one-line message
 * in err ("sysbatch: report: ..."); the build then fails with it rather
 * than leave a report that silently misses units. */
int sb_report_end(struct sb_report *r, char *err, size_t errlen);

/* Frees r without writing (a unit whose compile failed). */
void sb_report_discard(struct sb_report *r);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_REPORT_H */
