/* reduce_scatter_core.h - the reduce-scatter cores shared by
 * reduce_scatter_<name> and reduce_scatter_block_<name> (one core per
 * algorithm, reduce_scatter_core_<name>.c), and the pieces they share with
 * each other (reduce_scatter_core_blocks.c).
 *
 * A core runs the whole reduce-scatter of a call on a->comm: the input is
 * the full vector of sum(counts) elements of a->datatype at a->sendbuf, or
 * at a->recvbuf when a->in_place; block b (counts[b] elements, in rank
 * order) of the reduction ends at the start of a->recvbuf on rank b.
 * counts must be identical on every rank. */
#ifndef COLLSHIM_REDUCE_SCATTER_CORE_H
#define COLLSHIM_REDUCE_SCATTER_CORE_H

#include "algorithms/coll.h"
#include "algorithms/patterns/reduce_tree_pattern.h"

typedef int (*reduce_scatter_core_fn)(const struct coll_args *a, struct coll_array counts);

/* The cores, each in reduce_scatter_core_<name>.c. */
int reduce_scatter_core_halving(const struct coll_args *a, struct coll_array counts);
int reduce_scatter_core_distance_doubling(const struct coll_args *a, struct coll_array counts);
int reduce_scatter_core_pairwise(const struct coll_args *a, struct coll_array counts);
int reduce_scatter_core_ring(const struct coll_args *a, struct coll_array counts);
int reduce_scatter_core_doubling(const struct coll_args *a, struct coll_array counts);
int reduce_scatter_core_scatterv(const struct coll_args *a, struct coll_array counts);
int reduce_scatter_core_linear(const struct coll_args *a, struct coll_array counts);
int reduce_scatter_core_node(const struct coll_args *a, struct coll_array counts);


/* reduce_scatter_block: every rank's block has a->recvcount elements. */
int reduce_scatter_core_block_run(const struct coll_args *a, reduce_scatter_core_fn core);

/* Blocks of a vector: block b is elements [displs[b], displs[b + 1]).
 * A block (a large-count call's) and the whole vector may pass INT_MAX
 * elements: counts and displacements are MPI_Aint, whatever the width of
 * the caller's counts. */
struct reduce_scatter_core_blocks {
    int p;
    MPI_Aint *counts; /* p counts */
    MPI_Aint *displs; /* p + 1 prefix sums; displs[p] is the total */
    void *owned;      /* what reduce_scatter_core_blocks_free releases */
};

int reduce_scatter_core_blocks_init(struct reduce_scatter_core_blocks *b,
                                    struct coll_array counts, int p);
/* count elements split into p near-equal blocks (pattern_block_count). */
int reduce_scatter_core_blocks_even(struct reduce_scatter_core_blocks *b, MPI_Aint count, int p);
void reduce_scatter_core_blocks_free(struct reduce_scatter_core_blocks *b);
MPI_Aint reduce_scatter_core_blocks_max(const struct reduce_scatter_core_blocks *b);
/* Element offset of virtual block v (reduce_scatter_pattern_vblock_first),
 * v <= pof2. */
MPI_Aint reduce_scatter_core_blocks_voffset(const struct reduce_scatter_core_blocks *b, int v);

const void *reduce_scatter_core_source(const struct coll_args *a);

/* One halving exchange (reduce_scatter_core_halving,
 * reduce_scatter_core_distance_doubling): send virtual blocks
 * [give, give + len) of acc to peer, receive its partial of
 * [keep, keep + len) into scratch and reduce it into acc there. */
int reduce_scatter_core_exchange_halves(const struct coll_args *a,
                                        const struct reduce_scatter_core_blocks *b, int peer,
                                        int keep, int give, int len, void *acc, void *scratch);

/* The frame of reduce_scatter_core_scatterv and reduce_scatter_core_linear
 * (reduce_scatter_core_scatterv.c): the whole vector reduced to rank 0
 * along a tree of `shape` (reduce_tree, segmented by a->params.seg), into
 * `full` on rank 0, then `scatter` hands out the blocks (full is NULL
 * elsewhere). Nothing runs when sum(counts) is 0. */
typedef int (*reduce_scatter_core_scatter_fn)(const struct coll_args *a,
                                              const struct reduce_scatter_core_blocks *b,
                                              void *full);
int reduce_scatter_core_via_root(const struct coll_args *a, struct coll_array counts,
                                 enum reduce_tree_shape shape,
                                 reduce_scatter_core_scatter_fn scatter);

/* Power-of-two folding (pattern.h) of a whole vector of count elements:
 * on the first 2r ranks the even rank sends src to its odd neighbour,
 * which sets acc = received op acc (lower rank on the left), using
 * scratch. Call on ranks < 2r only. */
int reduce_scatter_core_fold_in(const struct coll_args *a, const void *src, void *acc,
                                void *scratch, MPI_Aint count);
/* Undo the fold of a whole vector: the odd rank sends buf to the even
 * one (allreduce). Call on ranks < 2r only. */
int reduce_scatter_core_fold_back(const struct coll_args *a, void *buf, MPI_Aint count);
/* End of a folded reduce-scatter: virtual rank v < r holds the reduced
 * blocks 2v and 2v+1 in acc and hands block 2v to rank 2v; every rank
 * puts its block at a->recvbuf. */
int reduce_scatter_core_fold_out(const struct coll_args *a,
                                 const struct reduce_scatter_core_blocks *b, const void *acc);

/* After receiving a partner group's partial of ranges [off[i], +len[i])
 * into *scratch, combine it with *acc, the lower group's partial on the
 * left: the result ends in *acc (the buffers are swapped when it was
 * computed in *scratch; only these ranges are valid afterwards). */
int reduce_scatter_core_combine(const struct coll_args *a, int peer_is_lower, int n,
                                const MPI_Aint *off, const MPI_Aint *len, void **acc,
                                void **scratch);

/* The frame of the cores that work on 2^floor(lg p) virtual ranks
 * (halving, doubling): blocks, fold in, body on the survivors, fold out.
 * body gets full-length buffers of its own (*acc a copy of the input, in
 * place too: recvbuf past this rank's block is never written); *acc starts as
 * the folded input and must end holding virtual block vrank
 * (reduce_scatter_pattern_vblock_first) reduced over all ranks; it may
 * swap *acc and *scratch. Nothing runs when sum(counts) is 0. */
typedef int (*reduce_scatter_core_virtual_fn)(const struct coll_args *a,
                                              const struct reduce_scatter_core_blocks *b,
                                              int vrank, void **acc, void **scratch);
int reduce_scatter_core_folded_run(const struct coll_args *a, struct coll_array counts,
                                   reduce_scatter_core_virtual_fn body);

#endif
