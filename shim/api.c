/* api.c - the functions of include/collshim.h. */
#include "config.h"
#include "shim/shim.h"
#include "algorithms/registry.h"
#include "include/collshim.h"

#include <string.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT const char *collshim_flavour(void) { return COLLSHIM_FLAVOUR; }

EXPORT int collshim_tune(const char *rules, char *err, int errlen)
{
    char scratch[16];
    if (!shim_ready())
        return MPI_ERR_OTHER;
    if (!err || errlen <= 0) {
        err = scratch;
        errlen = sizeof scratch;
    }
    return select_tables_set_tune(rules, err, (size_t)errlen);
}

static int find(const char *coll, const char *name)
{
    int c = coll ? coll_from_name(coll, strlen(coll)) : -1;
    return c < 0 || !name ? -1 : registry_find((enum coll_id)c, name, strlen(name));
}

EXPORT long long collshim_algorithm_calls(const char *coll, const char *name)
{
    int i = find(coll, name);
    return i < 0 ? -1 : (long long)__atomic_load_n(&select_calls[i], __ATOMIC_RELAXED);
}

EXPORT const char *collshim_last_algorithm(void)
{
    return select_last_alg < 0 ? "none" : registry_table[select_last_alg].name;
}

EXPORT int collshim_algorithm_count(const char *coll)
{
    int c = coll ? coll_from_name(coll, strlen(coll)) : -1, n = 0;
    for (int i = 0; c >= 0 && i < registry_count; i++)
        n += registry_table[i].coll == (enum coll_id)c;
    return n;
}

EXPORT const char *collshim_algorithm_name(const char *coll, int k)
{
    int c = coll ? coll_from_name(coll, strlen(coll)) : -1;
    for (int i = 0; c >= 0 && i < registry_count; i++)
        if (registry_table[i].coll == (enum coll_id)c && k-- == 0)
            return registry_table[i].name;
    return NULL;
}

EXPORT int collshim_algorithm_can_run(const char *coll, const char *name, int np,
                                      int count, int commutative, int predefined_op,
                                      int in_place)
{
    int i = find(coll, name);
    struct coll_key key = {.coll = (enum coll_id)(i < 0 ? 0 : registry_table[i].coll),
                           .np = np, .count = count, .commutative = commutative != 0,
                           .predefined_op = predefined_op != 0, .in_place = in_place != 0,
                           .shape = {1, np, 1, 1}};
    layout_world_shape(np, &key.shape);
    return i < 0 ? -1 : registry_can_run(&registry_table[i], &key, NULL);
}

EXPORT int collshim_node_shape(MPI_Comm comm, int *nodes, int *ppn, int *equal, int *block)
{
    struct comm_ctx *ctx = NULL;
    struct coll_args a = {0};
    if (!shim_ready() || comm == MPI_COMM_NULL || ctx_get(comm, &ctx) || !ctx ||
        ctx->forwarded || ctx->remote_size)
        return -1;
    a.size = ctx->size;
    layout_attach(&a, ctx);
    if (nodes)
        *nodes = a.shape.nodes;
    if (ppn)
        *ppn = a.shape.ppn;
    if (equal)
        *equal = a.shape.equal;
    if (block)
        *block = a.shape.block;
    return 0;
}

EXPORT int collshim_machine_model(char *buf, int len)
{
    return shim_ready() && len > 0 ? machine_describe(buf, (size_t)len) : -1;
}

EXPORT double collshim_model_predict(MPI_Comm comm, const char *coll, const char *name,
                                     unsigned long long bytes, long long count)
{
    struct comm_ctx *ctx = NULL;
    struct coll_args a = {0};
    int i = find(coll, name);
    if (i < 0 || !shim_ready() || comm == MPI_COMM_NULL || ctx_find(comm, &ctx) || !ctx ||
        ctx->forwarded || ctx->remote_size)
        return -1;
    a.size = ctx->size;
    layout_attach(&a, ctx);
    struct coll_key key = {.coll = registry_table[i].coll, .np = a.size, .bytes = bytes,
                           .count = count, .commutative = 1, .predefined_op = 1,
                           .shape = a.shape};
    return select_model_cost(i, &key, NULL);
}

EXPORT void collshim_bypass(int on) { __atomic_store_n(&shim_bypass, on, __ATOMIC_RELAXED); }

EXPORT int collshim_live_contexts(void) { return __atomic_load_n(&ctx_live, __ATOMIC_RELAXED); }

/* The tag of collshim_clock_offset's pings on the caller's communicator. */
#define CLOCK_TAG 7301

EXPORT int collshim_clock_offset(MPI_Comm comm, double *offset)
{
    struct coll_args a = {.comm = comm, .user_comm = comm, .tag = CLOCK_TAG, .env = &shim_env};
    int err = PMPI_Comm_rank(comm, &a.rank);
    if (!err)
        err = PMPI_Comm_size(comm, &a.size);
    return err ? err : clock_offset_of(&a, offset);
}
