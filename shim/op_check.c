/* op_check.c - which (predefined op, named type) pairs the vendor refuses,
 * and with which error class: asked of the vendor itself, once per pair
 * and process, by running its MPI_Allreduce on one element on a private
 * one-rank communicator that has MPI_ERRORS_RETURN (no data leaves the
 * process, no error handler of the user's is called).
 *
 * Why ask rather than keep a table: the two libraries' rules follow their
 * internals more than the standard's table and change between versions
 * (Open MPI 4.1.4 refuses MPI_LAND on MPI_INTEGER but accepts it on
 * MPI_INTEGER8 and MPI_CHARACTER, and every op but the LOC ones on MPI_BYTE;
 * MPICH 4.0.2 accepts MPI_LAND on MPI_DOUBLE and only the bitwise ops on
 * MPI_BYTE; doc/design-notes.md has both tables). The probe gives the exact
 * answer of the library the program runs under. Both libraries check the
 * pair before looking at the count or the communicator size, and the same
 * way in all six reductions (tests/mpi/opcheck.c verifies it on every pair
 * it refuses).
 *
 * The private communicator is made on the first probe and freed at
 * MPI_Finalize (an attribute on MPI_COMM_SELF). If it cannot be made (the
 * user holds every communicator the library has), the verdict is "accepted
 * if we have a kernel" and is kept for the process, so ranks stay alike. */
#include "shim/op_check.h"
#include "shim/shim.h"
#include "ops/op_kernels.h"

#include <pthread.h>

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_Comm probe_comm = MPI_COMM_NULL;
static int probe_comm_state; /* 0 not made yet, 1 usable, 2 failed or freed */

static int free_probe_comm(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)value; (void)extra;
    pthread_mutex_lock(&probe_lock);
    if (probe_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&probe_comm);
    probe_comm_state = 2;
    pthread_mutex_unlock(&probe_lock);
    return MPI_SUCCESS;
}

/* Called with probe_lock held. */
static int make_probe_comm(void)
{
    int keyval = MPI_KEYVAL_INVALID;
    int err = PMPI_Comm_dup(MPI_COMM_SELF, &probe_comm);
    if (!err)
        err = PMPI_Comm_set_errhandler(probe_comm, MPI_ERRORS_RETURN);
    if (!err)
        err = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_probe_comm, &keyval, NULL);
    if (!err)
        err = PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
    if (keyval != MPI_KEYVAL_INVALID) /* the attribute keeps it alive */
        PMPI_Comm_free_keyval(&keyval);
    if (err && probe_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&probe_comm);
    probe_comm_state = err ? 2 : 1;
    return probe_comm_state == 1;
}

/* The vendor's verdict, with probe_lock held. */
static int ask_vendor(const struct op_entry *e)
{
    /* One element of any named type (the largest is 32 bytes). */
    _Alignas(64) unsigned char in[64] = {0}, out[64];
    MPI_Aint lb, extent;
    int rc, cls;
    if (probe_comm_state == 0)
        make_probe_comm();
    if (probe_comm_state != 1 || vendor_resolve())
        return e->kernel ? MPI_SUCCESS : MPI_ERR_OP;
    PMPI_Type_get_extent(e->type, &lb, &extent);
    rc = vendor.allreduce(in, out, extent <= (MPI_Aint)sizeof in ? 1 : 0, e->type, e->op,
                          probe_comm);
    if (rc == MPI_SUCCESS)
        return MPI_SUCCESS;
    return PMPI_Error_class(rc, &cls) == MPI_SUCCESS ? cls : MPI_ERR_OP;
}

int op_check(MPI_Op op, MPI_Datatype type)
{
    struct op_entry *e = op_entry_get(op, type);
    if (!e)
        return MPI_SUCCESS;
    int cls = __atomic_load_n(&e->vendor_class, __ATOMIC_ACQUIRE);
    if (cls != OP_CLASS_UNKNOWN)
        return cls;
    pthread_mutex_lock(&probe_lock);
    cls = e->vendor_class;
    if (cls == OP_CLASS_UNKNOWN) {
        cls = ask_vendor(e);
        __atomic_store_n(&e->vendor_class, cls, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&probe_lock);
    return cls;
}
