/* collectives.h - the 17 collectives of the standard, once: their
 * parameters, how a call fills a struct coll_args, and how a struct
 * coll_args calls the MPI library back. entry_points.c makes the entry
 * points of each from this list, vendor.c the vendor's calls, so no
 * argument list is written twice.
 *
 *   X(F, Name, name, (parameters), (coll_args initialiser), (vendor arguments))
 *
 * F is the form of the counts, one of SHIM_FORMS: CLASSIC (int counts and
 * displacements: MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init) or
 * LARGE (MPI-4's large-count forms, MPI_Allreduce_c, MPI_Iallreduce_c,
 * MPI_Allreduce_init_c: MPI_Count counts, MPI_Aint displacements), which
 * only exist where the MPI library exports them (configure's
 * HAVE_MPI_ALLREDUCE_C: MPICH 4; not Open MPI 4.1 nor SimGrid 3.32). A form
 * is a column: every use of the list is made for each form, and the
 * parameters name their count types through it. Barrier has no count and
 * no large-count form.
 *
 * The vendor arguments read a `const struct coll_args *a` and the user's
 * communicator `c`. */
#ifndef COLLSHIM_COLLECTIVES_H
#define COLLSHIM_COLLECTIVES_H

#include "config.h"

#define SHIM_UNPAREN(...) __VA_ARGS__

/* The forms, their count and displacement types, the suffix of their
 * names, whether a call in that form is large_count (coll_args), and
 * whether the form has the row of a collective without counts (barrier:
 * SHIM_UNCOUNTED_). */
#define SHIM_COUNT_CLASSIC int
#define SHIM_DISPL_CLASSIC int
#define SHIM_SUFFIX_CLASSIC
#define SHIM_SUFFIX_TEXT_CLASSIC ""
#define SHIM_LARGE_CLASSIC 0
#define SHIM_UNCOUNTED_CLASSIC(row) row

#define SHIM_COUNT_LARGE MPI_Count
#define SHIM_DISPL_LARGE MPI_Aint
#define SHIM_SUFFIX_LARGE _c
#define SHIM_SUFFIX_TEXT_LARGE "_c"
#define SHIM_LARGE_LARGE 1
#define SHIM_UNCOUNTED_LARGE(row)

#ifdef HAVE_MPI_ALLREDUCE_C
#define SHIM_FORMS(Y) Y(CLASSIC) Y(LARGE)
#else
#define SHIM_FORMS(Y) Y(CLASSIC)
#endif

/* name with the suffix of form F: SHIM_NAME(PMPI_Bcast, LARGE) is
 * PMPI_Bcast_c (name is expanded first: SHIM_NAME(SHIM_PERSISTENT(Bcast),
 * LARGE) is MPI_Bcast_init_c). */
#define SHIM_PASTE(a, b) a##b
#define SHIM_PASTE_EXPANDED(a, b) SHIM_PASTE(a, b)
#define SHIM_NAME(name, F) SHIM_PASTE_EXPANDED(name, SHIM_SUFFIX_##F)

#define SHIM_COLLECTIVE_LIST(X, F)                                                              \
    SHIM_UNCOUNTED_##F(X(F, Barrier, barrier, (MPI_Comm comm), (.coll = COLL_barrier), (c)))    \
    X(F, Bcast, bcast,                                                                          \
      (void *buffer, SHIM_COUNT_##F count, MPI_Datatype datatype, int root, MPI_Comm comm),     \
      (.coll = COLL_bcast, .sendbuf = buffer, .recvbuf = buffer, .count = count,                \
       .datatype = datatype, .root = root),                                                     \
      (a->recvbuf, a->count, a->datatype, a->root, c))                                          \
    X(F, Gather, gather,                                                                        \
      (const void *sendbuf, SHIM_COUNT_##F sendcount, MPI_Datatype sendtype, void *recvbuf,     \
       SHIM_COUNT_##F recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),               \
      (.coll = COLL_gather, .sendbuf = sendbuf, .sendcount = sendcount,                         \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,                        \
       .recvtype = recvtype, .root = root),                                                     \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype,            \
       a->root, c))                                                                             \
    X(F, Gatherv, gatherv,                                                                      \
      (const void *sendbuf, SHIM_COUNT_##F sendcount, MPI_Datatype sendtype, void *recvbuf,     \
       const SHIM_COUNT_##F recvcounts[], const SHIM_DISPL_##F displs[],                        \
       MPI_Datatype recvtype, int root, MPI_Comm comm),                                         \
      (.coll = COLL_gatherv, .sendbuf = sendbuf, .sendcount = sendcount,                        \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = COLL_ARRAY(recvcounts),          \
       .rdispls = COLL_ARRAY(displs), .recvtype = recvtype, .root = root),                      \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts.base, a->rdispls.base,  \
       a->recvtype, a->root, c))                                                                \
    X(F, Scatter, scatter,                                                                      \
      (const void *sendbuf, SHIM_COUNT_##F sendcount, MPI_Datatype sendtype, void *recvbuf,     \
       SHIM_COUNT_##F recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),               \
      (.coll = COLL_scatter, .sendbuf = sendbuf, .sendcount = sendcount,                        \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,                        \
       .recvtype = recvtype, .root = root),                                                     \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype,            \
       a->root, c))                                                                             \
    X(F, Scatterv, scatterv,                                                                    \
      (const void *sendbuf, const SHIM_COUNT_##F sendcounts[], const SHIM_DISPL_##F displs[],   \
       MPI_Datatype sendtype, void *recvbuf, SHIM_COUNT_##F recvcount, MPI_Datatype recvtype,   \
       int root, MPI_Comm comm),                                                                \
      (.coll = COLL_scatterv, .sendbuf = sendbuf, .sendcounts = COLL_ARRAY(sendcounts),         \
       .sdispls = COLL_ARRAY(displs), .sendtype = sendtype, .recvbuf = recvbuf,                 \
       .recvcount = recvcount, .recvtype = recvtype, .root = root),                             \
      (a->sendbuf, a->sendcounts.base, a->sdispls.base, a->sendtype, a->recvbuf, a->recvcount,  \
       a->recvtype, a->root, c))                                                                \
    X(F, Allgather, allgather,                                                                  \
      (const void *sendbuf, SHIM_COUNT_##F sendcount, MPI_Datatype sendtype, void *recvbuf,     \
       SHIM_COUNT_##F recvcount, MPI_Datatype recvtype, MPI_Comm comm),                         \
      (.coll = COLL_allgather, .sendbuf = sendbuf, .sendcount = sendcount,                      \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,                        \
       .recvtype = recvtype),                                                                   \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, c))        \
    X(F, Allgatherv, allgatherv,                                                                \
      (const void *sendbuf, SHIM_COUNT_##F sendcount, MPI_Datatype sendtype, void *recvbuf,     \
       const SHIM_COUNT_##F recvcounts[], const SHIM_DISPL_##F displs[], MPI_Datatype recvtype, \
       MPI_Comm comm),                                                                          \
      (.coll = COLL_allgatherv, .sendbuf = sendbuf, .sendcount = sendcount,                     \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = COLL_ARRAY(recvcounts),          \
       .rdispls = COLL_ARRAY(displs), .recvtype = recvtype),                                    \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts.base, a->rdispls.base,  \
       a->recvtype, c))                                                                         \
    X(F, Alltoall, alltoall,                                                                    \
      (const void *sendbuf, SHIM_COUNT_##F sendcount, MPI_Datatype sendtype, void *recvbuf,     \
       SHIM_COUNT_##F recvcount, MPI_Datatype recvtype, MPI_Comm comm),                         \
      (.coll = COLL_alltoall, .sendbuf = sendbuf, .sendcount = sendcount,                       \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,                        \
       .recvtype = recvtype),                                                                   \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, c))        \
    X(F, Alltoallv, alltoallv,                                                                  \
      (const void *sendbuf, const SHIM_COUNT_##F sendcounts[], const SHIM_DISPL_##F sdispls[],  \
       MPI_Datatype sendtype, void *recvbuf, const SHIM_COUNT_##F recvcounts[],                 \
       const SHIM_DISPL_##F rdispls[], MPI_Datatype recvtype, MPI_Comm comm),                   \
      (.coll = COLL_alltoallv, .sendbuf = sendbuf, .sendcounts = COLL_ARRAY(sendcounts),        \
       .sdispls = COLL_ARRAY(sdispls), .sendtype = sendtype, .recvbuf = recvbuf,                \
       .recvcounts = COLL_ARRAY(recvcounts), .rdispls = COLL_ARRAY(rdispls),                    \
       .recvtype = recvtype),                                                                   \
      (a->sendbuf, a->sendcounts.base, a->sdispls.base, a->sendtype, a->recvbuf,                \
       a->recvcounts.base, a->rdispls.base, a->recvtype, c))                                    \
    X(F, Alltoallw, alltoallw,                                                                  \
      (const void *sendbuf, const SHIM_COUNT_##F sendcounts[], const SHIM_DISPL_##F sdispls[],  \
       const MPI_Datatype sendtypes[], void *recvbuf, const SHIM_COUNT_##F recvcounts[],        \
       const SHIM_DISPL_##F rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),          \
      (.coll = COLL_alltoallw, .sendbuf = sendbuf, .sendcounts = COLL_ARRAY(sendcounts),        \
       .sdispls = COLL_ARRAY(sdispls), .sendtypes = sendtypes, .recvbuf = recvbuf,              \
       .recvcounts = COLL_ARRAY(recvcounts), .rdispls = COLL_ARRAY(rdispls),                    \
       .recvtypes = recvtypes),                                                                 \
      (a->sendbuf, a->sendcounts.base, a->sdispls.base, a->sendtypes, a->recvbuf,               \
       a->recvcounts.base, a->rdispls.base, a->recvtypes, c))                                   \
    X(F, Reduce, reduce,                                                                        \
      (const void *sendbuf, void *recvbuf, SHIM_COUNT_##F count, MPI_Datatype datatype, MPI_Op op, \
       int root, MPI_Comm comm),                                                                \
      (.coll = COLL_reduce, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count,             \
       .datatype = datatype, .op = op, .root = root),                                           \
      (a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->root, c))                       \
    X(F, Allreduce, allreduce,                                                                  \
      (const void *sendbuf, void *recvbuf, SHIM_COUNT_##F count, MPI_Datatype datatype, MPI_Op op, \
       MPI_Comm comm),                                                                          \
      (.coll = COLL_allreduce, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count,          \
       .datatype = datatype, .op = op),                                                         \
      (a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, c))                                \
    X(F, Reduce_scatter, reduce_scatter,                                                        \
      (const void *sendbuf, void *recvbuf, const SHIM_COUNT_##F recvcounts[],                   \
       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),                                        \
      (.coll = COLL_reduce_scatter, .sendbuf = sendbuf, .recvbuf = recvbuf,                     \
       .recvcounts = COLL_ARRAY(recvcounts), .datatype = datatype, .op = op),                   \
      (a->sendbuf, a->recvbuf, a->recvcounts.base, a->datatype, a->op, c))                      \
    X(F, Reduce_scatter_block, reduce_scatter_block,                                            \
      (const void *sendbuf, void *recvbuf, SHIM_COUNT_##F recvcount, MPI_Datatype datatype,     \
       MPI_Op op, MPI_Comm comm),                                                               \
      (.coll = COLL_reduce_scatter_block, .sendbuf = sendbuf, .recvbuf = recvbuf,               \
       .recvcount = recvcount, .datatype = datatype, .op = op),                                 \
      (a->sendbuf, a->recvbuf, a->recvcount, a->datatype, a->op, c))                            \
    X(F, Scan, scan,                                                                            \
      (const void *sendbuf, void *recvbuf, SHIM_COUNT_##F count, MPI_Datatype datatype, MPI_Op op, \
       MPI_Comm comm),                                                                          \
      (.coll = COLL_scan, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count,               \
       .datatype = datatype, .op = op),                                                         \
      (a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, c))                                \
    X(F, Exscan, exscan,                                                                        \
      (const void *sendbuf, void *recvbuf, SHIM_COUNT_##F count, MPI_Datatype datatype, MPI_Op op, \
       MPI_Comm comm),                                                                          \
      (.coll = COLL_exscan, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count,             \
       .datatype = datatype, .op = op),                                                         \
      (a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, c))

/* The persistent forms: MPI-4's MPI_X_init (MPICH 4), Open MPI 4's
 * MPIX_X_init extension (same arguments). */
#if defined(OPEN_MPI) && OPEN_MPI
#define SHIM_PERSISTENT(Name) MPIX_##Name##_init
#define SHIM_PPERSISTENT(Name) PMPIX_##Name##_init
#define SHIM_PERSISTENT_PREFIX "PMPIX_"
#else
#define SHIM_PERSISTENT(Name) MPI_##Name##_init
#define SHIM_PPERSISTENT(Name) PMPI_##Name##_init
#define SHIM_PERSISTENT_PREFIX "PMPI_"
#endif

#endif
