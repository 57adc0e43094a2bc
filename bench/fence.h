/* fence.h - where a timed collective call starts (timing.c).
 *
 * barrier  every rank leaves the vendor's barrier and starts its clock.
 *          Ranks leave a barrier at different times, up to a network
 *          latency apart in a pattern set by the barrier's algorithm, so
 *          a collective whose early sender leaves first is measured short:
 *          Open MPI's bcast at 4 ranks on the virtual cluster "took" 7 to
 *          30 us across 50 us links, and its median swung from 26 to
 *          170 us between measurements of the same case.
 * window   every rank starts at one instant of a common clock, and a
 *          call's time runs from that instant to the last rank's return
 *          (Hoefler, Schneider, Lumsdaine, "Accurately measuring collective
 *          operations at massive scale", IPDPS 2008; Hunold, Carpen-Amarie,
 *          "Reproducible MPI benchmarking is still not as easy as you
 *          think", IEEE TPDS 2016). Each rank's clock offset to rank 0's is
 *          taken from the fastest of several ping-pongs with it (Cristian's
 *          method), afresh for every case so that drift between nodes
 *          does not add up. Before each call the ranks agree on the
 *          latest moment one of them became ready (an MPI_MAX allreduce
 *          of the ready times on rank 0's clock: once every rank has
 *          returned from the previous call, its traffic is all delivered)
 *          and start a lead after it: twice the slowest that agreement
 *          was measured to take, plus 20 us. Every rank waits for the
 *          start yielding the processor, so ranks that share a core are
 *          not starved (SCHED_FIFO on the virtual cluster). A rank that
 *          learnt the start too late flags the call, which is not
 *          counted; when that happens in the warm-up the lead doubles.
 *
 * window is the default; barrier is kept for comparison with barrier-
 * fenced benchmarks (OSU, IMB). */
#ifndef COLLBENCH_FENCE_H
#define COLLBENCH_FENCE_H

#include <mpi.h>

enum fence_kind { FENCE_WINDOW, FENCE_BARRIER };

struct fence {
    enum fence_kind kind;
    double offset; /* this rank's clock (MPI_Wtime) minus rank 0's, seconds */
    double lead;   /* seconds between rank 0's announcement and the start */
};

/* "window" or "barrier"; -1 for anything else. */
int fence_parse(const char *name);
const char *fence_name(enum fence_kind kind);

/* Measure this rank's clock offset and the lead on comm. Collective. */
int fence_setup(struct fence *f, enum fence_kind kind, MPI_Comm comm);

/* Wait for the next start; returns it in this rank's MPI_Wtime, with
 * *late = 1 if the announcement came after it. Collective. */
double fence_start(const struct fence *f, MPI_Comm comm, int *late);

/* After a late start: twice the lead. */
void fence_widen(struct fence *f);

#endif
