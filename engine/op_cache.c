/* op_cache.c - (predefined op, named type) -> struct op_entry, resolved
 * once per process: the kernel (op_kernels.c) and, filled in later by
 * shim/op_check.c, the vendor's verdict on the pair.
 *
 * An open-addressing hash table of fixed size, never resized or emptied:
 * readers probe it without a lock (an entry is published with a release
 * store of `ready` after its fields are written), writers insert under a
 * mutex. Its capacity exceeds 14 predefined ops x every named type of
 * MPI-4.1 (fewer than 100), the only pairs ever inserted: user ops and
 * derived types are not cached, their handles are reused after a free. */
#include "ops/op_kernels.h"
#include "engine/tls.h"

#include <pthread.h>
#include <stdint.h>

#define OP_CACHE_BITS 11
#define OP_CACHE_SLOTS (1u << OP_CACHE_BITS)

static struct op_entry slots[OP_CACHE_SLOTS];
static pthread_mutex_t insert_lock = PTHREAD_MUTEX_INITIALIZER;
/* The entry this thread found last: programs reduce one pair over and
 * over. Per thread, so that threads reducing different pairs do not share
 * a cache line they keep writing; initial-exec: no __tls_get_addr call
 * (the library is loaded at startup, preloaded or linked). */
static SHIM_TLS struct op_entry *last_hit;

static unsigned slot_of(MPI_Op op, MPI_Datatype type)
{
    /* Handles are pointers (Open MPI) or small integers (MPICH). */
    uint64_t h = (uint64_t)(uintptr_t)type * 0x9e3779b97f4a7c15ull ^
                 (uint64_t)(uintptr_t)op * 0xc2b2ae3d27d4eb4full;
    return (unsigned)(h >> (64 - OP_CACHE_BITS));
}

/* The slot holding (op, type), or the free slot where it would go; NULL
 * when the table is full. */
static struct op_entry *find_slot(MPI_Op op, MPI_Datatype type)
{
    unsigned s = slot_of(op, type);
    for (unsigned k = 0; k < OP_CACHE_SLOTS; k++, s = (s + 1) & (OP_CACHE_SLOTS - 1)) {
        struct op_entry *e = &slots[s];
        if (!__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE))
            return e;
        if (e->op == op && e->type == type)
            return e;
    }
    return NULL;
}

static int is_named(MPI_Datatype type)
{
    int ni, na, nd, combiner;
    if (type == MPI_DATATYPE_NULL)
        return 0;
    if (op_kernel_elem_size(type))
        return 1;
    return PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
           combiner == MPI_COMBINER_NAMED;
}

/* Our kernel, if its element layout is the library's: a Fortran INTEGER
 * of 8 bytes (-fdefault-integer-8 builds) must not meet an int loop. */
static op_kernel_fn checked_kernel(MPI_Op op, MPI_Datatype type)
{
    MPI_Aint lb, extent;
    op_kernel_fn fn = op_kernel_find(op, type);
    if (!fn || PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS)
        return NULL;
    return (size_t)extent == op_kernel_elem_size(type) ? fn : NULL;
}

static struct op_entry *insert(MPI_Op op, MPI_Datatype type)
{
    pthread_mutex_lock(&insert_lock);
    struct op_entry *e = find_slot(op, type);
    if (e && !e->ready) {
        e->op = op;
        e->type = type;
        e->kernel = checked_kernel(op, type);
        e->vendor_class = OP_CLASS_UNKNOWN;
        __atomic_store_n(&e->ready, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&insert_lock);
    return e;
}

struct op_entry *op_entry_get(MPI_Op op, MPI_Datatype type)
{
    struct op_entry *e = last_hit;
    if (e && e->op == op && e->type == type)
        return e;
    e = find_slot(op, type);
    if (e && __atomic_load_n(&e->ready, __ATOMIC_ACQUIRE)) {
        last_hit = e;
        return e;
    }
    if (!op_is_predefined(op) || !is_named(type))
        return NULL;
    return insert(op, type);
}
