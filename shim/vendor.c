/* vendor.c - the MPI library's own collectives, reached through
 * dlsym(RTLD_NEXT, "PMPI_X") once, and the pseudo-algorithm "vendor". */
#define _GNU_SOURCE
#include "shim.h"
#include "../algorithms/registry.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct vendor_table vendor;

static const struct {
    const char *symbol;
    size_t offset;
} vendor_symbols[] = {
#define SYM(field, name) {name, offsetof(struct vendor_table, field)}
    SYM(barrier, "PMPI_Barrier"), SYM(bcast, "PMPI_Bcast"),
    SYM(gather, "PMPI_Gather"), SYM(gatherv, "PMPI_Gatherv"),
    SYM(scatter, "PMPI_Scatter"), SYM(scatterv, "PMPI_Scatterv"),
    SYM(allgather, "PMPI_Allgather"), SYM(allgatherv, "PMPI_Allgatherv"),
    SYM(alltoall, "PMPI_Alltoall"), SYM(alltoallv, "PMPI_Alltoallv"),
    SYM(alltoallw, "PMPI_Alltoallw"), SYM(reduce, "PMPI_Reduce"),
    SYM(allreduce, "PMPI_Allreduce"), SYM(reduce_scatter, "PMPI_Reduce_scatter"),
    SYM(reduce_scatter_block, "PMPI_Reduce_scatter_block"),
    SYM(scan, "PMPI_Scan"), SYM(exscan, "PMPI_Exscan"),
    SYM(init, "PMPI_Init"), SYM(init_thread, "PMPI_Init_thread"),
    SYM(get_library_version, "PMPI_Get_library_version"),
#undef SYM
};

static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;
static int resolve_status;

static void resolve_all(void)
{
    size_t n = sizeof vendor_symbols / sizeof vendor_symbols[0];
    for (size_t i = 0; i < n; i++) {
        void *fn = dlsym(RTLD_NEXT, vendor_symbols[i].symbol);
        if (!fn) {
            fprintf(stderr, "collshim: cannot find the MPI library's %s (%s); is "
                            "libcollshim.so loaded before the MPI library?\n",
                    vendor_symbols[i].symbol, dlerror());
            resolve_status = -1;
            continue;
        }
        *(void **)((char *)&vendor + vendor_symbols[i].offset) = fn;
    }
}

int vendor_resolve(void)
{
    pthread_once(&resolve_once, resolve_all);
    return resolve_status;
}

/* The pseudo-algorithm "vendor": every collective, on the user's comm. */
int vendor_run(const struct coll_args *a)
{
    MPI_Comm c = a->user_comm;
    switch (a->coll) {
    case COLL_barrier: return vendor.barrier(c);
    case COLL_bcast: return vendor.bcast(a->recvbuf, a->count, a->datatype, a->root, c);
    case COLL_gather:
        return vendor.gather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                             a->recvcount, a->recvtype, a->root, c);
    case COLL_gatherv:
        return vendor.gatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                              a->recvcounts, a->rdispls, a->recvtype, a->root, c);
    case COLL_scatter:
        return vendor.scatter(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                              a->recvcount, a->recvtype, a->root, c);
    case COLL_scatterv:
        return vendor.scatterv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype,
                               a->recvbuf, a->recvcount, a->recvtype, a->root, c);
    case COLL_allgather:
        return vendor.allgather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                a->recvcount, a->recvtype, c);
    case COLL_allgatherv:
        return vendor.allgatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                 a->recvcounts, a->rdispls, a->recvtype, c);
    case COLL_alltoall:
        return vendor.alltoall(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                               a->recvcount, a->recvtype, c);
    case COLL_alltoallv:
        return vendor.alltoallv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype,
                                a->recvbuf, a->recvcounts, a->rdispls, a->recvtype, c);
    case COLL_alltoallw:
        return vendor.alltoallw(a->sendbuf, a->sendcounts, a->sdispls, a->sendtypes,
                                a->recvbuf, a->recvcounts, a->rdispls, a->recvtypes, c);
    case COLL_reduce:
        return vendor.reduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->root, c);
    case COLL_allreduce:
        return vendor.allreduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, c);
    case COLL_reduce_scatter:
        return vendor.reduce_scatter(a->sendbuf, a->recvbuf, a->recvcounts, a->datatype,
                                     a->op, c);
    case COLL_reduce_scatter_block:
        return vendor.reduce_scatter_block(a->sendbuf, a->recvbuf, a->recvcount,
                                           a->datatype, a->op, c);
    case COLL_scan:
        return vendor.scan(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, c);
    case COLL_exscan:
        return vendor.exscan(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, c);
    default: return MPI_ERR_INTERN;
    }
}
