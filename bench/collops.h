/* collops.h - the 17 collectives as benchmark operations: the buffers of
 * one (collective, communicator, size), the call itself (blocking, or
 * nonblocking for collbench --overlap), the vendor's reference result and
 * the comparison with it. Used by collbench and colltune.
 *
 * The size of a case follows the OSU micro-benchmarks, so numbers can be
 * set side by side with osu_<coll>:
 *   bcast, reduce, allreduce, scan, exscan   bytes of the vector
 *   reduce_scatter, reduce_scatter_block     bytes of the whole input vector
 *                                            (recvcounts: block split of it)
 *   gather(v), allgather(v)                  bytes each rank sends
 *   scatter(v)                               bytes each rank receives
 *   alltoall(v,w)                            bytes each rank sends to each rank
 *   barrier                                  none (one case, size 0)
 * The v and w variants run with uniform counts. key_bytes is what the
 * shim's selector sees for that call (the tuning tables' byte ranges),
 * full_bytes what the lower bound is computed from (bound.h). */
#ifndef COLLBENCH_COLLOPS_H
#define COLLBENCH_COLLOPS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define COLLOP_COUNT 17

/* Collective index (the order of COLLSHIM_COLLECTIVES) from its name, -1
 * if unknown; and back. */
int collop_from_name(const char *name);
const char *collop_name(int coll);
/* 1 for the six collectives with a reduction op. */
int collop_has_op(int coll);
/* 1 when the collective's size is bytes of an element vector (reductions,
 * bcast): such sizes below one element are skipped. */
int collop_uses_elements(int coll);

struct collop {
    int coll;
    MPI_Comm comm;          /* all ranks of the case: the fences and agreements */
    MPI_Comm icomm;         /* --inter: the intercommunicator the collective runs
                               on (rank, size: its local group); else MPI_COMM_NULL */
    int remote;             /* --inter: the remote group's size; else size */
    int rank, size, root;
    size_t size_bytes;      /* the case's size, OSU meaning (above) */
    uint64_t key_bytes;     /* the shim's selection bytes of this call */
    uint64_t full_bytes;    /* bytes of the full vector, for the bound */
    MPI_Datatype type;      /* element type (MPI_CHAR for data movement) */
    MPI_Op op;              /* MPI_SUM for reductions */
    int elem;               /* bytes per element */
    int count;              /* vector (bcast, reductions) or block elements */
    int *counts, *displs;   /* p entries each: v/w variants, reduce_scatter */
    MPI_Datatype *types;    /* p copies of type: alltoallw */
    char *sendbuf, *recvbuf, *refbuf;
    size_t sendlen, recvlen;
    void *large;            /* collop_large_count: the calls go through the MPI-4
                               large-count forms (MPI_Bcast_c, ...), counts and
                               displs as MPI_Count and MPI_Aint (this); NULL: not */
};

/* Set up a case: buffers for `size` bytes of collective `coll` on comm,
 * with element type `type` for reductions (ignored otherwise). Returns 0,
 * 1 when the size cannot be expressed (below one element, or no block per
 * rank), or an MPI error code. Collective over comm only in the sense that
 * every rank must agree on the arguments. */
int collop_setup(struct collop *c, int coll, MPI_Comm comm, size_t size,
                 MPI_Datatype type, int root);
/* The same case on intercommunicator inter whose two groups together are
 * comm: the root is rank `root` of the group holding rank 0 of comm (the
 * standard's MPI_ROOT / MPI_PROC_NULL / remote rank arguments are made
 * here); sizes keep their meaning per rank, with blocks per REMOTE rank
 * (gather at the root, allgather, alltoall). Returns 1 for scan and exscan
 * (not defined on intercommunicators) and for reduce_scatter_block sizes
 * below one element per rank of both groups. */
int collop_setup_inter(struct collop *c, int coll, MPI_Comm comm, MPI_Comm inter, size_t size,
                       MPI_Datatype type, int root);
void collop_free(struct collop *c);
/* From now on call c through the large-count forms (barrier has none:
 * it stays as it is). 0, or -1 when the MPI has none (HAVE_MPI_ALLREDUCE_C)
 * or memory is short. */
int collop_large_count(struct collop *c);

/* Fill the inputs with a rank-dependent pattern and the outputs with a
 * sentinel, so an algorithm that writes nothing cannot match. */
void collop_prepare(struct collop *c);
/* The collective call itself, through MPI_X (so through the shim). */
int collop_call(const struct collop *c);
/* Start its nonblocking form, MPI_IX (through the shim as well), with the
 * same arguments; the caller completes *req (MPI_Wait, MPI_Test). */
int collop_start(const struct collop *c, MPI_Request *req);
/* Initialise its persistent form (MPI_X_init, or Open MPI 4.1's
 * MPIX_X_init); the caller starts, completes and frees *req. */
int collop_init(const struct collop *c, MPI_Request *req);
/* Run the vendor's collective (collshim_bypass) on prepared buffers and
 * keep its result as the reference. */
int collop_reference(struct collop *c);
/* 1 when this rank's significant output equals the reference. */
int collop_matches(const struct collop *c);

#endif
