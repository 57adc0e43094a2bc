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
 * The same allgather carries the CPUs each rank may run on, so that every
 * rank knows the job's ranks per core on its most loaded node (the shape's
 * ranks_per_core, a key of the tables): a node's ranks over the CPUs any
 * of them may run on (COLLSHIM_CORES: over that many), rounded up. Above 1
 * the job is oversubscribed, and the ranks wait for a core between the
 * steps of a collective. Under SMPI the simulated hosts have the
 * platform's cores, not the machine's: 1 there.
 *
 * Testing aid: COLLSHIM_NODES sets the node of each world rank instead
 * ("block:K", "rr:K" or a list "0,0,1,1,1"; compose/node.h), so one
 * machine can play several nodes. */
#define _GNU_SOURCE
#include "shim/shim.h"
#include "algorithms/compose/node.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int *world_node; /* node name (lowest world rank there) of each world rank */
static int job_ranks_per_core = 1;

/* Where a rank runs: its node, and the CPUs it may run on (their number,
 * and the set folded onto 256 bits). */
struct rank_place {
    int node, cpus;
    uint64_t mask[4];
};

static void my_cpus(struct rank_place *place)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set)) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        place->cpus = online > 0 ? (int)online : 1;
        return;
    }
    place->cpus = CPU_COUNT(&set);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set))
            place->mask[(cpu / 64) % 4] |= 1ull << (cpu % 64);
}

/* The ranks per core of the node named node: its ranks over the CPUs any
 * of them may run on, or over cores where the user gave them. */
static int node_ranks_per_core(const struct rank_place *all, int n, int node, int cores)
{
    uint64_t mask[4] = {0};
    int ranks = 0, cpus = 0, capacity;
    for (int i = node; i < n; i++) {
        if (all[i].node != node)
            continue;
        ranks++;
        cpus = all[i].cpus > cpus ? all[i].cpus : cpus;
        for (int w = 0; w < 4; w++)
            mask[w] |= all[i].mask[w];
    }
    capacity = 0;
    for (int w = 0; w < 4; w++)
        capacity += __builtin_popcountll(mask[w]);
    capacity = cores > 0 ? cores : capacity > cpus ? capacity : cpus;
    capacity = capacity > 0 ? capacity : 1;
    return (ranks + capacity - 1) / capacity;
}

/* The most loaded node's, at most 255 (a byte of the selection key). */
static int ranks_per_core(const struct rank_place *all, int n)
{
    int worst = 1, cores = settings.cores ? atoi(settings.cores) : 0;
#ifdef COLLSHIM_SMPI
    if (cores <= 0)
        return 1;
#endif
    for (int i = 0; i < n; i++)
        if (all[i].node == i) { /* a node is named by its lowest world rank */
            int r = node_ranks_per_core(all, n, i, cores);
            worst = r > worst ? r : worst;
        }
    return worst > 255 ? 255 : worst;
}

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
    struct rank_place mine = {0}, *all = calloc((size_t)world_size, sizeof *all);
    int err;
    world_node = malloc((size_t)world_size * sizeof *world_node);
    if (!world_node || !all) {
        free(all);
        return MPI_ERR_NO_MEM;
    }
    my_cpus(&mine);
    if ((err = my_node_name(world_rank, &mine.node)) ||
        (err = vendor.allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE,
                                MPI_COMM_WORLD))) {
        free(all);
        return err;
    }
    for (int i = 0; i < world_size; i++)
        world_node[i] = all[i].node;
    job_ranks_per_core = ranks_per_core(all, world_size);
    free(all);
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
    a->shape.ranks_per_core = (unsigned char)job_ranks_per_core;
}

int layout_ranks_per_core(void) { return job_ranks_per_core; }

struct node_layout *layout_world_build(int rank, int size)
{
    return world_node ? node_layout_build(world_node, size, rank, NULL) : NULL;
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
