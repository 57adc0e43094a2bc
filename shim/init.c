/* init.c - lifecycle: MPI_Init and MPI_Init_thread check that the running
 * MPI is the one this build is for, then configure the shim; a delete
 * callback on an attribute of MPI_COMM_SELF, which both MPIs run at the
 * start of MPI_Finalize (under SMPI our MPI_Finalize deletes it), writes
 * the report and frees what is left. No MPI
 * work happens in library constructors: a preload exported to the launcher
 * loads this library into mpirun too. */
#include "config.h"
#include "shim/shim.h"
#include "select/learn.h"
#include "engine/scratch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define ALIAS_OF(name) __attribute__((alias(#name), visibility("default")))

int shim_bypass;
static int shim_state; /* 0 not yet, 1 ready, 2 finalized */
static pthread_mutex_t setup_lock = PTHREAD_MUTEX_INITIALIZER;
static int finalize_keyval = MPI_KEYVAL_INVALID;
static int init_intercepted; /* set up from our MPI_Init: collectives allowed */

/* Stop with one line when this build meets the other MPI. */
static void check_running_mpi(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, is_ompi;
    if (vendor_resolve() || !vendor.get_library_version)
        _exit(1);
    vendor.get_library_version(version, &len);
    is_ompi = strstr(version, "Open MPI") != NULL;
    if (is_ompi == !strcmp(COLLSHIM_FLAVOUR, "openmpi"))
        return;
    char *nl = strchr(version, '\n');
    if (nl)
        *nl = '\0';
    fprintf(stderr, "collshim: this libcollshim.so was built for %s, but the program runs "
                    "under \"%s\"; preload the collshim build for that MPI\n",
            strcmp(COLLSHIM_FLAVOUR, "openmpi") ? "MPICH" : "Open MPI", version);
    _exit(1);
}

static int finalize_hook(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)value; (void)extra;
    pthread_mutex_lock(&setup_lock);
    if (shim_state == 1) {
        learn_finalize();
        report_write();
        learn_free();
        nbc_finalize();
        ctx_finalize();
        layout_finalize();
        types_finalize();
        config_free();
        scratch_release(); /* this thread's; other threads' at their exit */
        PMPI_Comm_free_keyval(&finalize_keyval);
        shim_state = 2;
    }
    pthread_mutex_unlock(&setup_lock);
    return MPI_SUCCESS;
}

static void setup_locked(void)
{
    int world_rank = 0, world_size = 1, initialized = 0, finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    if (!initialized || finalized || vendor_resolve())
        return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    config_load(world_rank);
    /* Collective over the world, in MPI_Init only: the nodes, then the
     * shadow communicator; without a layout there is no shadow either,
     * and the vendor runs every collective. */
    int collective_ok = init_intercepted;
    if (collective_ok && layout_init(world_rank, world_size) != MPI_SUCCESS)
        collective_ok = 0;
    if (collective_ok)
        machine_init(world_rank, world_size);
    ctx_init(collective_ok);
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalize_hook, &finalize_keyval, NULL);
    PMPI_Comm_set_attr(MPI_COMM_SELF, finalize_keyval, NULL);
    report_enabled = settings.report != NULL;
    shim_state = 1;
}

int shim_ready(void)
{
    int state = __atomic_load_n(&shim_state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&setup_lock);
        if (shim_state == 0)
            setup_locked();
        state = shim_state;
        pthread_mutex_unlock(&setup_lock);
    }
    return state == 1;
}

EXPORT int PMPI_Init(int *argc, char ***argv)
{
    check_running_mpi();
    int err = vendor.init(argc, argv);
    init_intercepted = 1;
    if (!err)
        shim_ready();
    return err;
}
int MPI_Init(int *argc, char ***argv) ALIAS_OF(PMPI_Init);

EXPORT int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    check_running_mpi();
    int err = vendor.init_thread(argc, argv, required, provided);
    init_intercepted = 1;
    if (!err)
        shim_ready();
    return err;
}
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
    ALIAS_OF(PMPI_Init_thread);

#ifdef COLLSHIM_SMPI
/* SMPI 3.32 runs MPI_COMM_SELF's delete callbacks only after it has torn
 * down MPI_COMM_WORLD (ActorExt::finalize; MPI 3.1, 8.7.1, wants them
 * first, with MPI intact): the report and the learned table would find
 * every call on MPI_COMM_WORLD failing. So under SMPI MPI_Finalize deletes
 * the attribute itself, which runs finalize_hook now, then finalizes. */
EXPORT int PMPI_Finalize(void)
{
    if (vendor_resolve())
        return MPI_ERR_INTERN;
    if (__atomic_load_n(&shim_state, __ATOMIC_ACQUIRE) == 1)
        PMPI_Comm_delete_attr(MPI_COMM_SELF, finalize_keyval);
    return vendor.finalize();
}
int MPI_Finalize(void) ALIAS_OF(PMPI_Finalize);
#endif
