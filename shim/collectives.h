/* collectives.h - the 17 collectives of the standard, once: their
 * parameters, how a call fills a struct coll_args, and how a struct
 * coll_args calls the MPI library back. entry_points.c makes the blocking,
 * nonblocking and persistent entry points of each from this list, vendor.c
 * the vendor's three forms, so no argument list is written twice.
 *
 *   X(Name, name, (parameters), (coll_args initialiser), (vendor arguments))
 *
 * The vendor arguments read a `const struct coll_args *a` and the user's
 * communicator `c`. */
#ifndef COLLSHIM_COLLECTIVES_H
#define COLLSHIM_COLLECTIVES_H

#define SHIM_UNPAREN(...) __VA_ARGS__

#define SHIM_COLLECTIVE_LIST(X)                                                          \
    X(Barrier, barrier, (MPI_Comm comm), (.coll = COLL_barrier), (c))                   \
    X(Bcast, bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm), \
      (.coll = COLL_bcast, .sendbuf = buffer, .recvbuf = buffer, .count = count,         \
       .datatype = datatype, .root = root),                                              \
      (a->recvbuf, a->count, a->datatype, a->root, c))                                   \
    X(Gather, gather,                                                                    \
      (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,         \
       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),                   \
      (.coll = COLL_gather, .sendbuf = sendbuf, .sendcount = sendcount,                  \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,                 \
       .recvtype = recvtype, .root = root),                                              \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype,     \
       a->root, c))                                                                      \
    X(Gatherv, gatherv,                                                                  \
      (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,         \
       const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,      \
       MPI_Comm comm),                                                                   \
      (.coll = COLL_gatherv, .sendbuf = sendbuf, .sendcount = sendcount,                 \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = COLL_ARRAY(recvcounts),               \
       .rdispls = COLL_ARRAY(displs), .recvtype = recvtype, .root = root),                           \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts.base, a->rdispls.base,     \
       a->recvtype, a->root, c))                                                         \
    X(Scatter, scatter,                                                                  \
      (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,         \
       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),                   \
      (.coll = COLL_scatter, .sendbuf = sendbuf, .sendcount = sendcount,                 \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,                 \
       .recvtype = recvtype, .root = root),                                              \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype,     \
       a->root, c))                                                                      \
    X(Scatterv, scatterv,                                                                \
      (const void *sendbuf, const int sendcounts[], const int displs[],                  \
       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,       \
       int root, MPI_Comm comm),                                                         \
      (.coll = COLL_scatterv, .sendbuf = sendbuf, .sendcounts = COLL_ARRAY(sendcounts),              \
       .sdispls = COLL_ARRAY(displs), .sendtype = sendtype, .recvbuf = recvbuf,                      \
       .recvcount = recvcount, .recvtype = recvtype, .root = root),                      \
      (a->sendbuf, a->sendcounts.base, a->sdispls.base, a->sendtype, a->recvbuf, a->recvcount,     \
       a->recvtype, a->root, c))                                                         \
    X(Allgather, allgather,                                                              \
      (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,         \
       int recvcount, MPI_Datatype recvtype, MPI_Comm comm),                             \
      (.coll = COLL_allgather, .sendbuf = sendbuf, .sendcount = sendcount,               \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,                 \
       .recvtype = recvtype),                                                            \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, c)) \
    X(Allgatherv, allgatherv,                                                            \
      (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,         \
       const int recvcounts[], const int displs[], MPI_Datatype recvtype,                \
       MPI_Comm comm),                                                                   \
      (.coll = COLL_allgatherv, .sendbuf = sendbuf, .sendcount = sendcount,              \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = COLL_ARRAY(recvcounts),               \
       .rdispls = COLL_ARRAY(displs), .recvtype = recvtype),                                         \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts.base, a->rdispls.base,     \
       a->recvtype, c))                                                                  \
    X(Alltoall, alltoall,                                                                \
      (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,         \
       int recvcount, MPI_Datatype recvtype, MPI_Comm comm),                             \
      (.coll = COLL_alltoall, .sendbuf = sendbuf, .sendcount = sendcount,                \
       .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,                 \
       .recvtype = recvtype),                                                            \
      (a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, c)) \
    X(Alltoallv, alltoallv,                                                              \
      (const void *sendbuf, const int sendcounts[], const int sdispls[],                 \
       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],                     \
       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),                       \
      (.coll = COLL_alltoallv, .sendbuf = sendbuf, .sendcounts = COLL_ARRAY(sendcounts),             \
       .sdispls = COLL_ARRAY(sdispls), .sendtype = sendtype, .recvbuf = recvbuf,                     \
       .recvcounts = COLL_ARRAY(recvcounts), .rdispls = COLL_ARRAY(rdispls), .recvtype = recvtype),              \
      (a->sendbuf, a->sendcounts.base, a->sdispls.base, a->sendtype, a->recvbuf, a->recvcounts.base,    \
       a->rdispls.base, a->recvtype, c))                                                      \
    X(Alltoallw, alltoallw,                                                              \
      (const void *sendbuf, const int sendcounts[], const int sdispls[],                 \
       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],            \
       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),              \
      (.coll = COLL_alltoallw, .sendbuf = sendbuf, .sendcounts = COLL_ARRAY(sendcounts),             \
       .sdispls = COLL_ARRAY(sdispls), .sendtypes = sendtypes, .recvbuf = recvbuf,                   \
       .recvcounts = COLL_ARRAY(recvcounts), .rdispls = COLL_ARRAY(rdispls), .recvtypes = recvtypes),            \
      (a->sendbuf, a->sendcounts.base, a->sdispls.base, a->sendtypes, a->recvbuf, a->recvcounts.base,   \
       a->rdispls.base, a->recvtypes, c))                                                     \
    X(Reduce, reduce,                                                                    \
      (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,  \
       int root, MPI_Comm comm),                                                         \
      (.coll = COLL_reduce, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count,      \
       .datatype = datatype, .op = op, .root = root),                                    \
      (a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->root, c))                \
    X(Allreduce, allreduce,                                                              \
      (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,  \
       MPI_Comm comm),                                                                   \
      (.coll = COLL_allreduce, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count,   \
       .datatype = datatype, .op = op),                                                  \
      (a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, c))                         \
    X(Reduce_scatter, reduce_scatter,                                                    \
      (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, \
       MPI_Op op, MPI_Comm comm),                                                        \
      (.coll = COLL_reduce_scatter, .sendbuf = sendbuf, .recvbuf = recvbuf,              \
       .recvcounts = COLL_ARRAY(recvcounts), .datatype = datatype, .op = op),                        \
      (a->sendbuf, a->recvbuf, a->recvcounts.base, a->datatype, a->op, c))                    \
    X(Reduce_scatter_block, reduce_scatter_block,                                        \
      (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,         \
       MPI_Op op, MPI_Comm comm),                                                        \
      (.coll = COLL_reduce_scatter_block, .sendbuf = sendbuf, .recvbuf = recvbuf,        \
       .recvcount = recvcount, .datatype = datatype, .op = op),                          \
      (a->sendbuf, a->recvbuf, a->recvcount, a->datatype, a->op, c))                     \
    X(Scan, scan,                                                                        \
      (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,  \
       MPI_Comm comm),                                                                   \
      (.coll = COLL_scan, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count,        \
       .datatype = datatype, .op = op),                                                  \
      (a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, c))                         \
    X(Exscan, exscan,                                                                    \
      (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,  \
       MPI_Comm comm),                                                                   \
      (.coll = COLL_exscan, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count,      \
       .datatype = datatype, .op = op),                                                  \
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
