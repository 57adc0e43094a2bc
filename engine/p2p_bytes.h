/* p2p_bytes.h - point-to-point of any size on top of p2p.h.
 *
 * MPI counts are ints, but a whole vector, a run of blocks or a packed
 * message may hold more than INT_MAX elements or bytes. These take an
 * MPI_Aint count; up to INT_MAX it is passed as is (no cost), beyond it
 * the message is described by one derived type (count 1) built for the
 * call: both MPIs move single messages above 2 GiB correctly when the
 * count fits an int, and a type map is as good as a count for matching
 * (signatures, not decompositions, must agree between ranks). */
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

int p2p_send_n(const void *buf, MPI_Aint count, MPI_Datatype type, int peer,
               const struct coll_args *a);
int p2p_recv_n(void *buf, MPI_Aint count, MPI_Datatype type, int peer,
               const struct coll_args *a);
int p2p_isend_n(const void *buf, MPI_Aint count, MPI_Datatype type, int peer,
                const struct coll_args *a, MPI_Request *req);
int p2p_irecv_n(void *buf, MPI_Aint count, MPI_Datatype type, int peer,
                const struct coll_args *a, MPI_Request *req);
int p2p_sendrecv_n(const void *sbuf, MPI_Aint scount, MPI_Datatype stype, int dest,
                   void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int source,
                   const struct coll_args *a);

#endif
