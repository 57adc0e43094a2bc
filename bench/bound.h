/* bound.h - the alpha-beta-gamma model of the machine the benchmark runs
 * on, measured at start, and the lower bound of each collective in it.
 *
 *   alpha  seconds per message: 8 bytes between ranks 0 and 1, the median
 *          of the faster of an exchange (MPI_Sendrecv both ways at once) and
 *          half a ping-pong round trip
 *   beta   seconds per byte on a link: slope of that time between 64 KiB
 *          and 1 MiB, so eager/rendezvous switches do not count
 *   gamma  seconds per byte of a local reduction (MPI_Reduce_local, MPI_SUM)
 *
 * Lower bounds, with p ranks, n = bytes of the full vector (collops.h,
 * full_bytes), L = ceil(lg p), one-port full-duplex links; after Chan,
 * Heimlich, Purkayastha and van de Geijn 2007 (Table 1) and Thakur,
 * Rabenseifner and Gropp 2005:
 *   barrier                         L alpha
 *   bcast                           L alpha + n beta
 *   reduce                          L alpha + n beta + (p-1)/p n gamma
 *   allreduce                       L alpha + 2 (p-1)/p n beta + (p-1)/p n gamma
 *   reduce_scatter(_block)          L alpha + (p-1)/p n beta + (p-1)/p n gamma
 *   gather(v), scatter(v),
 *   allgather(v)                    L alpha + (p-1)/p n beta
 *   alltoall(v,w)                   L alpha + (p-1)/p n beta  (n = what one
 *                                   rank sends in all)
 *   scan, exscan                    L alpha + n beta + (p-1)/p n gamma
 * The bound is 0 for p = 1. It is a bound, not a prediction: shared memory
 * on one machine can copy faster than two ranks' transfers suggest, so ratios a
 * little below 1 are possible there. */
#ifndef COLLBENCH_BOUND_H
#define COLLBENCH_BOUND_H

#include <mpi.h>

struct bound_model {
    double alpha, beta, gamma; /* s, s/byte, s/byte */
};

/* Measure the model on comm: transfers between ranks 0 and 1 (the other
 * ranks wait asleep) and a local reduction of `type` at rank 0; the result
 * is the same on every rank. Collective over comm. */
int bound_measure(MPI_Comm comm, MPI_Datatype type, struct bound_model *m);

/* Lower bound in seconds of collective `coll` (collops.h index) on p ranks
 * for a full vector of n bytes. */
double bound_time(int coll, int p, double n, const struct bound_model *m);

/* The formula of bound_time for coll, as text. */
const char *bound_formula(int coll);

#endif
