/* context.c - per-communicator context. All shim traffic of every user
 * communicator runs on ONE private communicator, the world shadow (a split
 * of MPI_COMM_WORLD made in MPI_Init), so a user's wildcard receive never
 * matches a shim message and the shim takes one communicator from the
 * user's budget whatever the number of user communicators.
 *
 * A context maps the user communicator onto the shadow: the world rank of
 * each of its ranks (peers; NULL when it is MPI_COMM_WORLD's numbering)
 * and a tag id agreed by its ranks at its first collective, so collectives
 * on different communicators that share ranks never cross-match, even
 * concurrently from different threads. Ids are the lowest free in every
 * member's view: one vendor MPI_Allreduce(MPI_BOR) over a window of the
 * members' used-id bitmaps, on the user communicator itself (the caller is
 * inside a collective on it, so nothing else can run on it). Under
 * MPI_THREAD_MULTIPLE two communicators may agree at once on ranks they
 * share; the claim is then confirmed by a second allreduce and retried.
 * doc/design-notes.md has the reasoning.
 *
 * Contexts are cached under a keyval (MPI_COMM_NULL_COPY_FN: a dup gets its
 * own) whose delete callback releases the id. A communicator that cannot
 * get one (no free id, ranks outside MPI_COMM_WORLD) is forwarded to the
 * vendor. An intercommunicator's context holds both groups' world ranks
 * (peers: the remote group, the ranks point-to-point names there;
 * local_peers: its own group) and an id agreed by both groups. */
#include "shim/shim.h"
#include "select/learn.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ID_MAX 65536                 /* ids ever handed out */
#define ID_WINDOW 1024               /* ids agreed on per allreduce */
#define ID_WORDS (ID_WINDOW / 64)
#define ID_WINDOWS (ID_MAX / ID_WINDOW) /* 64: one bit each in a uint64_t */

static int ctx_keyval = MPI_KEYVAL_INVALID;
static MPI_Comm world_shadow = MPI_COMM_NULL;
static MPI_Group world_group = MPI_GROUP_NULL;
static int world_size, id_limit, threads_multiple;
static uint64_t used_ids[ID_MAX / 64];
static pthread_mutex_t id_lock = PTHREAD_MUTEX_INITIALIZER;
int ctx_live;

/* ---- the id bitmap (under id_lock) ---- */

static int id_used(int id) { return (int)(used_ids[id / 64] >> (id % 64)) & 1; }
static void id_set(int id) { used_ids[id / 64] |= 1ull << (id % 64); }
static void id_clear(int id) { used_ids[id / 64] &= ~(1ull << (id % 64)); }

static int id_window_full(int w)
{
    for (int i = 0; i < ID_WORDS; i++)
        if (~used_ids[w * ID_WORDS + i])
            return 0;
    return 1;
}

/* This rank's view: window w's used bits, then the mask of full windows. */
static void id_snapshot(int w, uint64_t view[ID_WORDS + 1])
{
    pthread_mutex_lock(&id_lock);
    memcpy(view, &used_ids[w * ID_WORDS], ID_WORDS * sizeof(uint64_t));
    view[ID_WORDS] = 0;
    for (int v = 0; v < ID_WINDOWS; v++)
        view[ID_WORDS] |= (uint64_t)id_window_full(v) << v;
    pthread_mutex_unlock(&id_lock);
}

/* The pick-th id free in every view of window w (wrapping), or -1. */
static int id_pick(int w, const uint64_t common[ID_WORDS], int pick)
{
    int nfree = 0, first = w * ID_WINDOW;
    for (int i = 0; i < ID_WINDOW && first + i < id_limit; i++)
        nfree += !((common[i / 64] >> (i % 64)) & 1);
    if (nfree == 0)
        return -1;
    pick %= nfree;
    for (int i = 0; i < ID_WINDOW && first + i < id_limit; i++)
        if (!((common[i / 64] >> (i % 64)) & 1) && pick-- == 0)
            return first + i;
    return -1;
}

/* Claim id locally; 1 when it was still free here. */
static int id_claim(int id)
{
    pthread_mutex_lock(&id_lock);
    int ok = !id_used(id);
    if (ok)
        id_set(id);
    pthread_mutex_unlock(&id_lock);
    return ok;
}

static void id_release(int id)
{
    pthread_mutex_lock(&id_lock);
    id_clear(id);
    pthread_mutex_unlock(&id_lock);
}

/* Under MPI_THREAD_MULTIPLE another communicator may have claimed the same
 * id on some member meanwhile: all members must confirm their claim. */
static int id_confirm(MPI_Comm comm, int id, int *all_ok)
{
    int ok = id_claim(id), err;
    *all_ok = ok;
    if (!threads_multiple)
        return MPI_SUCCESS;
    err = vendor.allreduce(MPI_IN_PLACE, all_ok, 1, MPI_INT, MPI_MIN, comm);
    if ((err || !*all_ok) && ok)
        id_release(id);
    return err;
}

/* Agree with the other ranks of comm on an id free at all of them; -1 in
 * *id when every id is taken somewhere. */
static int id_agree(MPI_Comm comm, int *id)
{
    uint64_t view[ID_WORDS + 1], skip = 0;
    int err, all_ok;
    *id = -1;
    for (int w = 0, attempt = 0; w * ID_WINDOW < id_limit;) {
        if ((skip >> w) & 1) {
            w++;
            continue;
        }
        id_snapshot(w, view);
        err = vendor.allreduce(MPI_IN_PLACE, view, ID_WORDS + 1, MPI_UINT64_T, MPI_BOR, comm);
        if (err)
            return err;
        skip |= view[ID_WORDS];
        int cand = id_pick(w, view, attempt);
        if (cand < 0) {
            w++;
            continue;
        }
        if ((err = id_confirm(comm, cand, &all_ok)))
            return err;
        if (all_ok) {
            *id = cand;
            return MPI_SUCCESS;
        }
        attempt++; /* a concurrent claim won somewhere: try another id */
    }
    return MPI_SUCCESS;
}

/* ---- rank translation ---- */

/* World rank of each of the n ranks of group into *out (malloc'd); NULL
 * when they are MPI_COMM_WORLD's own numbering and identity_ok; *outside
 * when a rank is not in the world. */
static int map_group(MPI_Group group, int n, int identity_ok, int **out, int *outside)
{
    int err, identity = identity_ok && n == world_size;
    int *ranks = calloc(2 * (size_t)n + 1, sizeof(int));
    *out = NULL;
    *outside = 0;
    if (!ranks)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    err = PMPI_Group_translate_ranks(group, n, ranks, world_group, ranks + n);
    for (int i = 0; i < n && !err; i++) {
        *outside |= ranks[n + i] == MPI_UNDEFINED;
        identity &= ranks[n + i] == i;
    }
    if (err || identity || *outside) {
        free(ranks);
        return err;
    }
    memmove(ranks, ranks + n, (size_t)n * sizeof(int));
    *out = realloc(ranks, (size_t)n * sizeof(int) + 1);
    if (!*out)
        *out = ranks;
    return MPI_SUCCESS;
}

/* World rank of each rank of comm into ctx->peers; NULL when the numbering
 * is MPI_COMM_WORLD's; -1 in *outside when a rank is not in the world. */
static int map_peers(MPI_Comm comm, struct comm_ctx *ctx, int *outside)
{
    MPI_Group group;
    int err = PMPI_Comm_group(comm, &group);
    if (err)
        return err;
    err = map_group(group, ctx->size, 1, &ctx->peers, outside);
    PMPI_Group_free(&group);
    return err;
}

/* ---- contexts ---- */

/* Every context freed bumps the generation, which voids each thread's
 * cached lookup (ctx_find): a communicator handle freed and reused for a
 * new communicator can then never return the old context. */
static unsigned long ctx_generation;

static void ctx_destroy(struct comm_ctx *ctx)
{
    __atomic_fetch_add(&ctx_generation, 1, __ATOMIC_RELEASE);
    if (ctx->id >= 0)
        id_release(ctx->id);
    free(ctx->peers);
    free(ctx->layout);
    free(ctx->local_peers);
    learn_ctx_free(ctx->learn);
    free(ctx);
}

static int ctx_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)extra;
    ctx_destroy(value);
    __atomic_fetch_sub(&ctx_live, 1, __ATOMIC_RELAXED);
    return MPI_SUCCESS;
}

int ctx_init(int collective_ok)
{
    int *tag_ub, found = 0, provided = MPI_THREAD_SINGLE, rank, err;
    if ((err = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, ctx_delete, &ctx_keyval, NULL)))
        return err;
    if (!collective_ok) /* set up outside MPI_Init: no shadow can be made now */
        return MPI_SUCCESS;
    PMPI_Query_thread(&provided);
    threads_multiple = provided == MPI_THREAD_MULTIPLE;
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
    /* tag = id * CTX_TAG_SPAN + what the algorithm adds, at most tag_ub */
    id_limit = found ? (int)((*tag_ub + 1LL) / CTX_TAG_SPAN) : 32768 / CTX_TAG_SPAN;
    if (id_limit > ID_MAX)
        id_limit = ID_MAX;
    /* Testing aid: fewer ids, to reach the end of them cheaply. */
    const char *test_ids = settings.test_tag_ids;
    if (test_ids && atoi(test_ids) > 0 && atoi(test_ids) < id_limit)
        id_limit = atoi(test_ids);
    if ((err = PMPI_Comm_group(MPI_COMM_WORLD, &world_group)))
        return err;
    if ((err = PMPI_Comm_split(MPI_COMM_WORLD, 0, rank, &world_shadow)) ||
        (err = PMPI_Comm_set_errhandler(world_shadow, MPI_ERRORS_RETURN)))
        return err;
    /* MPI_COMM_WORLD's context now, while every rank is in MPI_Init: a
     * nonblocking collective that is the first collective on it (the
     * barrier of a dynamic sparse exchange) must not wait for the id
     * agreement, which is a blocking collective. */
    struct comm_ctx *world;
    return ctx_get(MPI_COMM_WORLD, &world);
}

MPI_Comm ctx_shadow(void) { return world_shadow; }

/* An intercommunicator: the world ranks of both groups, and one tag id
 * agreed by both groups, over a transient merge of the two (freed at once,
 * so it costs no communicator of the user's budget for longer than this
 * call). Either every rank of both groups gets the id or none does: the
 * groups see the same facts (the world, both groups). */
static int ctx_fill_inter(MPI_Comm comm, struct comm_ctx *ctx)
{
    MPI_Group local, remote;
    MPI_Comm merged = MPI_COMM_NULL;
    int outside_local = 0, outside_remote = 0, err;
    PMPI_Comm_remote_size(comm, &ctx->remote_size);
    if ((err = PMPI_Comm_group(comm, &local)))
        return err;
    if ((err = PMPI_Comm_remote_group(comm, &remote))) {
        PMPI_Group_free(&local);
        return err;
    }
    err = map_group(local, ctx->size, 0, &ctx->local_peers, &outside_local);
    if (!err)
        err = map_group(remote, ctx->remote_size, 0, &ctx->peers, &outside_remote);
    PMPI_Group_free(&local);
    PMPI_Group_free(&remote);
    if (err)
        return err;
    if (outside_local || outside_remote) {
        ctx->forwarded = "it has ranks outside MPI_COMM_WORLD";
        return MPI_SUCCESS;
    }
    if ((err = PMPI_Intercomm_merge(comm, 0, &merged)))
        return err;
    err = id_agree(merged, &ctx->id);
    PMPI_Comm_free(&merged);
    if (!err && ctx->id < 0)
        ctx->forwarded = "every tag id is taken by a live communicator";
    ctx->tag = ctx->id < 0 ? 0 : ctx->id * CTX_TAG_SPAN;
    return err;
}

/* Fill ctx for comm; ctx->forwarded says why it goes to the vendor. Every
 * rank of comm takes the same branches (the world and the group are common
 * to them), so either all or none agree on an id. */
static int ctx_fill(MPI_Comm comm, struct comm_ctx *ctx)
{
    int outside = 0, err;
    ctx->id = -1;
    PMPI_Comm_test_inter(comm, &ctx->is_inter);
    PMPI_Comm_rank(comm, &ctx->rank);
    PMPI_Comm_size(comm, &ctx->size);
    if (ctx->is_inter && world_shadow != MPI_COMM_NULL)
        return ctx_fill_inter(comm, ctx);
    if (world_shadow == MPI_COMM_NULL)
        ctx->forwarded = "the shim was set up outside MPI_Init and has no communicator of its own";
    else if ((err = map_peers(comm, ctx, &outside)))
        return err;
    else if (outside)
        ctx->forwarded = "it has ranks outside MPI_COMM_WORLD";
    else if ((err = id_agree(comm, &ctx->id)))
        return err;
    else if (ctx->id < 0)
        ctx->forwarded = "every tag id is taken by a live communicator";
    ctx->tag = ctx->id < 0 ? 0 : ctx->id * CTX_TAG_SPAN;
    return MPI_SUCCESS;
}

static int ctx_create(MPI_Comm comm, struct comm_ctx **out)
{
    static unsigned long long serials;
    struct comm_ctx *ctx = calloc(1, sizeof *ctx);
    int err;
    if (!ctx)
        return MPI_ERR_NO_MEM;
    ctx->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
    if ((err = ctx_fill(comm, ctx)) ||
        (err = PMPI_Comm_set_attr(comm, ctx_keyval, ctx))) {
        ctx_destroy(ctx);
        return err;
    }
    __atomic_fetch_add(&ctx_live, 1, __ATOMIC_RELAXED);
    *out = ctx;
    return MPI_SUCCESS;
}

/* The last context this thread found, with the generation it was found
 * in: a program calls collectives on a few communicators, mostly the same
 * one, and the attribute lookup of Open MPI (a hash table behind
 * MPI_Comm_get_attr) was about a tenth of a forwarded 8-byte call. */
static SHIM_TLS struct {
    MPI_Comm comm;
    struct comm_ctx *ctx;
    unsigned long generation;
} last_found;

int ctx_find(MPI_Comm comm, struct comm_ctx **ctx)
{
    int found = 0, err;
    unsigned long generation = __atomic_load_n(&ctx_generation, __ATOMIC_ACQUIRE);
    if (last_found.ctx && last_found.comm == comm && last_found.generation == generation) {
        *ctx = last_found.ctx;
        return MPI_SUCCESS;
    }
    *ctx = NULL;
    if ((err = PMPI_Comm_get_attr(comm, ctx_keyval, ctx, &found)))
        return err;
    if (!found)
        *ctx = NULL;
    else {
        last_found.comm = comm;
        last_found.ctx = *ctx;
        last_found.generation = generation;
    }
    return MPI_SUCCESS;
}

int ctx_get(MPI_Comm comm, struct comm_ctx **ctx)
{
    int err = ctx_find(comm, ctx);
    return err || *ctx ? err : ctx_create(comm, ctx);
}

/* At MPI_Finalize: MPI_COMM_WORLD's context (never freed by the user),
 * the keyval, the world shadow and its group. */
void ctx_finalize(void)
{
    void *ctx;
    int found = 0;
    if (ctx_keyval == MPI_KEYVAL_INVALID)
        return;
    PMPI_Comm_get_attr(MPI_COMM_WORLD, ctx_keyval, &ctx, &found);
    if (found)
        PMPI_Comm_delete_attr(MPI_COMM_WORLD, ctx_keyval);
    PMPI_Comm_free_keyval(&ctx_keyval);
    if (world_shadow != MPI_COMM_NULL)
        PMPI_Comm_free(&world_shadow);
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
}
