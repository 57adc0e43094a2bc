/* entry_points.c - MPI_X and PMPI_X for the 17 collectives in their three
 * forms: blocking (MPI_Allreduce), nonblocking (MPI_Iallreduce) and
 * persistent (MPI_Allreduce_init; MPIX_Allreduce_init on Open MPI 4).
 *
 * Each PMPI_X packs its arguments into a struct coll_args and hands it to
 * shim_collective() or shim_icollective(); MPI_X is an alias of PMPI_X, so
 * Fortran bindings that call PMPI_X directly (Open MPI, MPICH's f08) land
 * here too, and a profiler preloaded in front of the shim measures the
 * shim's algorithms. The argument lists come from collectives.h. */
#include "shim/shim.h"
#include "shim/collectives.h"

#define ALIAS_STR(name) __attribute__((alias(#name), visibility("default")))
#define ALIAS_OF(name) ALIAS_STR(name) /* expands name first */
#define EXPORT __attribute__((visibility("default")))

#define BLOCKING(Name, name, params, init, vargs)                                      \
    EXPORT int PMPI_##Name params                                                      \
    {                                                                                  \
        struct coll_args a = {SHIM_UNPAREN init};                                                     \
        return shim_collective(&a, comm);                                              \
    }                                                                                  \
    int MPI_##Name params ALIAS_OF(PMPI_##Name);

#define NONBLOCKING(Name, name, params, init, vargs)                                   \
    EXPORT int PMPI_I##name(SHIM_UNPAREN params, MPI_Request *request)                 \
    {                                                                                  \
        struct coll_args a = {SHIM_UNPAREN init};                                                     \
        return shim_icollective(&a, comm, NBC_NONBLOCKING, MPI_INFO_NULL, request);    \
    }                                                                                  \
    int MPI_I##name(SHIM_UNPAREN params, MPI_Request *request) ALIAS_OF(PMPI_I##name);

#define PERSISTENT(Name, name, params, init, vargs)                                    \
    EXPORT int SHIM_PPERSISTENT(Name)(SHIM_UNPAREN params, MPI_Info info,              \
                                      MPI_Request *request)                            \
    {                                                                                  \
        struct coll_args a = {SHIM_UNPAREN init};                                                     \
        return shim_icollective(&a, comm, NBC_PERSISTENT, info, request);              \
    }                                                                                  \
    int SHIM_PERSISTENT(Name)(SHIM_UNPAREN params, MPI_Info info, MPI_Request *request) \
        ALIAS_OF(SHIM_PPERSISTENT(Name));

SHIM_COLLECTIVE_LIST(BLOCKING)
SHIM_COLLECTIVE_LIST(NONBLOCKING)
SHIM_COLLECTIVE_LIST(PERSISTENT)
