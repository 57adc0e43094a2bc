/* pcoll.h - the name of the persistent collectives' init functions:
 * PERSISTENT_INIT(Allreduce) is MPI_Allreduce_init on an MPI-4 library
 * (MPICH 4) and MPIX_Allreduce_init, from Open MPI 4.1's pcollreq
 * extension in <mpi-ext.h>, on Open MPI; both take MPI-4's arguments (an
 * MPI_Info before the request). SimGrid's SMPI (MPI 3.1) has none: there
 * collshim, linked into the program, provides MPI_Allreduce_init etc., declared here
 * from collshim's own list of the collectives. */
#ifndef COLLSHIM_PCOLL_H
#define COLLSHIM_PCOLL_H

#include <mpi.h>

#if defined(OPEN_MPI)
#include <mpi-ext.h>
#if !defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#error "this Open MPI has no pcollreq extension (MPIX_<Coll>_init)"
#endif
#define PERSISTENT_INIT(Coll) MPIX_##Coll##_init
#elif defined(SMPI_H)
#include "shim/collectives.h"
#define PCOLL_DECLARE(F, Name, name, params, init, vargs)                               \
    int MPI_##Name##_init(SHIM_UNPAREN params, MPI_Info info, MPI_Request *request);
SHIM_COLLECTIVE_LIST(PCOLL_DECLARE, CLASSIC)
#undef PCOLL_DECLARE
#define PERSISTENT_INIT(Coll) MPI_##Coll##_init
#elif MPI_VERSION >= 4
#define PERSISTENT_INIT(Coll) MPI_##Coll##_init
#else
#error "neither MPI-4 persistent collectives nor Open MPI's MPIX_<Coll>_init"
#endif

#endif
