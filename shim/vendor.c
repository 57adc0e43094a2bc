/* vendor.c - the MPI library's own collectives, reached through
 * dlsym(RTLD_NEXT, "PMPI_X") once, and the pseudo-algorithm "vendor". A
 * call in a large-count form (MPI_Bcast_c) is forwarded to the library's
 * own _c form: the call's row below is its collective in its form's block
 * (vendor_row), one switch for every form. */
#define _GNU_SOURCE
#include "shim/shim.h"
#include "algorithms/registry.h"
#include "engine/sched.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct vendor_table vendor;

/* optional: persistent collectives exist in MPI-4 libraries only */
static const struct {
    const char *symbol;
    size_t offset;
    int optional;
} vendor_symbols[] = {
#define SYM(field, name) {name, offsetof(struct vendor_table, field), 0}
#define COLL_SYMS(F, Name, name, params, init, vargs)                                \
    SYM(SHIM_NAME(name, F), "PMPI_" #Name SHIM_SUFFIX_TEXT_##F),                      \
    SYM(SHIM_NAME(i_##name, F), "PMPI_I" #name SHIM_SUFFIX_TEXT_##F),                 \
    {SHIM_PERSISTENT_PREFIX #Name "_init" SHIM_SUFFIX_TEXT_##F,                       \
     offsetof(struct vendor_table, SHIM_NAME(name##_init, F)), 1},
#define FORM_SYMS(F) SHIM_COLLECTIVE_LIST(COLL_SYMS, F)
    SHIM_FORMS(FORM_SYMS)
    SYM(init, "PMPI_Init"), SYM(init_thread, "PMPI_Init_thread"),
    SYM(get_library_version, "PMPI_Get_library_version"),
    SYM(wait, "PMPI_Wait"), SYM(waitall, "PMPI_Waitall"), SYM(waitany, "PMPI_Waitany"),
    SYM(waitsome, "PMPI_Waitsome"), SYM(test, "PMPI_Test"), SYM(testall, "PMPI_Testall"),
    SYM(testany, "PMPI_Testany"), SYM(testsome, "PMPI_Testsome"),
    SYM(request_get_status, "PMPI_Request_get_status"), SYM(start, "PMPI_Start"),
    SYM(startall, "PMPI_Startall"), SYM(request_free, "PMPI_Request_free"),
    SYM(cancel, "PMPI_Cancel"), SYM(send, "PMPI_Send"), SYM(ssend, "PMPI_Ssend"),
    SYM(recv, "PMPI_Recv"), SYM(sendrecv, "PMPI_Sendrecv"), SYM(probe, "PMPI_Probe"),
    SYM(finalize, "PMPI_Finalize"),
#undef FORM_SYMS
#undef COLL_SYMS
#undef SYM
};

static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;
static int resolve_status;

static void resolve_all(void)
{
    size_t n = sizeof vendor_symbols / sizeof vendor_symbols[0];
    for (size_t i = 0; i < n; i++) {
        void *fn = dlsym(RTLD_NEXT, vendor_symbols[i].symbol);
        if (!fn && vendor_symbols[i].optional)
            continue;
        if (!fn) {
            fprintf(stderr, "collshim: cannot find the MPI library's %s (%s); is "
                            "libcollshim.so loaded before the MPI library?\n",
                    vendor_symbols[i].symbol, dlerror());
            resolve_status = -1;
            continue;
        }
        *(void **)((char *)&vendor + vendor_symbols[i].offset) = fn;
    }
}

int vendor_resolve(void)
{
    pthread_once(&resolve_once, resolve_all);
    return resolve_status;
}

/* A call's row: its collective, in the block of its form. */
#define VENDOR_ROW(name, F) (COLL_##name + COLL_COUNT * SHIM_LARGE_##F)
static int vendor_row(const struct coll_args *a)
{
    return (int)a->coll + COLL_COUNT * (a->large_count != 0);
}

/* The vendor's function of a collective (name: bcast, i_bcast, bcast_init)
 * in form F. */
#define VENDOR_FN(name, F) vendor.SHIM_NAME(name, F)

/* The pseudo-algorithm "vendor": every collective, on the user's comm. */
int vendor_run(const struct coll_args *a)
{
    MPI_Comm c = a->user_comm;
    switch (vendor_row(a)) {
#define CALL(F, Name, name, params, init, vargs)                                      \
    case VENDOR_ROW(name, F): return VENDOR_FN(name, F) vargs;
#define FORM(F) SHIM_COLLECTIVE_LIST(CALL, F)
        SHIM_FORMS(FORM)
#undef FORM
#undef CALL
    default: return MPI_ERR_INTERN;
    }
}

/* The vendor's nonblocking collective for this call. */
int vendor_start(const struct coll_args *a, MPI_Request *req)
{
    MPI_Comm c = a->user_comm;
    switch (vendor_row(a)) {
#define CALL(F, Name, name, params, init, vargs)                                      \
    case VENDOR_ROW(name, F): return VENDOR_FN(i_##name, F)(SHIM_UNPAREN vargs, req);
#define FORM(F) SHIM_COLLECTIVE_LIST(CALL, F)
        SHIM_FORMS(FORM)
#undef FORM
#undef CALL
    default: return MPI_ERR_INTERN;
    }
}

/* MPICH's persistent gather, scatter and allgather are wrong: from 4.0.2
 * (Debian 12's) MPI_Gather_init skips the root's own block, a second
 * MPI_Start of MPI_Scatter_init delivers nothing or fails ("Invalid
 * communicator"), MPI_Allgather_init frees the user's datatype
 * (tests/mpi/check_gather.c; pmodels/mpich#7078 on 4.1.2, #7550: a
 * schedule's state is not re-initialised at the second start). Where the
 * selection is the vendor, collshim runs the vendor's nonblocking form at
 * each start instead (nbc_vendor_scheduled), which is right. */
static int vendor_init_broken(enum coll_id coll)
{
#if defined(MPICH_NUMVERSION) && !defined(COLLSHIM_SMPI)
    return coll == COLL_gather || coll == COLL_scatter || coll == COLL_allgather;
#else
    (void)coll;
    return 0;
#endif
}

int vendor_has_init(const struct coll_args *a)
{
    if (settings.test_no_vendor_init || vendor_init_broken(a->coll))
        return 0;
    switch (vendor_row(a)) {
#define HAS(F, Name, name, params, init, vargs)                                       \
    case VENDOR_ROW(name, F): return VENDOR_FN(name##_init, F) != NULL;
#define FORM(F) SHIM_COLLECTIVE_LIST(HAS, F)
        SHIM_FORMS(FORM)
#undef FORM
#undef HAS
    default: return 0;
    }
}

/* The vendor's persistent collective for this call (MPI_ERR_INTERN if the
 * library has none: then collshim's entry point is the only one). */
int vendor_init(const struct coll_args *a, MPI_Info info, MPI_Request *req)
{
    MPI_Comm c = a->user_comm;
    switch (vendor_row(a)) {
#define CALL(F, Name, name, params, init, vargs)                                      \
    case VENDOR_ROW(name, F):                                                          \
        return VENDOR_FN(name##_init, F) ? VENDOR_FN(name##_init, F)(SHIM_UNPAREN vargs, \
                                                                     info, req)        \
                                         : MPI_ERR_INTERN;
#define FORM(F) SHIM_COLLECTIVE_LIST(CALL, F)
        SHIM_FORMS(FORM)
#undef FORM
#undef CALL
    default: return MPI_ERR_INTERN;
    }
}
