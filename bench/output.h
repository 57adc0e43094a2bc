/* output.h - collbench's results: the table on stdout and the CSV.
 *
 * Table, one block per (collective, communicator size), one row per size:
 *   size  bound  vendor (and its ratio to the bound)  the best native arm,
 *   its time and ratios to vendor and bound  auto (the algorithm it chose),
 *   its time and ratio to vendor; then a note naming arms not timed (N/A:
 *   restrictions forbid; FAILED: wrong result or error).
 * CSV, one row per (collective, np, size, arm) with every statistic; '#'
 * lines first (provenance and the machine model). Times in microseconds. */
#ifndef COLLBENCH_OUTPUT_H
#define COLLBENCH_OUTPUT_H

#include "bench/bound.h"
#include "bench/collops.h"
#include "bench/overlap.h"
#include "bench/timing.h"

#include <stdio.h>

/* Arms not timed in a block, collected for its closing note: per arm and
 * status (n/a, FAILED, slow), the sizes ("4k 8k") and the first reason. */
struct arm_notes {
    int count[4];
    char *sizes[4];
    char *why[4];
};
struct table_notes {
    int narms;
    struct arm_notes *arm;
};

void out_table_begin(FILE *f, const char *coll, int np, const struct bound_model *m,
                     struct table_notes *notes, int narms);
void out_table_row(FILE *f, const struct collop *c, const struct bench_arm *arms, int narms,
                   const struct arm_result *res, double bound, struct table_notes *notes);
void out_table_end(FILE *f, const struct bench_arm *arms, struct table_notes *notes);

void out_model(FILE *f, const struct bound_model *m);
/* "# fence: ..." : how the timed calls started (fence.h). */
void out_fence(FILE *f, enum fence_kind kind);
/* "# threads: ..." : the thread level asked of MPI_Init_thread and given. */
void out_threads(FILE *f, int wanted, int provided);
const char *out_thread_name(int level);
void out_csv_header(FILE *f);
void out_csv_rows(FILE *f, const struct collop *c, const struct bench_arm *arms, int narms,
                  const struct arm_result *res, double bound);

/* collbench --overlap (overlap.h): a block per (collective, communicator
 * size), a row per size and arm: what ran, t_pure, t_cpu, t_ovl, the
 * overlap and t_ovl over the vendor's t_ovl; or why the arm was not timed.
 * The CSV's first 12 columns are those of the blocking CSV. */
void out_overlap_begin(FILE *f, int coll, int np, double test_us);
void out_overlap_rows(FILE *f, const struct collop *c, const struct bench_arm *arms, int narms,
                      const struct overlap_result *res);
/* "# overlap: ..." : how the computation was run. */
void out_overlap_setup(FILE *f, double test_us);
void out_overlap_csv_header(FILE *f);
void out_overlap_csv_rows(FILE *f, const struct collop *c, const struct bench_arm *arms,
                          int narms, const struct overlap_result *res);

#endif
