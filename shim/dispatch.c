/* dispatch.c - one collective call: context, checks, selection (select/),
 * run, errors. Data flows one way: entry point -> context -> selection ->
 * algorithm. */
#include "shim/shim.h"
#include "select/learn.h"
#include "algorithms/registry.h"
#include "engine/sched.h"
#include "engine/buf.h"

#include <pthread.h>
#include <stdio.h>

/* What the algorithms are handed (coll_args.env). */
const struct coll_env shim_env = {.step = select_step, .transport = &shim_transport};

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
    select_count(alg_index);
    if (report_enabled)
        t0 = PMPI_Wtime();
    if (test_delay_on)
        test_delay(alg_index);
    if (registry_is_vendor(alg))
        err = vendor_run(a);
    else if (settings.schedule_blocking)
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
    if (learn_enabled && !a->remote_size) { /* blocking intracommunicator calls learn */
        struct learn_turn turn;
        int alg = learn_choose(&ctx->learn, a, &turn);
        if (alg >= 0) {
            select_note_source(alg, SELECT_BY_LEARNING);
            int err = dispatch_run(a, alg);
            learn_ran(&turn, a, err);
            return err;
        }
    }
    return dispatch_run(a, select_choose(a, 0, 0).alg);
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
enum route {
    ROUTE_NATIVE,  /* collshim's selection runs it */
    ROUTE_VENDOR,  /* the vendor, untouched: collshim off, bypassed or not set up */
    ROUTE_FORWARD, /* the vendor, on collshim's behalf: no context yet, or a forwarded one */
    ROUTE_ERROR,
    ROUTE_BROKEN
};

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
    if (!shim_ready() || settings.disable || shim_bypass || comm == MPI_COMM_NULL)
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
    select_call_facts(a);
    if ((*err = a->remote_size ? validate_inter_args(a) : validate_args(a)))
        return ROUTE_ERROR;
    if (!ctx && !may_agree) {
        if (settings.verbose)
            verbose_no_context(a);
        return ROUTE_FORWARD;
    }
    if (!ctx && (*err = ctx_get(comm, &ctx)))
        return ROUTE_ERROR;
    if (ctx->forwarded) {
        if (settings.verbose)
            verbose_forward(ctx);
        return ROUTE_FORWARD;
    }
    a->comm = ctx_shadow();
    a->env = &shim_env;
    a->peers = ctx->peers;
    a->local_peers = ctx->local_peers;
    layout_attach(a, ctx);
    a->bytes = select_key_bytes(a);
    *ctxp = ctx;
    return ROUTE_NATIVE;
}

int shim_collective(struct coll_args *a, MPI_Comm comm)
{
    struct comm_ctx *ctx = NULL;
    int err = MPI_SUCCESS;
    switch (route_call(a, comm, &ctx, 1, &err)) {
    case ROUTE_BROKEN: return err;
    case ROUTE_ERROR: return shim_raise(a, err);
    case ROUTE_VENDOR:
    case ROUTE_FORWARD: return vendor_run(a);
    default: break;
    }
    a->tag = ctx->tag + (int)a->coll;
    err = run_selected(a, ctx);
    return err < 0 ? -err : shim_raise(a, err);
}

/* A nonblocking or persistent call the vendor runs on collshim's behalf.
 * A persistent one goes to the vendor's persistent form only where that
 * works (vendor_has_init): elsewhere each start runs the vendor's
 * nonblocking form, as for a persistent call collshim's table gives the
 * vendor. */
static int forward_icollective(struct coll_args *a, enum nbc_kind kind, MPI_Info info,
                               MPI_Request *req)
{
    if (kind != NBC_PERSISTENT)
        return vendor_start(a, req);
    if (vendor_has_init(a))
        return vendor_init(a, info, req);
    a->env = &shim_env;
    return shim_raise(a, nbc_vendor_scheduled(a, NULL, registry_vendor(a->coll), req));
}

int shim_icollective(struct coll_args *a, MPI_Comm comm, enum nbc_kind kind, MPI_Info info,
                     MPI_Request *req)
{
    struct comm_ctx *ctx = NULL;
    int err = MPI_SUCCESS;
    switch (route_call(a, comm, &ctx, 0, &err)) {
    case ROUTE_BROKEN: return err;
    case ROUTE_ERROR: return shim_raise(a, err);
    case ROUTE_VENDOR:
        return kind == NBC_PERSISTENT ? vendor_init(a, info, req) : vendor_start(a, req);
    case ROUTE_FORWARD: return forward_icollective(a, kind, info, req);
    default: break;
    }
    struct tune_choice choice = select_choose(a, 1, 0);
    int vendor = registry_is_vendor(&registry_table[choice.alg]);
    if (vendor && kind == NBC_PERSISTENT)
        return vendor_has_init(a) ? nbc_vendor_persistent(a, choice.alg, info, req)
                                        : nbc_vendor_scheduled(a, ctx, choice.alg, req);
    if (vendor) {
        select_count(choice.alg);
        return vendor_start(a, req);
    }
    err = nbc_begin(a, ctx, choice.alg, kind, req);
    return shim_raise(a, err);
}
