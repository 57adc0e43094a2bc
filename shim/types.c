/* types.c - may a datatype travel in a collective? Named types always may.
 * A derived type must be committed: both MPIs answer a zero-count PMPI_Pack
 * of an uncommitted type with MPI_ERR_TYPE, so the shim asks that once per
 * type, on its own communicator (MPI_ERRORS_RETURN: no handler of the user's
 * ever runs), and remembers the answer as an attribute of the type, which
 * MPI deletes with the type.
 *
 * Where the vendor does not check (Open MPI 4.1.4 lets uncommitted receive
 * types through gather(v), scatter(v) and allgather(v), and send types
 * through scatter) it completes the call, so the shim must too: it runs the
 * call with a committed duplicate of the type, kept in the same attribute
 * and freed with it. */
#include "shim/shim.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define NAMED_SLOTS 64
static MPI_Datatype named_seen[NAMED_SLOTS]; /* named types met so far */
static int type_keyval = MPI_KEYVAL_INVALID;
static pthread_once_t keyval_once = PTHREAD_ONCE_INIT;
static char committed_mark; /* attribute value: committed, no duplicate */

struct type_dup {
    MPI_Datatype dup; /* committed duplicate of an uncommitted type */
};

static int type_attr_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type; (void)keyval; (void)extra;
    if (value != &committed_mark) {
        struct type_dup *d = value;
        PMPI_Type_free(&d->dup);
        free(d);
    }
    return MPI_SUCCESS;
}

static void keyval_create(void)
{
    PMPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_attr_delete, &type_keyval, NULL);
}

void types_finalize(void)
{
    if (type_keyval != MPI_KEYVAL_INVALID)
        PMPI_Type_free_keyval(&type_keyval);
}

static unsigned named_slot(MPI_Datatype type)
{
    uint64_t h = (uint64_t)(uintptr_t)type * 0x9E3779B97F4A7C15ull;
    return (unsigned)(h >> 58); /* 64 slots */
}

/* Named types cannot be freed, so a slot that holds one stays true. */
int type_is_named(MPI_Datatype type)
{
    unsigned slot = named_slot(type);
    int ni, na, nd, combiner;
    if (__atomic_load_n(&named_seen[slot], __ATOMIC_RELAXED) == type)
        return 1;
    PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    if (combiner != MPI_COMBINER_NAMED)
        return 0;
    __atomic_store_n(&named_seen[slot], type, __ATOMIC_RELAXED);
    return 1;
}

static int probe_committed(MPI_Datatype type)
{
    char in[1], out[1];
    int pos = 0;
    MPI_Comm comm = ctx_shadow();
    if (comm == MPI_COMM_NULL) /* no private communicator: the vendor runs the call */
        return 1;
    return PMPI_Pack(in, 0, type, out, (int)sizeof out, &pos, comm) == MPI_SUCCESS;
}

static int remember(MPI_Datatype type, void *value)
{
    return PMPI_Type_set_attr(type, type_keyval, value);
}

/* A committed duplicate of the uncommitted *type, cached; *type becomes it. */
static int use_duplicate(MPI_Datatype *type, void *cached, int found)
{
    struct type_dup *d = found ? cached : NULL;
    int err;
    if (!d) {
        if (!(d = malloc(sizeof *d)))
            return MPI_ERR_NO_MEM;
        if ((err = PMPI_Type_dup(*type, &d->dup)) || (err = PMPI_Type_commit(&d->dup)) ||
            (err = remember(*type, d))) {
            free(d);
            return err;
        }
    }
    *type = d->dup;
    return MPI_SUCCESS;
}

/* MPI_SUCCESS when *type may be used, possibly replaced by a committed
 * duplicate; MPI_ERR_TYPE for a null type, or an uncommitted one where
 * vendor_checks says the vendor would refuse it. */
int type_check(MPI_Datatype *type, int vendor_checks)
{
    void *value = NULL;
    int found = 0;
    if (*type == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    if (type_is_named(*type))
        return MPI_SUCCESS;
    pthread_once(&keyval_once, keyval_create);
    PMPI_Type_get_attr(*type, type_keyval, &value, &found);
    if (found && value == &committed_mark)
        return MPI_SUCCESS;
    if (probe_committed(*type)) /* replaces a duplicate made before a commit */
        return remember(*type, &committed_mark);
    if (vendor_checks)
        return MPI_ERR_TYPE;
    return use_duplicate(type, value, found);
}
