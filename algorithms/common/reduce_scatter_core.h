/* rs_core.h - the reduce-scatter cores shared by reduce_scatter_<name>
 * and reduce_scatter_block_<name> (one core per algorithm, rs_<name>.c),
 * and the pieces they share with each other (rs_blocks.c).
 *
 * A core runs the whole reduce-scatter of a call on a->comm: the input is
 * the full vector of sum(counts) elements of a->datatype at a->sendbuf, or
 * at a->recvbuf when a->in_place; block b (counts[b] elements, in rank
 * order) of the reduction ends at the start of a->recvbuf on rank b.
 * counts must be identical on every rank. */
#ifndef COLLSHIM_RS_CORE_H
#define COLLSHIM_RS_CORE_H

#include "algorithms/coll.h"
#include "algorithms/patterns/reduce_tree_pattern.h"

typedef int (*rs_core_fn)(const struct coll_args *a, const int *counts);

int rs_halving(const struct coll_args *a, const int *counts);   /* rs_halving.c */
int rs_distance_doubling(const struct coll_args *a, const int *counts); /* rs_distance_doubling.c */
int rs_pairwise(const struct coll_args *a, const int *counts);  /* rs_pairwise.c */
int rs_ring(const struct coll_args *a, const int *counts);      /* rs_ring.c */
int rs_doubling(const struct coll_args *a, const int *counts);  /* rs_doubling.c */
int rs_scatterv(const struct coll_args *a, const int *counts);  /* rs_scatterv.c */
int rs_linear(const struct coll_args *a, const int *counts);    /* rs_linear.c */
int rs_node(const struct coll_args *a, const int *counts);      /* rs_node.c */


/* reduce_scatter_block: every rank's block has a->recvcount elements. */
int rs_block_run(const struct coll_args *a, rs_core_fn core);

/* Blocks of a vector: block b is elements [displs[b], displs[b + 1]).
 * Each block's count is an int, but the whole vector (and so an offset
 * into it) may pass INT_MAX elements: displacements are MPI_Aint. */
struct rs_blocks {
    int p;
    const int *counts;
    MPI_Aint *displs; /* p + 1 prefix sums; displs[p] is the total */
    void *owned;      /* what rs_blocks_free releases */
};

int rs_blocks_init(struct rs_blocks *b, const int *counts, int p);
/* count elements split into p near-equal blocks (pat_block_count). */
int rs_blocks_even(struct rs_blocks *b, int count, int p);
void rs_blocks_free(struct rs_blocks *b);
int rs_blocks_max(const struct rs_blocks *b);
/* Element offset of virtual block v (rsp_vblock_first), v <= pof2. */
MPI_Aint rs_blocks_voffset(const struct rs_blocks *b, int v);

const void *rs_source(const struct coll_args *a);

/* One halving exchange (rs_halving, rs_distance_doubling): send virtual
 * blocks [give, give + len) of acc to peer, receive its partial of
 * [keep, keep + len) into scratch and reduce it into acc there. */
int rs_exchange_halves(const struct coll_args *a, const struct rs_blocks *b, int peer, int keep,
                       int give, int len, void *acc, void *scratch);

/* The frame of rs_scatterv and rs_linear (rs_scatterv.c): the whole vector
 * reduced to rank 0 along a tree of `shape` (reduce_tree, segmented by
 * a->params.seg), into `full` on rank 0, then `scatter` hands out the
 * blocks (full is NULL elsewhere). Nothing runs when sum(counts) is 0. */
typedef int (*rs_scatter_fn)(const struct coll_args *a, const struct rs_blocks *b, void *full);
int rs_via_root(const struct coll_args *a, const int *counts, enum rtree_shape shape,
                rs_scatter_fn scatter);

/* Power-of-two folding (pattern.h) of a whole vector of count elements:
 * on the first 2r ranks the even rank sends src to its odd neighbour,
 * which sets acc = received op acc (lower rank on the left), using
 * scratch. Call on ranks < 2r only. */
int rs_fold_in(const struct coll_args *a, const void *src, void *acc, void *scratch,
               MPI_Aint count);
/* Undo the fold of a whole vector: the odd rank sends buf to the even
 * one (allreduce). Call on ranks < 2r only. */
int rs_fold_back(const struct coll_args *a, void *buf, MPI_Aint count);
/* End of a folded reduce-scatter: virtual rank v < r holds the reduced
 * blocks 2v and 2v+1 in acc and hands block 2v to rank 2v; every rank
 * puts its block at a->recvbuf. */
int rs_fold_out(const struct coll_args *a, const struct rs_blocks *b, const void *acc);

/* After receiving a partner group's partial of ranges [off[i], +len[i])
 * into *scratch, combine it with *acc, the lower group's partial on the
 * left: the result ends in *acc (the buffers are swapped when it was
 * computed in *scratch; only these ranges are valid afterwards). */
int rs_combine(const struct coll_args *a, int peer_is_lower, int n, const MPI_Aint *off,
               const MPI_Aint *len, void **acc, void **scratch);

/* The frame of the cores that work on 2^floor(lg p) virtual ranks
 * (halving, doubling): blocks, fold in, body on the survivors, fold out.
 * body gets full-length buffers of its own (*acc a copy of the input, in
 * place too: recvbuf past this rank's block is never written); *acc starts as
 * the folded input and must end holding virtual block vrank
 * (rsp_vblock_first) reduced over all ranks; it may swap *acc and *scratch.
 * Nothing runs when sum(counts) is 0. */
typedef int (*rs_virtual_fn)(const struct coll_args *a, const struct rs_blocks *b, int vrank,
                             void **acc, void **scratch);
int rs_folded_run(const struct coll_args *a, const int *counts, rs_virtual_fn body);

#endif
