/* overlap.h - collbench --overlap: how much of a nonblocking collective's
 * time hides behind computation (doc/collbench.md, doc/overlap.md).
 *
 * For each arm (vendor, auto, forced algorithms) and case, three times,
 * each the median over calls of the slowest rank, taken with collbench's
 * fences, checks and interleaved rounds (timing.h):
 *   t_pure  MPI_I<coll>, then MPI_Wait;
 *   t_cpu   a computation alone, calibrated for this case and arm to last
 *           about t_pure (all ranks computing at once, until the slowest
 *           is done);
 *   t_ovl   MPI_I<coll>, the same computation, MPI_Wait.
 * First every arm's t_pure is measured (its nonblocking call checked
 * against the vendor's blocking result and its forced algorithm seen to
 * run, as in collbench), then t_cpu and t_ovl of every arm in the same
 * shuffled rounds. The computation is fixed work, a number of units per
 * rank, not a deadline: CPU that the collective's progress takes from it
 * during t_ovl (a progress thread, MPI_Test calls) lengthens t_ovl and
 * counts against the overlap.
 *
 * overlap = max(0, min(100, 100 (1 - (t_ovl - t_cpu) / t_pure))) percent:
 * the part of the collective's own time that the computation hid, as the
 * OSU micro-benchmarks define it for osu_i<coll> (mpi/collective/
 * osu_coll.c, print_stats_nbc: 100 - (overall - compute) / pure_comm *
 * 100, floored at 0; there "compute" is the computation's time inside the
 * overlapped iteration, here the computation measured alone). */
#ifndef COLLBENCH_OVERLAP_H
#define COLLBENCH_OVERLAP_H

#include "bench/collops.h"
#include "bench/timing.h"

/* One timed call of an arm of form pure, cpu or overlap (timing.c calls it
 * for every form but FORM_BLOCKING). No MPI call inside the computation
 * unless arm->test_every > 0: then MPI_Test of the request between pieces
 * of that many units. */
int overlap_run(const struct collop *c, const struct bench_arm *arm);

struct overlap_result {
    struct arm_result pure, cpu, ovl; /* cpu, ovl: ARM_NA with a reason when pure failed */
    double overlap;                   /* percent, when all three are ARM_OK */
};

/* Measure every arm on case c (res: narms entries). test_us > 0: MPI_Test
 * every test_us microseconds of computation in t_ovl. Collective over
 * c->comm. Returns MPI_SUCCESS or the error of the vendor's reference call
 * or of the calibration. */
int overlap_measure(struct collop *c, const struct bench_arm *arms, int narms,
                    const struct bench_opts *o, double test_us, struct overlap_result *res);

/* The worst status of the three (the first that is not ARM_OK) and its
 * reason, for one row of output. */
const struct arm_result *overlap_status(const struct overlap_result *r);

#endif
