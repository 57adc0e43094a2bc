/* op_check.h - is a (predefined op, type) pair one the vendor accepts? */
#ifndef COLLSHIM_OP_CHECK_H
#define COLLSHIM_OP_CHECK_H

#include <mpi.h>

/* MPI_SUCCESS, or the error class the MPI library's own reductions return
 * for op on type (MPI_ERR_OP for MPI_LXOR on MPI_DOUBLE, say). Local: no
 * communication with other ranks, no error handler called. User-defined
 * ops and derived types: MPI_SUCCESS (checked elsewhere). */
int op_check(MPI_Op op, MPI_Datatype type);

#endif
