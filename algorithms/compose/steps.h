/* steps.h - the steps of composed algorithms: one collective over a group
 * (the whole communicator, a node, the leaders, a slice; node.h), run by
 * the algorithm the tables choose for that group (sub.h). Datatype and op
 * are the caller's where not given. */
#ifndef COLLSHIM_STEPS_H
#define COLLSHIM_STEPS_H

#include "algorithms/compose/sub.h"

int step_barrier(const struct coll_args *a, const struct sub_group *g);
int step_bcast(const struct coll_args *a, const struct sub_group *g, void *buf, MPI_Aint count,
               MPI_Datatype type, int root);
/* recvbuf matters at root only; sendbuf may be MPI_IN_PLACE there. */
int step_reduce(const struct coll_args *a, const struct sub_group *g, const void *sendbuf,
                void *recvbuf, MPI_Aint count, int root);
int step_allreduce(const struct coll_args *a, const struct sub_group *g, const void *sendbuf,
                   void *recvbuf, MPI_Aint count);
/* Rank g->rank keeps block g->rank (counts[g->rank] elements) of the
 * reduction of sendbuf (MPI_IN_PLACE not allowed) in recvbuf. */
int step_reduce_scatter(const struct coll_args *a, const struct sub_group *g,
                        const void *sendbuf, void *recvbuf, struct coll_array counts);
/* Every rank's block (sendcount of type; sendbuf may be MPI_IN_PLACE) into
 * recvbuf at displs (in elements of type). */
int step_allgatherv(const struct coll_args *a, const struct sub_group *g, const void *sendbuf,
                    MPI_Aint sendcount, void *recvbuf, struct coll_array counts,
                    struct coll_array displs,
                    MPI_Datatype type);
/* count elements of type as one committed type (one rank's block of a
 * gather-like call); buf_type_free it. */
int step_block_type(MPI_Aint count, MPI_Datatype type, MPI_Datatype *block);

struct node_layout;
/* Gather- and scatter-like node-aware algorithms (the root's receive side
 * is its blocks for a gather, its send side for a scatter): *blk = one
 * rank's block (the root's side at the root, the other side elsewhere: the
 * same type signature); *run = this node's run of blocks: in the root's
 * buffer at the root, a buffer of its own (*base) at another
 * representative, NULL elsewhere. node_run_free releases both. */
int node_run(const struct coll_args *a, const struct node_layout *L, int root_receives,
             MPI_Datatype *blk, void **run, void **base);
void node_run_free(const struct coll_args *a, MPI_Datatype *blk, void *base);

#endif
