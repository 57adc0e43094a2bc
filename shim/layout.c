/* layout.c - which node each rank sits on.
 *
 * All shim traffic runs on one shadow communicator (a copy of
 * MPI_COMM_WORLD) and a context names each of its ranks by world rank, so
 * the node of every world rank, learnt once in MPI_Init, gives any
 * communicator's layout without communication and without a
 * communicator: no node or leaders communicator per user communicator
 * (doc/node-aware.md). In MPI_Init: PMPI_Comm_split_type(SHARED) of the
 * world names this rank's node by its lowest world rank, one allgather
 * over the world tells every rank every rank's node, the split is freed.
 *
 * Testing aid: COLLSHIM_NODES sets the node of each world rank instead
 * ("block:K", "rr:K" or a list "0,0,1,1,1"; compose/node.h), so one
 * machine can play several nodes. */
#include "shim/shim.h"
#include "algorithms/compose/node.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int *world_node; /* node name (lowest world rank there) of each world rank */

/* This rank's node, named by the lowest world rank on it. */
static int my_node_name(int world_rank, int *name)
{
    MPI_Comm node;
    MPI_Group group, world;
    int first = 0, err = PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank,
                                              MPI_INFO_NULL, &node);
    if (err)
        return err;
    PMPI_Comm_group(node, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    err = PMPI_Group_translate_ranks(group, 1, &first, world, name);
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    PMPI_Comm_free(&node);
    return err;
}

static void faked_nodes(const char *spec, int world_rank, int world_size)
{
    int *ids = malloc((size_t)world_size * sizeof *ids);
    char quoted[256];
    if (ids && node_ids_parse(spec, world_size, ids) == 0) {
        memcpy(world_node, ids, (size_t)world_size * sizeof *ids);
        free(ids);
        return;
    }
    free(ids);
    tune_escape(spec, strlen(spec), 60, quoted, sizeof quoted);
    if (world_rank == 0)
        fprintf(stderr, "collshim: COLLSHIM_NODES='%s' is not block:K, rr:K (1 <= K <= %d) or "
                        "a list of %d node numbers below %d: the real nodes are used\n",
                quoted, world_size, world_size, world_size);
}

/* The machine's nodes are learnt even when COLLSHIM_NODES replaces them,
 * so every rank makes the same collective calls whatever it parses. */
int layout_init(int world_rank, int world_size)
{
    const char *spec = settings.nodes;
    int name = 0, err;
    world_node = malloc((size_t)world_size * sizeof *world_node);
    if (!world_node)
        return MPI_ERR_NO_MEM;
    if ((err = my_node_name(world_rank, &name)) ||
        (err = vendor.allgather(&name, 1, MPI_INT, world_node, 1, MPI_INT, MPI_COMM_WORLD)))
        return err;
    if (spec && *spec)
        faked_nodes(spec, world_rank, world_size);
    return MPI_SUCCESS;
}

void layout_finalize(void)
{
    free(world_node);
    world_node = NULL;
}

static struct node_layout *layout_build(const struct comm_ctx *ctx)
{
    int *ids = malloc((size_t)ctx->size * sizeof *ids);
    struct node_layout *L = NULL;
    if (!ids)
        return NULL;
    for (int i = 0; i < ctx->size; i++)
        ids[i] = world_node[ctx->peers ? ctx->peers[i] : i];
    L = node_layout_build(ids, ctx->size, ctx->rank, ctx->peers);
    free(ids);
    return L;
}

void layout_attach(struct coll_args *a, struct comm_ctx *ctx)
{
    struct node_layout *L = __atomic_load_n(&ctx->layout, __ATOMIC_ACQUIRE);
    if (ctx->remote_size) { /* intercommunicator: peers are the remote group's */
        a->layout = NULL;
        a->shape = node_shape_make(0, 0, 0, 0);
        return;
    }
    if (!L && world_node) {
        struct node_layout *made = layout_build(ctx), *none = NULL;
        if (made && !__atomic_compare_exchange_n(&ctx->layout, &none, made, 0,
                                                 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            free(made); /* another thread published one first */
        L = __atomic_load_n(&ctx->layout, __ATOMIC_ACQUIRE);
    }
    a->layout = L;
    a->shape = L ? L->shape : node_shape_make(1, a->size, 1, 1);
}

int layout_world_shape(int np, struct node_shape *shape)
{
    struct comm_ctx *world = NULL;
    struct coll_args a = {.size = np};
    if (ctx_find(MPI_COMM_WORLD, &world) || !world || world->size != np || world->forwarded)
        return 0;
    layout_attach(&a, world);
    *shape = a.shape;
    return a.layout != NULL;
}
