/* entry_points.c - MPI_X and PMPI_X for the 17 blocking collectives.
 *
 * Each PMPI_X packs its arguments into a struct coll_args and hands it to
 * shim_collective(); MPI_X is an alias of PMPI_X, so Fortran bindings that
 * call PMPI_X directly (Open MPI, MPICH's f08) land here too, and a profiler
 * preloaded in front of the shim measures the shim's algorithms. */
#include "shim.h"

#define ALIAS_OF(name) __attribute__((alias(#name), visibility("default")))
#define EXPORT __attribute__((visibility("default")))

EXPORT int PMPI_Barrier(MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_barrier};
    return shim_collective(&a, comm);
}
int MPI_Barrier(MPI_Comm comm) ALIAS_OF(PMPI_Barrier);

EXPORT int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_bcast, .sendbuf = buffer, .recvbuf = buffer,
                          .count = count, .datatype = datatype, .root = root};
    return shim_collective(&a, comm);
}
int MPI_Bcast(void *, int, MPI_Datatype, int, MPI_Comm) ALIAS_OF(PMPI_Bcast);

EXPORT int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_gather, .sendbuf = sendbuf, .sendcount = sendcount,
                          .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,
                          .recvtype = recvtype, .root = root};
    return shim_collective(&a, comm);
}
int MPI_Gather(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm)
    ALIAS_OF(PMPI_Gather);

EXPORT int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_gatherv, .sendbuf = sendbuf, .sendcount = sendcount,
                          .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = recvcounts,
                          .rdispls = displs, .recvtype = recvtype, .root = root};
    return shim_collective(&a, comm);
}
int MPI_Gatherv(const void *, int, MPI_Datatype, void *, const int[], const int[],
                MPI_Datatype, int, MPI_Comm) ALIAS_OF(PMPI_Gatherv);

EXPORT int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_scatter, .sendbuf = sendbuf, .sendcount = sendcount,
                          .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,
                          .recvtype = recvtype, .root = root};
    return shim_collective(&a, comm);
}
int MPI_Scatter(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm)
    ALIAS_OF(PMPI_Scatter);

EXPORT int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_scatterv, .sendbuf = sendbuf, .sendcounts = sendcounts,
                          .sdispls = displs, .sendtype = sendtype, .recvbuf = recvbuf,
                          .recvcount = recvcount, .recvtype = recvtype, .root = root};
    return shim_collective(&a, comm);
}
int MPI_Scatterv(const void *, const int[], const int[], MPI_Datatype, void *, int,
                 MPI_Datatype, int, MPI_Comm) ALIAS_OF(PMPI_Scatterv);

EXPORT int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_allgather, .sendbuf = sendbuf, .sendcount = sendcount,
                          .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,
                          .recvtype = recvtype};
    return shim_collective(&a, comm);
}
int MPI_Allgather(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm)
    ALIAS_OF(PMPI_Allgather);

EXPORT int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_allgatherv, .sendbuf = sendbuf, .sendcount = sendcount,
                          .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = recvcounts,
                          .rdispls = displs, .recvtype = recvtype};
    return shim_collective(&a, comm);
}
int MPI_Allgatherv(const void *, int, MPI_Datatype, void *, const int[], const int[],
                   MPI_Datatype, MPI_Comm) ALIAS_OF(PMPI_Allgatherv);

EXPORT int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_alltoall, .sendbuf = sendbuf, .sendcount = sendcount,
                          .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,
                          .recvtype = recvtype};
    return shim_collective(&a, comm);
}
int MPI_Alltoall(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm)
    ALIAS_OF(PMPI_Alltoall);

EXPORT int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_alltoallv, .sendbuf = sendbuf, .sendcounts = sendcounts,
                          .sdispls = sdispls, .sendtype = sendtype, .recvbuf = recvbuf,
                          .recvcounts = recvcounts, .rdispls = rdispls, .recvtype = recvtype};
    return shim_collective(&a, comm);
}
int MPI_Alltoallv(const void *, const int[], const int[], MPI_Datatype, void *, const int[],
                  const int[], MPI_Datatype, MPI_Comm) ALIAS_OF(PMPI_Alltoallv);

EXPORT int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf,
                          const int recvcounts[], const int rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_alltoallw, .sendbuf = sendbuf, .sendcounts = sendcounts,
                          .sdispls = sdispls, .sendtypes = sendtypes, .recvbuf = recvbuf,
                          .recvcounts = recvcounts, .rdispls = rdispls, .recvtypes = recvtypes};
    return shim_collective(&a, comm);
}
int MPI_Alltoallw(const void *, const int[], const int[], const MPI_Datatype[], void *,
                  const int[], const int[], const MPI_Datatype[], MPI_Comm)
    ALIAS_OF(PMPI_Alltoallw);

EXPORT int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_reduce, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .count = count, .datatype = datatype, .op = op, .root = root};
    return shim_collective(&a, comm);
}
int MPI_Reduce(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm)
    ALIAS_OF(PMPI_Reduce);

EXPORT int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_allreduce, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .count = count, .datatype = datatype, .op = op};
    return shim_collective(&a, comm);
}
int MPI_Allreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm)
    ALIAS_OF(PMPI_Allreduce);

EXPORT int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_reduce_scatter, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .recvcounts = recvcounts, .datatype = datatype, .op = op};
    return shim_collective(&a, comm);
}
int MPI_Reduce_scatter(const void *, void *, const int[], MPI_Datatype, MPI_Op, MPI_Comm)
    ALIAS_OF(PMPI_Reduce_scatter);

EXPORT int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_reduce_scatter_block, .sendbuf = sendbuf,
                          .recvbuf = recvbuf, .recvcount = recvcount, .datatype = datatype,
                          .op = op};
    return shim_collective(&a, comm);
}
int MPI_Reduce_scatter_block(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm)
    ALIAS_OF(PMPI_Reduce_scatter_block);

EXPORT int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_scan, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .count = count, .datatype = datatype, .op = op};
    return shim_collective(&a, comm);
}
int MPI_Scan(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm) ALIAS_OF(PMPI_Scan);

EXPORT int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm)
{
    struct coll_args a = {.coll = COLL_exscan, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .count = count, .datatype = datatype, .op = op};
    return shim_collective(&a, comm);
}
int MPI_Exscan(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm) ALIAS_OF(PMPI_Exscan);
