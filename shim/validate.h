/* validate.h - the argument checks validate.c shares with validate_inter.c. */
#ifndef COLLSHIM_VALIDATE_H
#define COLLSHIM_VALIDATE_H

#include "shim/shim.h"

#define VENDOR_IS_MPICH (COLLSHIM_FLAVOUR[0] == 'm')

/* NULL holding data. */
int check_buffer(const void *buf, MPI_Aint count, MPI_Datatype type);
/* A significant buffer: count, type (vendor_checks: refused uncommitted), buffer. */
int check_side(const void *buf, MPI_Aint count, MPI_Datatype *type, int vendor_checks);
int check_counts(struct coll_array counts, int n);
/* The sum of n counts (checked non-negative), saturated at the largest MPI_Aint. */
MPI_Aint check_count_sum(struct coll_array counts, int n);
/* A significant buffer with a count per rank (n of them). */
int check_vside(const void *buf, struct coll_array counts, int n, MPI_Datatype *type,
                int vendor_checks);
/* A count and a type per rank (alltoallw). */
int check_wside(const void *buf, struct coll_array counts, struct coll_array displs,
                const MPI_Datatype *types, int n);
/* A reduction's op and datatype, as the vendor refuses them. */
int check_op_and_type(struct coll_args *a);


#endif
