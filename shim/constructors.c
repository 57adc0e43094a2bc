/* constructors.c - a communicator gets its context when it is made.
 *
 * A context needs an agreement among the communicator's ranks (a vendor
 * allreduce of 136 bytes, context.c), so it can only be made where every
 * rank is inside the same collective call. Blocking collectives can make it
 * at their first call; a nonblocking or persistent one cannot, since it
 * must not wait for the other ranks, and used to go to the vendor on a
 * communicator that had not yet seen a blocking collective. Programs (and
 * libraries, which dup the communicators they are given) often make a
 * communicator and use only nonblocking collectives on it. Every
 * constructor below is collective over the new communicator, so the
 * agreement runs there, after the vendor made the communicator: one small
 * allreduce more per communicator made, and the first collective of any
 * kind finds its context. MPI_Comm_idup, which must not block, is left to
 * the lazy path; so is any communicator made while the shim is disabled,
 * and COLLSHIM_LAZY_CONTEXTS=1 turns this off. Failing to make a context
 * never fails the user's call: the first collective tries again (and the
 * vendor runs it if that fails too). Only the MPI_ names are intercepted;
 * the PMPI_ ones are the vendor's, as a profiling layer expects. */
#include "shim/shim.h"

#define EXPORT __attribute__((visibility("default")))

static int with_context(int err, MPI_Comm *made)
{
    struct comm_ctx *ctx;
    if (err == MPI_SUCCESS && *made != MPI_COMM_NULL && shim_ready() && !settings.disable &&
        !settings.lazy_contexts)
        (void)ctx_get(*made, &ctx);
    return err;
}

EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return with_context(PMPI_Comm_dup(comm, newcomm), newcomm);
}

EXPORT int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return with_context(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm);
}

EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    return with_context(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

EXPORT int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                               MPI_Comm *newcomm)
{
    return with_context(PMPI_Comm_split_type(comm, split_type, key, info, newcomm), newcomm);
}

EXPORT int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    return with_context(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

EXPORT int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    return with_context(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

EXPORT int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                int remote_leader, int tag, MPI_Comm *newintercomm)
{
    return with_context(PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader,
                                              tag, newintercomm),
                        newintercomm);
}

EXPORT int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    return with_context(PMPI_Intercomm_merge(intercomm, high, newintracomm), newintracomm);
}

EXPORT int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                           int reorder, MPI_Comm *comm_cart)
{
    return with_context(PMPI_Cart_create(comm, ndims, dims, periods, reorder, comm_cart),
                        comm_cart);
}

EXPORT int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    return with_context(PMPI_Cart_sub(comm, remain_dims, newcomm), newcomm);
}

EXPORT int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                            int reorder, MPI_Comm *comm_graph)
{
    return with_context(PMPI_Graph_create(comm, nnodes, index, edges, reorder, comm_graph),
                        comm_graph);
}

EXPORT int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                 const int destinations[], const int weights[], MPI_Info info,
                                 int reorder, MPI_Comm *comm_dist_graph)
{
    return with_context(PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights,
                                               info, reorder, comm_dist_graph),
                        comm_dist_graph);
}

EXPORT int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                          const int sourceweights[], int outdegree,
                                          const int destinations[], const int destweights[],
                                          MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    return with_context(PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights,
                                                        outdegree, destinations, destweights,
                                                        info, reorder, comm_dist_graph),
                        comm_dist_graph);
}
