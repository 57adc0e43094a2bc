/* check_call.h - the collective under test, called in one of three modes,
 * in either form of its counts.
 *
 * mode_<coll>() takes the arguments of MPI_<Coll> and, per the global mode,
 *   blocking     calls MPI_<Coll>;
 *   nonblocking  calls MPI_I<coll>, then MPI_Wait;
 *   persistent   calls the persistent init (MPI-4 MPI_<Coll>_init on MPICH,
 *                MPIX_<Coll>_init from <mpi-ext.h> on Open MPI 4.1), then
 *                MPI_Start + MPI_Wait (twice when check_call_twice() asked
 *                for it), then MPI_Request_free.
 * With check_large_count set (an MPI with MPI-4's large-count collectives,
 * HAVE_MPI_ALLREDUCE_C) it calls their _c forms instead (MPI_<Coll>_c,
 * MPI_I<coll>_c, MPI_<Coll>_init_c), the counts as MPI_Count and the
 * displacements as MPI_Aint arrays converted from the int ones.
 * It returns the first error code of the calls it made. The checkers call
 * these for the call under test; the vendor's reference stays blocking. */
#ifndef CHECK_CALL_H
#define CHECK_CALL_H

#include <mpi.h>

enum check_mode { MODE_BLOCKING, MODE_NONBLOCKING, MODE_PERSISTENT };

extern enum check_mode check_mode;
/* 1: the calls under test go through the large-count (_c) forms. */
extern int check_large_count;

/* "blocking", "nonblocking", "persistent": 0 and the mode set, -1 if unknown. */
int check_mode_set(const char *name);
/* The large-count forms: 0 and set, -1 where the MPI has none. */
int check_large_count_set(void);
/* The mode, " large-count" appended in that form. */
const char *check_mode_name(void);

/* Persistent mode only: the next mode_<coll>() call starts its request
 * twice; between(arg) runs after the first completion, to check the first
 * result and write new inputs into the same buffers. Returns 1 when that
 * will happen (persistent mode), 0 when the collective runs once and
 * between is never called (the caller then writes the final inputs). */
int check_call_twice(void (*between)(void *arg), void *arg);
/* How many times the last mode_<coll>() call ran its collective: 1, or 2
 * when it started a persistent request twice. */
int check_call_runs(void);

int mode_barrier(MPI_Comm comm);
int mode_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int mode_gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm);
int mode_gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                 MPI_Comm comm);
int mode_scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm);
int mode_scatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                  MPI_Comm comm);
int mode_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                   MPI_Datatype rtype, MPI_Comm comm);
int mode_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype,
                    MPI_Comm comm);
int mode_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm);
int mode_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                   MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                   MPI_Datatype rtype, MPI_Comm comm);
int mode_alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                   const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                   const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm);
int mode_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                int root, MPI_Comm comm);
int mode_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm);
int mode_reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm);
int mode_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm);
int mode_scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
              MPI_Comm comm);
int mode_exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm);

#endif
