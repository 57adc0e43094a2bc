/* entry_points.c - MPI_X and PMPI_X for the 17 collectives in their three
 * forms: blocking (MPI_Allreduce), nonblocking (MPI_Iallreduce) and
 * persistent (MPI_Allreduce_init; MPIX_Allreduce_init on Open MPI 4), each
 * with int counts and, where the MPI library has them, with MPI-4's large
 * counts (MPI_Allreduce_c, MPI_Iallreduce_c, MPI_Allreduce_init_c; the
 * forms of SHIM_FORMS, collectives.h).
 *
 * Each PMPI_X packs its arguments into a struct coll_args and hands it to
 * shim_collective() or shim_icollective(); MPI_X is an alias of PMPI_X, so
 * Fortran bindings that call PMPI_X directly (Open MPI, MPICH's f08) land
 * here too, and a profiler preloaded in front of the shim measures the
 * shim's algorithms. The argument lists come from collectives.h; a large-
 * count call's arrays are handed on as the caller's (struct coll_array
 * knows their width), its counts widened to MPI_Aint like an int's. */
#include "shim/shim.h"
#include "shim/collectives.h"

#ifdef HAVE_MPI_ALLREDUCE_C
_Static_assert(sizeof(MPI_Count) == sizeof(MPI_Aint),
               "a large-count call's MPI_Count counts are read as MPI_Aint");
#endif

#define ALIAS_STR(name) __attribute__((alias(#name), visibility("default")))
#define ALIAS_OF(name) ALIAS_STR(name) /* expands name first */
#define EXPORT __attribute__((visibility("default")))

/* The call's arguments, and its form. */
#define ARGS(F, init) {SHIM_UNPAREN init, .large_count = SHIM_LARGE_##F}

#define BLOCKING(F, Name, name, params, init, vargs)                                    \
    EXPORT int SHIM_NAME(PMPI_##Name, F) params                                         \
    {                                                                                   \
        struct coll_args a = ARGS(F, init);                                             \
        return shim_collective(&a, comm);                                               \
    }                                                                                   \
    int SHIM_NAME(MPI_##Name, F) params ALIAS_OF(SHIM_NAME(PMPI_##Name, F));

#define NONBLOCKING(F, Name, name, params, init, vargs)                                 \
    EXPORT int SHIM_NAME(PMPI_I##name, F)(SHIM_UNPAREN params, MPI_Request *request)    \
    {                                                                                   \
        struct coll_args a = ARGS(F, init);                                             \
        return shim_icollective(&a, comm, NBC_NONBLOCKING, MPI_INFO_NULL, request);     \
    }                                                                                   \
    int SHIM_NAME(MPI_I##name, F)(SHIM_UNPAREN params, MPI_Request *request)            \
        ALIAS_OF(SHIM_NAME(PMPI_I##name, F));

#define PERSISTENT(F, Name, name, params, init, vargs)                                  \
    EXPORT int SHIM_NAME(SHIM_PPERSISTENT(Name), F)(SHIM_UNPAREN params, MPI_Info info, \
                                                    MPI_Request *request)               \
    {                                                                                   \
        struct coll_args a = ARGS(F, init);                                             \
        return shim_icollective(&a, comm, NBC_PERSISTENT, info, request);               \
    }                                                                                   \
    int SHIM_NAME(SHIM_PERSISTENT(Name), F)(SHIM_UNPAREN params, MPI_Info info,         \
                                            MPI_Request *request)                       \
        ALIAS_OF(SHIM_NAME(SHIM_PPERSISTENT(Name), F));

#define ENTRY_POINTS(F)                                                                 \
    SHIM_COLLECTIVE_LIST(BLOCKING, F)                                                   \
    SHIM_COLLECTIVE_LIST(NONBLOCKING, F)                                                \
    SHIM_COLLECTIVE_LIST(PERSISTENT, F)

SHIM_FORMS(ENTRY_POINTS)
