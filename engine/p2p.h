/* p2p.h - point-to-point on the shadow communicator of a call. Peers are
 * ranks of the caller's communicator; each communicator has its own tags on
 * the shadow (shim/context.c), one per collective within them; MPI's
 * non-overtaking order keeps consecutive collectives on one communicator
 * apart because every algorithm receives all it sends before returning.
 * While a schedule is being built (../sched.h) they record steps instead.
 * Counts are MPI_Aint: a message of more than INT_MAX elements (a block of
 * a large-count call, a run of blocks, a packed vector) goes as one derived
 * type (p2p_bytes.h), so every algorithm moves any count the same way. */
#ifndef COLLSHIM_P2P_H
#define COLLSHIM_P2P_H

#include "engine/call.h"

int p2p_send(const void *buf, MPI_Aint count, MPI_Datatype type, int peer,
             const struct coll_args *a);
int p2p_recv(void *buf, MPI_Aint count, MPI_Datatype type, int peer,
             const struct coll_args *a);
int p2p_sendrecv(const void *sbuf, MPI_Aint scount, MPI_Datatype stype, int dest,
                 void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int source,
                 const struct coll_args *a);
int p2p_isend(const void *buf, MPI_Aint count, MPI_Datatype type, int peer,
              const struct coll_args *a, MPI_Request *req);
int p2p_irecv(void *buf, MPI_Aint count, MPI_Datatype type, int peer,
              const struct coll_args *a, MPI_Request *req);
int p2p_wait(const struct coll_args *a, MPI_Request *req);
int p2p_waitall(const struct coll_args *a, int n, MPI_Request *reqs);
/* MPI_Waitany without a status; *idx is MPI_UNDEFINED when none is pending. */
int p2p_waitany(const struct coll_args *a, int n, MPI_Request *reqs, int *idx);

#endif
