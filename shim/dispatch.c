/* dispatch.c - one collective call: context, checks, key, selection, run.
 * Data flows one way: entry point -> context -> selector -> algorithm. */
#include "shim/shim.h"
#include "shim/learn.h"
#include "algorithms/registry.h"
#include "engine/sched.h"
#include "engine/buf.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

unsigned long long dispatch_calls[COLLSHIM_MAX_ALGORITHMS];
SHIM_TLS int dispatch_last_alg = -1;

static int has_op(enum coll_id c)
{
    return c == COLL_reduce || c == COLL_allreduce || c == COLL_reduce_scatter ||
           c == COLL_reduce_scatter_block || c == COLL_scan || c == COLL_exscan;
}

void dispatch_call_facts(struct coll_args *a)
{
    a->in_place = a->sendbuf == MPI_IN_PLACE ||
                  ((a->coll == COLL_scatter || a->coll == COLL_scatterv) &&
                   a->recvbuf == MPI_IN_PLACE);
    a->commutative = 1;
    a->predefined_op = 1;
    /* an intercommunicator reduce's MPI_PROC_NULL ranks: the op is not significant */
    int idle = a->remote_size && a->coll == COLL_reduce && a->root == MPI_PROC_NULL;
    if (has_op(a->coll) && a->op != MPI_OP_NULL && !idle) {
        PMPI_Op_commutative(a->op, &a->commutative);
        a->predefined_op = buf_op_is_predefined(a->op);
    }
}

/* Rooted collectives are in place at the root only, so "in place" cannot
 * be part of their key: every rank must select the same algorithm. */
static int key_in_place(const struct coll_args *a)
{
    switch (a->coll) {
    case COLL_reduce: case COLL_gather: case COLL_gatherv: case COLL_scatter:
    case COLL_scatterv:
        return 0;
    default:
        return a->in_place && !a->alias_in_place;
    }
}

struct coll_key dispatch_key(const struct coll_args *a)
{
    struct coll_key k = {.coll = a->coll, .np = a->size, .bytes = a->bytes,
                         .count = key_count(a), .commutative = a->commutative != 0,
                         .predefined_op = a->predefined_op != 0,
                         .in_place = key_in_place(a) != 0, .shape = a->shape};
    if (a->remote_size) { /* both groups must read the same key */
        k.inter = 1;
        k.np = a->size < a->remote_size ? a->size : a->remote_size;
        k.remote = a->size < a->remote_size ? a->remote_size : a->size;
    }
    return k;
}

/* COLLSHIM_VERBOSE: one line the first time each (np, collective,
 * algorithm) runs in this process, from rank 0 of the communicator. */
static void verbose_line(const struct coll_args *a, int alg)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static struct { int np, nodes, alg; } *seen;
    static int nseen, capseen;
    int found = 0;
    if (a->rank != 0)
        return;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nseen && !found; i++)
        found = seen[i].np == a->size && seen[i].nodes == a->shape.nodes && seen[i].alg == alg;
    if (!found) {
        if (nseen == capseen) {
            capseen = capseen ? 2 * capseen : 64;
            void *grown = realloc(seen, (size_t)capseen * sizeof *seen);
            if (!grown) {
                pthread_mutex_unlock(&lock);
                return;
            }
            seen = grown;
        }
        seen[nseen].np = a->size;
        seen[nseen].nodes = a->shape.nodes;
        seen[nseen++].alg = alg;
        if (a->remote_size) /* no node shape on an intercommunicator */
            fprintf(stderr, "collshim: %s inter np=%d remote=%d bytes=%llu -> %s\n",
                    coll_name(a->coll), a->size, a->remote_size,
                    (unsigned long long)a->bytes, registry_table[alg].name);
        else
            fprintf(stderr, "collshim: %s np=%d bytes=%llu nodes=%d ppn=%d%s%s -> %s\n",
                    coll_name(a->coll), a->size, (unsigned long long)a->bytes, a->shape.nodes,
                    a->shape.ppn, a->shape.equal ? "" : " unequal",
                    a->shape.block ? "" : " interleaved", registry_table[alg].name);
    }
    pthread_mutex_unlock(&lock);
}

void dispatch_count(int alg)
{
    __atomic_fetch_add(&dispatch_calls[alg], 1, __ATOMIC_RELAXED);
    dispatch_last_alg = alg;
}

struct tune_choice dispatch_select(struct coll_args *a, int nonblocking)
{
    return dispatch_select_key(a, nonblocking, 0);
}

static int same_key(const struct coll_key *x, const struct coll_key *y)
{
    return x->coll == y->coll && x->np == y->np && x->bytes == y->bytes &&
           x->count == y->count && x->commutative == y->commutative &&
           x->predefined_op == y->predefined_op && x->in_place == y->in_place &&
           x->nonblocking == y->nonblocking && x->sub == y->sub &&
           x->shape.nodes == y->shape.nodes && x->shape.ppn == y->shape.ppn &&
           x->shape.equal == y->shape.equal && x->shape.block == y->shape.block &&
           x->inter == y->inter && x->remote == y->remote;
}

/* The choices this thread made last, one per slot, valid while the tables
 * are those of `generation` (0: empty). A program repeats a few keys; the
 * walk over the rules and their restrictions was about a quarter of an
 * 8-byte call under the built-in table (perf, np 1), a lookup here costs a
 * key comparison. */
#define REMEMBERED 8
static SHIM_TLS struct remembered_choice {
    struct coll_key key;
    struct tune_choice choice;
    unsigned long generation;
} remembered[REMEMBERED];

static struct tune_choice select_walk(const struct coll_key *key)
{
    const struct tune_table *tables[3];
    config_tables_enter(tables);
    struct tune_choice choice = tune_select(tables, 3, key);
    if (key->sub && !registry_can_run(&registry_table[choice.alg], key, NULL))
        choice = tune_select(&tables[2], 1, key);
    config_tables_leave();
    choice.rule = NULL; /* the table may be freed once left */
    return choice;
}

static struct tune_choice select_remembered(const struct coll_key *key)
{
    unsigned long generation = __atomic_load_n(&shim_cfg.tables_generation, __ATOMIC_ACQUIRE) + 1;
    uint64_t h = (uint64_t)key->coll * 0x9e3779b97f4a7c15ull ^ key->bytes * 0xff51afd7ed558ccdull ^
                 (uint64_t)key->np;
    struct remembered_choice *slot = &remembered[(h ^ h >> 29) % REMEMBERED];
    if (slot->generation == generation && same_key(&slot->key, key))
        return slot->choice;
    slot->choice = select_walk(key);
    slot->key = *key;
    slot->generation = generation;
    return slot->choice;
}

struct tune_choice dispatch_select_key(struct coll_args *a, int nonblocking, int sub)
{
    struct coll_key key = dispatch_key(a);
    key.nonblocking = nonblocking != 0;
    key.sub = sub != 0;
    struct tune_choice choice = select_remembered(&key);
    a->params = choice.params;
    if (shim_cfg.verbose)
        verbose_line(a, choice.alg);
    return choice;
}

/* COLLSHIM_SCHEDULE_BLOCKING=1: record the algorithm and run the schedule
 * to completion, as a nonblocking call and its wait would (a check of the
 * schedules with every blocking test; slower, since it allocates). */
static int run_scheduled(struct coll_args *a, int alg)
{
    struct sched *s;
    int err = sched_build(a, alg, registry_table[alg].run, &s);
    if (err)
        return err;
    while (!sched_advance(s))
        nbc_progress();
    err = s->err;
    sched_free(s);
    return err;
}

int dispatch_run(struct coll_args *a, int alg_index)
{
    const struct algorithm *alg = &registry_table[alg_index];
    double t0 = 0;
    int err;
    dispatch_count(alg_index);
    if (report_enabled)
        t0 = PMPI_Wtime();
    if (learn_delay_on)
        learn_test_delay(alg_index);
    if (registry_is_vendor(alg))
        err = vendor_run(a);
    else if (shim_cfg.schedule_blocking)
        err = run_scheduled(a, alg_index);
    else
        err = alg->run(a);
    if (report_enabled)
        report_record(a, alg_index, PMPI_Wtime() - t0);
    /* The vendor's collective already raised its own errors. */
    return registry_is_vendor(alg) ? -err : err;
}

static int run_selected(struct coll_args *a, struct comm_ctx *ctx)
{
    if (learn_enabled && !a->remote_size) /* blocking intracommunicator calls learn */
        return learn_run(a, ctx);
    return dispatch_run(a, dispatch_select(a, 0).alg);
}

/* Under a fatal error handler, the vendor's abort message would name
 * MPI_Comm_call_errhandler: name the collective the user called, then abort
 * as the handler would. */
static int handler_is_fatal(MPI_Comm comm)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int fatal;
    if (PMPI_Comm_get_errhandler(comm, &eh))
        return 0;
    fatal = eh == MPI_ERRORS_ARE_FATAL;
#ifdef MPI_ERRORS_ABORT
    fatal |= eh == MPI_ERRORS_ABORT;
#endif
    PMPI_Errhandler_free(&eh);
    return fatal;
}

static const char *class_name(int cls)
{
    switch (cls) {
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT";
    case MPI_ERR_OP: return "MPI_ERR_OP";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM";
    default: return "MPI error";
    }
}

static void abort_naming_call(const struct coll_args *a, int err)
{
    char comm_name[MPI_MAX_OBJECT_NAME] = "", msg[MPI_MAX_ERROR_STRING] = "";
    const char *coll = coll_name(a->coll);
    int len = 0, cls = MPI_ERR_OTHER;
    PMPI_Comm_get_name(a->user_comm, comm_name, &len);
    PMPI_Error_string(err, msg, &len);
    PMPI_Error_class(err, &cls);
    fprintf(stderr, "collshim: error in MPI_%c%s on communicator %s, rank %d: %s%s%s\n"
                    "collshim: its error handler is MPI_ERRORS_ARE_FATAL: aborting the job\n",
            coll[0] - 'a' + 'A', coll + 1, comm_name[0] ? comm_name : "(unnamed)", a->rank,
            strncmp(msg, "MPI_ERR", 7) ? class_name(cls) : "", strncmp(msg, "MPI_ERR", 7) ? ": " : "",
            msg);
    /* The launcher stops forwarding output once a rank aborts: MPICH's
     * hydra lost this message in about one run of three when the other
     * rank aborted first. Give it 200 ms to pass the line on. */
    fflush(stderr);
    struct timespec pass_on = {0, 200000000}; /* a variable: SMPI makes nanosleep a macro */
    nanosleep(&pass_on, NULL);
    PMPI_Abort(a->user_comm, cls ? cls : 1);
}

/* Raise err once, on the caller's communicator. */
int dispatch_raise(const struct coll_args *a, int err)
{
    if (err == MPI_SUCCESS)
        return err;
    if (handler_is_fatal(a->user_comm))
        abort_naming_call(a, err);
    PMPI_Comm_call_errhandler(a->user_comm, err);
    return err;
}

/* COLLSHIM_VERBOSE: why a communicator goes to the vendor, once per reason. */
static void verbose_forward(const struct comm_ctx *ctx)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static const char *said[8];
    int i = 0;
    if (ctx->rank != 0)
        return;
    pthread_mutex_lock(&lock);
    while (i < 8 && said[i] && said[i] != ctx->forwarded)
        i++;
    if (i < 8 && !said[i]) {
        said[i] = ctx->forwarded;
        fprintf(stderr, "collshim: a communicator of %d ranks goes to the vendor: %s\n",
                ctx->size, ctx->forwarded);
    }
    pthread_mutex_unlock(&lock);
}

/* Where a call goes. The checks are local and come before any
 * communication, the context's agreement included, so a bad argument on
 * every rank fails on every rank and no rank is left waiting. */
enum route { ROUTE_NATIVE, ROUTE_VENDOR, ROUTE_ERROR, ROUTE_BROKEN };

/* COLLSHIM_VERBOSE: once, that a nonblocking call met a communicator
 * without a context. */
static void verbose_no_context(const struct coll_args *a)
{
    static int said;
    if (a->rank == 0 && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "collshim: a nonblocking collective is the first collective on a "
                        "communicator of %d ranks: the vendor runs it; collshim runs them from "
                        "the communicator's first blocking collective on\n", a->size);
}

/* may_agree: a blocking call may make the context (a blocking agreement).
 * A nonblocking or persistent call must not block until the other members
 * call it, so on a communicator without a context it goes to the vendor;
 * every rank decides alike, since contexts are made at the same blocking
 * collective everywhere (MPI_COMM_WORLD's in MPI_Init). */
static enum route route_call(struct coll_args *a, MPI_Comm comm, struct comm_ctx **ctxp,
                             int may_agree, int *err)
{
    struct comm_ctx *ctx;
    a->user_comm = comm;
    if (!shim_ready() || shim_cfg.disabled || shim_bypass || comm == MPI_COMM_NULL)
        return vendor_resolve() ? (*err = MPI_ERR_INTERN, ROUTE_BROKEN) : ROUTE_VENDOR;
    if ((*err = ctx_find(comm, &ctx)))
        return ROUTE_ERROR;
    a->remote_size = 0;
    if (ctx) {
        a->rank = ctx->rank;
        a->size = ctx->size;
        a->remote_size = ctx->is_inter ? ctx->remote_size : 0;
    } else {
        int inter = 0;
        PMPI_Comm_rank(comm, &a->rank);
        PMPI_Comm_size(comm, &a->size);
        PMPI_Comm_test_inter(comm, &inter);
        if (inter)
            PMPI_Comm_remote_size(comm, &a->remote_size);
    }
    dispatch_call_facts(a);
    if ((*err = validate_args(a)))
        return ROUTE_ERROR;
    if (!ctx && !may_agree) {
        if (shim_cfg.verbose)
            verbose_no_context(a);
        return ROUTE_VENDOR;
    }
    if (!ctx && (*err = ctx_get(comm, &ctx)))
        return ROUTE_ERROR;
    if (ctx->forwarded) {
        if (shim_cfg.verbose)
            verbose_forward(ctx);
        return ROUTE_VENDOR;
    }
    a->comm = ctx_shadow();
    a->env = &shim_env;
    a->peers = ctx->peers;
    a->local_peers = ctx->local_peers;
    layout_attach(a, ctx);
    a->bytes = key_bytes(a);
    *ctxp = ctx;
    return ROUTE_NATIVE;
}

int shim_collective(struct coll_args *a, MPI_Comm comm)
{
    struct comm_ctx *ctx = NULL;
    int err = MPI_SUCCESS;
    switch (route_call(a, comm, &ctx, 1, &err)) {
    case ROUTE_BROKEN: return err;
    case ROUTE_ERROR: return dispatch_raise(a, err);
    case ROUTE_VENDOR: return vendor_run(a);
    default: break;
    }
    a->tag = ctx->tag + (int)a->coll;
    err = run_selected(a, ctx);
    return err < 0 ? -err : dispatch_raise(a, err);
}

int shim_icollective(struct coll_args *a, MPI_Comm comm, enum nbc_kind kind, MPI_Info info,
                     MPI_Request *req)
{
    struct comm_ctx *ctx = NULL;
    int err = MPI_SUCCESS;
    switch (route_call(a, comm, &ctx, 0, &err)) {
    case ROUTE_BROKEN: return err;
    case ROUTE_ERROR: return dispatch_raise(a, err);
    case ROUTE_VENDOR:
        return kind == NBC_PERSISTENT ? vendor_init(a, info, req) : vendor_start(a, req);
    default: break;
    }
    struct tune_choice choice = dispatch_select(a, 1);
    int vendor = registry_is_vendor(&registry_table[choice.alg]);
    if (vendor && kind == NBC_PERSISTENT)
        return vendor_has_init(a->coll) ? nbc_vendor_persistent(a, choice.alg, info, req)
                                        : nbc_vendor_scheduled(a, ctx, choice.alg, req);
    if (vendor) {
        dispatch_count(choice.alg);
        return vendor_start(a, req);
    }
    err = nbc_begin(a, ctx, choice.alg, kind, req);
    return dispatch_raise(a, err);
}
