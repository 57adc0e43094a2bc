/* rabenseifner.h - the phases of Rabenseifner's reduction (Rabenseifner
 * 2004; Thakur, Rabenseifner & Gropp 2005, section 4.5), shared by
 * allreduce_rabenseifner and reduce_rabenseifner (rabenseifner.c).
 *
 * Ranks are the 2^floor(lg p) virtual ranks of pattern_fold_virtual (the
 * caller folds with reduce_scatter_core_fold_in first); the vector of
 * a->count elements of a->datatype is cut into pof2 chunks
 * (pattern_block_count, possibly empty), and virtual rank v owns chunk range
 * reduce_scatter_pattern_halving_range(v, k) after k halving steps. Every
 * step combines adjacent aligned groups of ranks with the lower group on the
 * left: any op. */
#ifndef COLLSHIM_RABENSEIFNER_H
#define COLLSHIM_RABENSEIFNER_H

#include "algorithms/coll.h"

/* Halving at distances 1, 2, 4, ...: *acc ends holding the fully reduced
 * chunk range of vrank (element range rabenseifner_final_range); *acc and
 * *scratch (both full-length) may be swapped. */
int rabenseifner_reduce_scatter(const struct coll_args *a, int vrank, void **acc, void **scratch);
/* Element range [*off, *off + *len) vrank holds after the reduce-scatter. */
void rabenseifner_final_range(const struct coll_args *a, int vrank, MPI_Aint *off,
                              MPI_Aint *len);
/* Doubling back at distances pof2/2, ..., 1: buf (holding vrank's final
 * range) ends holding the whole vector on every virtual rank. */
int rabenseifner_allgather(const struct coll_args *a, int vrank, void *buf);
/* The same steps towards virtual rank vroot only: binomial gather, the
 * whole vector ends in buf at vroot. */
int rabenseifner_gather(const struct coll_args *a, int vrank, int vroot, void *buf);

#endif
