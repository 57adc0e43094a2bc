/* p2p_bytes.h - a message of any count as an MPI call's int count.
 *
 * MPI counts are ints, but a block of a large-count call (MPI_Bcast_c), a
 * whole vector, a run of blocks or a packed message may hold more than
 * INT_MAX elements or bytes. p2p.h takes MPI_Aint counts: up to INT_MAX
 * one is passed as is (no cost), beyond it the message is described by one
 * derived type (count 1) built for the call: both MPIs move single
 * messages above 2 GiB correctly when the count fits an int, and a type
 * map is as good as a count for matching (signatures, not decompositions,
 * must agree between ranks). */
#ifndef COLLSHIM_P2P_BYTES_H
#define COLLSHIM_P2P_BYTES_H

#include "engine/call.h"

/* Elements per piece of the derived type (its contiguous chunks). */
#define P2P_BIG_CHUNK ((MPI_Aint)1 << 30)

/* count elements of type as (*n, *t) for an MPI call: (count, type) when
 * count fits an int, else (1, a new committed type whose extent is count
 * extents of type). Release with big_type_free. */
int big_type(MPI_Aint count, MPI_Datatype type, int *n, MPI_Datatype *t);
void big_type_free(const struct coll_args *a, MPI_Datatype type, MPI_Datatype *t);
/* n blocks of len[i] elements of type at byte displacements disp[i] (any
 * lengths) as one new committed type, to be freed by the caller. */
int big_blocks_type(int n, const MPI_Aint *len, const MPI_Aint *disp, MPI_Datatype type,
                    MPI_Datatype *out);

#endif
