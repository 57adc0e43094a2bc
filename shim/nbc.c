/* nbc.c - nonblocking and persistent collectives: a schedule (sched.h)
 * behind an ordinary MPI_Request, and the progress that drives schedules.
 *
 * The user's request is the MPI library's own, so MPI_Wait, MPI_Waitall
 * mixed with point-to-point requests, MPI_Request_get_status and the
 * Fortran bindings all work on it unchanged:
 *  - nonblocking: a generalized request (MPI_Grequest_start), completed
 *    with MPI_Grequest_complete when the schedule finishes; its query
 *    callback reports the schedule's error, if any;
 *  - persistent: a persistent receive of 0 bytes from this process on a
 *    private MPI_COMM_SELF copy, with a tag of its own; MPI_Start
 *    (intercepted, requests.c) starts the receive and the schedule, and
 *    the schedule's end sends the 0 bytes, so the library completes the
 *    request itself, keeps it inactive for the next MPI_Start and frees it.
 *
 * Progress: every active schedule is advanced (sched_advance) by whoever
 * calls nbc_progress: the intercepted completion calls (requests.c), Open
 * MPI's progress loop (opal_progress_register: any MPI call that polls,
 * MPI_Recv included), and the optional progress thread
 * (COLLSHIM_PROGRESS_THREAD=1). doc/schedules.md says why. */
#define _GNU_SOURCE
#include "config.h"
#include "shim/shim.h"
#include "algorithms/registry.h"
#include "engine/sched.h"
#include "engine/scratch.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* What makes two calls identical here, compared with memcmp: pointers and
 * handles first, then the (64-bit) counts, then ints, so the struct has no
 * padding in either MPI's handle size (the assertion), and every byte is
 * set by call_signature. A large-count call (MPI_Bcast_c) is a call of its
 * own: its vendor steps are the _c forms. */
struct call_signature {
    const void *sendbuf, *recvbuf;
    size_t seg;
    unsigned long long ctx_serial;
    MPI_Datatype datatype, sendtype, recvtype;
    MPI_Op op;
    MPI_Aint count, sendcount, recvcount;
    int coll, alg, root, in_place, alias_in_place, commutative, outstanding, large_count;
};
_Static_assert(sizeof(struct call_signature) ==
                   2 * sizeof(void *) + sizeof(size_t) + sizeof(unsigned long long) +
                       3 * sizeof(MPI_Datatype) + sizeof(MPI_Op) + 3 * sizeof(MPI_Aint) +
                       8 * sizeof(int),
               "struct call_signature has padding: memcmp would compare indeterminate bytes");

struct nbc_request {
    struct sched *s;        /* NULL: a persistent request of the vendor's (vendor_alg) */
    int vendor_alg;
    MPI_Request user;       /* what the user holds */
    enum nbc_kind kind;
    int active;             /* started and not finished */
    int done_tag;           /* persistent: tag of the completion message */
    int free_when_done;     /* persistent: freed by the user while active */
    int cacheable;          /* nonblocking: the schedule may serve an identical call */
    struct call_signature signature; /* of that call, when cacheable */
    struct nbc_request *next, *prev; /* the active list */
};

int nbc_active;             /* schedules on the active list */
int nbc_persistent_count;   /* persistent requests alive */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct nbc_request *active_head;
static struct nbc_request **persistent;  /* alive persistent requests */
static int npersistent_cap;
static MPI_Comm self_comm = MPI_COMM_NULL;
static int next_done_tag;

/* ---- progress hooks: Open MPI's loop and the progress thread ---- */

typedef int (*opal_callback)(void);
static int (*opal_unregister)(opal_callback);
static int hooks_ready;
static pthread_t progress_thread;
int nbc_thread_running;
static int thread_stop;

static int opal_hook(void)
{
    nbc_progress();
    return 0;
}

int nbc_waiters;

/* The progress thread advances schedules while the program computes. It
 * stands aside while nothing is in flight or while a thread of the program
 * is in a blocking completion call, which progresses them itself; each
 * poll is followed by sched_yield, and every 64th by a pause, so that on an
 * oversubscribed node it does not take the core from the ranks and, on
 * MPICH, the library's global lock from the program's own calls. Measured
 * on the virtual cluster, MPICH, 8 ranks on 2 cores: polling without rest
 * made collshim's nonblocking collectives 4-15x slower (results/overlap.md). */
#define PROGRESS_POLLS_PER_PAUSE 64

static int progress_wanted(void)
{
    return __atomic_load_n(&nbc_active, __ATOMIC_RELAXED) &&
           !__atomic_load_n(&nbc_waiters, __ATOMIC_RELAXED);
}

static void *progress_loop(void *unused)
{
    (void)unused;
    struct timespec idle = {0, 20000}; /* 20 us */
    unsigned polls = 0;
    while (!__atomic_load_n(&thread_stop, __ATOMIC_ACQUIRE)) {
        if (!progress_wanted()) {
            nanosleep(&idle, NULL);
            continue;
        }
        nbc_progress();
        if (++polls % PROGRESS_POLLS_PER_PAUSE)
            sched_yield();
        else
            nanosleep(&idle, NULL);
    }
    return NULL;
}

static void start_progress_thread(void)
{
    int level = MPI_THREAD_SINGLE, rank = 0;
    if (!settings.progress_thread)
        return;
    PMPI_Query_thread(&level);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef COLLSHIM_SMPI
    /* SMPI's ranks are simulated actors of one process: a real thread
     * calling MPI outside the simulation is not one of them. */
    if (rank == 0)
        fprintf(stderr, "collshim: COLLSHIM_PROGRESS_THREAD=1 is ignored under SMPI (its ranks "
                        "are simulated actors, not processes): schedules advance inside MPI "
                        "calls only\n");
    return;
#endif
    if (level != MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            fprintf(stderr, "collshim: COLLSHIM_PROGRESS_THREAD=1 needs MPI_THREAD_MULTIPLE; "
                            "the program initialised MPI with thread level %d: no progress "
                            "thread, schedules advance inside MPI calls only\n", level);
        return;
    }
    nbc_thread_running = pthread_create(&progress_thread, NULL, progress_loop, NULL) == 0;
}

static void setup_once(void)
{
    int (*reg)(opal_callback) = (int (*)(opal_callback))dlsym(RTLD_DEFAULT,
                                                              "opal_progress_register");
    opal_unregister = (int (*)(opal_callback))dlsym(RTLD_DEFAULT, "opal_progress_unregister");
    if (reg && opal_unregister && reg(opal_hook) != 0)
        opal_unregister = NULL;
    start_progress_thread();
    hooks_ready = 1;
}

/* Once, at the first nonblocking or persistent collective. */
static void hooks_setup(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, setup_once);
}

/* ---- the active list ---- */

static void link_active(struct nbc_request *r)
{
    pthread_mutex_lock(&lock);
    r->active = 1;
    r->prev = NULL;
    r->next = active_head;
    if (active_head)
        active_head->prev = r;
    active_head = r;
    __atomic_fetch_add(&nbc_active, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
}

static void unlink_active(struct nbc_request *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        active_head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    r->active = 0;
    __atomic_fetch_sub(&nbc_active, 1, __ATOMIC_RELEASE);
}

static void release(struct nbc_request *r)
{
    sched_free(r->s);
    scratch_put(r);
}

/* The schedule has finished: hand the result to the user's request. Not
 * under the lock: completing a freed generalized request frees r. */
static void finish(struct nbc_request *r)
{
    int err = r->s->err;
    if (err)
        shim_raise(&r->s->args, err);
    if (r->kind == NBC_NONBLOCKING) {
        PMPI_Grequest_complete(r->user);
        return;
    }
    /* A failed schedule sends one byte too many: the user's wait on the
     * 0-byte receive then fails (MPI_ERR_TRUNCATE) instead of succeeding;
     * the real error went to the communicator's handler above. The
     * receive is posted (the request was started), so the vendor's send
     * completes at once: no progress of ours is needed, nor wanted here,
     * inside progress. */
    char one = 0;
    vendor.send(&one, err ? 1 : 0, MPI_BYTE, 0, r->done_tag, self_comm);
    if (r->free_when_done)
        release(r);
}

void nbc_progress(void)
{
    struct nbc_request *done = NULL;
    if (!__atomic_load_n(&nbc_active, __ATOMIC_ACQUIRE))
        return;
    if (pthread_mutex_trylock(&lock)) /* another thread, or a nested call, is at it */
        return;
    for (struct nbc_request *r = active_head, *next; r; r = next) {
        next = r->next;
        if (!sched_advance(r->s))
            continue;
        unlink_active(r);
        r->next = done;
        done = r;
    }
    pthread_mutex_unlock(&lock);
    while (done) {
        struct nbc_request *r = done;
        done = r->next;
        finish(r);
    }
}

/* ---- nonblocking: a generalized request ---- */

static int query_status(void *extra, MPI_Status *status)
{
    struct nbc_request *r = extra;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = r->s->err;
    return r->s->err;
}

/* ---- reuse: a nonblocking call identical to a finished one (same
 * communicator, buffers, counts, named types, op, root, algorithm) runs
 * the finished schedule again, so a loop of MPI_Iallreduce allocates
 * nothing in collshim after its first call. The v and w variants (whose
 * steps depend on the contents of the count arrays) and derived types
 * (whose handles may be freed and reused for another layout) are built
 * every call. ---- */

#define NBC_CACHE 8
static struct nbc_request *cache[NBC_CACHE];
static int cache_next;

/* Only the types a call uses are looked at: an unused type argument may be
 * anything (gather's recvtype at a non-root), so collectives whose
 * significant arguments differ by rank (rooted gather and scatter, the v
 * and w forms) are not reused (engine/call.h: COLL_SAME_SIGNATURE). */
static int cacheable(const struct coll_args *a)
{
    if (!coll_is(a->coll, COLL_SAME_SIGNATURE))
        return 0;
    if (a->coll == COLL_barrier)
        return 1;
    if (a->coll == COLL_bcast || coll_is(a->coll, COLL_REDUCES))
        return type_is_named(a->datatype);
    return (a->in_place || type_is_named(a->sendtype)) && type_is_named(a->recvtype);
}

static struct call_signature call_signature(const struct coll_args *a, int alg,
                                            unsigned long long serial)
{
    struct call_signature sig = {
        .sendbuf = a->sendbuf, .recvbuf = a->recvbuf, .seg = a->params.seg,
        .ctx_serial = serial, .datatype = a->datatype, .sendtype = a->sendtype,
        .recvtype = a->recvtype, .op = a->op, .coll = a->coll, .alg = alg, .count = a->count,
        .root = a->root, .sendcount = a->sendcount, .recvcount = a->recvcount,
        .in_place = a->in_place, .alias_in_place = a->alias_in_place,
        .commutative = a->commutative, .outstanding = a->params.outstanding,
        .large_count = a->large_count};
    return sig;
}

static struct nbc_request *cache_take(const struct call_signature *sig)
{
    struct nbc_request *found = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < NBC_CACHE && !found; i++) {
        struct nbc_request *r = cache[i];
        if (r && !memcmp(&r->signature, sig, sizeof *sig)) {
            found = r;
            cache[i] = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}

static void cache_put(struct nbc_request *r)
{
    struct nbc_request *evicted;
    pthread_mutex_lock(&lock);
    evicted = cache[cache_next];
    cache[cache_next] = r;
    cache_next = (cache_next + 1) % NBC_CACHE;
    pthread_mutex_unlock(&lock);
    if (evicted)
        release(evicted);
}

static int free_request(void *extra)
{
    struct nbc_request *r = extra;
    if (r->cacheable && !r->s->err)
        cache_put(r);
    else
        release(r);
    return MPI_SUCCESS;
}

/* A collective cannot be cancelled (MPI-4.0 sec. 6.12: erroneous); it
 * completes normally and its status says "not cancelled". */
static int cancel_request(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

static int begin_nonblocking(struct nbc_request *r, MPI_Request *req)
{
    int err = PMPI_Grequest_start(query_status, free_request, cancel_request, r, &r->user);
    if (err)
        return err;
    *req = r->user;
    select_count(r->s->alg);
    link_active(r);
    nbc_progress();
    return MPI_SUCCESS;
}

/* ---- persistent: a receive from ourselves ---- */

static int self_comm_get(void)
{
    if (self_comm != MPI_COMM_NULL)
        return MPI_SUCCESS;
    return PMPI_Comm_split(MPI_COMM_SELF, 0, 0, &self_comm);
}

static int remember(struct nbc_request *r)
{
    if (nbc_persistent_count == npersistent_cap) {
        int cap = npersistent_cap ? 2 * npersistent_cap : 16;
        void *p = realloc(persistent, (size_t)cap * sizeof *persistent);
        if (!p)
            return MPI_ERR_NO_MEM;
        persistent = p;
        npersistent_cap = cap;
    }
    persistent[nbc_persistent_count++] = r;
    return MPI_SUCCESS;
}

static int begin_persistent(struct nbc_request *r, MPI_Request *req)
{
    int err;
    pthread_mutex_lock(&lock);
    if (!(err = self_comm_get())) {
        r->done_tag = next_done_tag;
        next_done_tag = (next_done_tag + 1) & 0x0fffffff; /* within every MPI_TAG_UB */
        err = PMPI_Recv_init(NULL, 0, MPI_BYTE, 0, r->done_tag, self_comm, &r->user);
    }
    if (!err && (err = remember(r)))
        vendor.request_free(&r->user);
    pthread_mutex_unlock(&lock);
    if (!err)
        *req = r->user;
    return err;
}

struct nbc_request *nbc_persistent_find(MPI_Request req)
{
    struct nbc_request *found = NULL;
    if (req == MPI_REQUEST_NULL)
        return NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nbc_persistent_count && !found; i++)
        if (persistent[i]->user == req)
            found = persistent[i];
    pthread_mutex_unlock(&lock);
    return found;
}

int nbc_persistent_start(struct nbc_request *r)
{
    int err;
    if (!r->s) { /* the vendor's: counted like collshim's own, then started */
        select_count(r->vendor_alg);
        return vendor.start(&r->user);
    }
    if (r->active)
        return MPI_ERR_REQUEST;
    if ((err = vendor.start(&r->user)))
        return err;
    sched_restart(r->s);
    select_count(r->s->alg);
    link_active(r);
    nbc_progress();
    return MPI_SUCCESS;
}

static void forget(struct nbc_request *r)
{
    for (int i = 0; i < nbc_persistent_count; i++)
        if (persistent[i] == r) {
            persistent[i] = persistent[--nbc_persistent_count];
            break;
        }
}

/* MPI_Request_free: an inactive request goes now; an active one when its
 * schedule ends (the library frees its receive once the message lands). */
int nbc_persistent_free(struct nbc_request *r, MPI_Request *req)
{
    int err, later;
    pthread_mutex_lock(&lock);
    forget(r);
    later = r->active;
    r->free_when_done = later;
    pthread_mutex_unlock(&lock);
    err = vendor.request_free(req);
    if (!later)
        release(r);
    return err;
}

/* The selector chose "vendor" for a persistent call: the vendor's request,
 * remembered so that each MPI_Start counts as a run of it. */
int nbc_vendor_persistent(const struct coll_args *a, int alg, MPI_Info info, MPI_Request *req)
{
    struct nbc_request *r = scratch_get_zeroed(sizeof *r);
    int err;
    if (!r)
        return MPI_ERR_NO_MEM;
    if ((err = vendor_init(a, info, req))) {
        scratch_put(r);
        return err;
    }
    r->kind = NBC_PERSISTENT;
    r->vendor_alg = alg;
    r->user = *req;
    pthread_mutex_lock(&lock);
    err = remember(r);
    pthread_mutex_unlock(&lock);
    if (err)
        scratch_put(r);
    return MPI_SUCCESS;
}

int nbc_persistent_is_vendor(const struct nbc_request *r) { return r->s == NULL; }

/* ---- the start of it all ---- */

static int call_tag(struct comm_ctx *ctx, enum nbc_kind kind)
{
    if (!ctx)
        return 0; /* the vendor's call as a schedule: no message of collshim's own */
    if (kind == NBC_PERSISTENT)
        return ctx->tag + CTX_TAG_BLOCKING +
               (int)(__atomic_fetch_add(&ctx->persistent_inits, 1, __ATOMIC_RELAXED) %
                     CTX_TAG_PERSISTENT);
    return ctx->tag + CTX_TAG_BLOCKING + CTX_TAG_PERSISTENT +
           (int)(__atomic_fetch_add(&ctx->nb_calls, 1, __ATOMIC_RELAXED) % CTX_TAG_NONBLOCKING);
}

/* A finished identical call's schedule, rewound and retagged, or NULL. */
static struct nbc_request *reuse(const struct coll_args *a, struct comm_ctx *ctx, int alg,
                                 int tag)
{
    struct call_signature sig = call_signature(a, alg, ctx->serial);
    struct nbc_request *r = cacheable(a) ? cache_take(&sig) : NULL;
    if (r) {
        sched_restart(r->s);
        r->s->args.tag = tag;
    }
    return r;
}

static int begin_with(const struct coll_args *a, struct comm_ctx *ctx, int alg,
                      coll_algorithm_fn run, enum nbc_kind kind, MPI_Request *req)
{
    struct coll_args b = *a;
    struct nbc_request *r;
    int err;
    hooks_setup();
    b.tag = call_tag(ctx, kind);
    if (kind == NBC_NONBLOCKING && (r = reuse(&b, ctx, alg, b.tag)))
        return (err = begin_nonblocking(r, req)) ? (release(r), err) : MPI_SUCCESS;
    if (!(r = scratch_get_zeroed(sizeof *r)))
        return MPI_ERR_NO_MEM;
    r->kind = kind;
    r->cacheable = kind == NBC_NONBLOCKING && cacheable(&b);
    if (r->cacheable)
        r->signature = call_signature(&b, alg, ctx->serial);
    if ((err = sched_build(&b, alg, run, &r->s))) {
        scratch_put(r);
        return err;
    }
    err = kind == NBC_PERSISTENT ? begin_persistent(r, req) : begin_nonblocking(r, req);
    if (err)
        release(r);
    return err;
}

int nbc_begin(const struct coll_args *a, struct comm_ctx *ctx, int alg, enum nbc_kind kind,
              MPI_Request *req)
{
    return begin_with(a, ctx, alg, registry_table[alg].run, kind, req);
}

/* The vendor's nonblocking collective as a schedule: one START, one WAIT.
 * Run while building only (nbc_vendor_scheduled). */
static int vendor_as_schedule(const struct coll_args *a)
{
    struct sched *s = a->sched;
    MPI_Request req;
    int err;
    (void)a;
    if (!s)
        return MPI_ERR_INTERN;
    if ((err = sched_add_start(s, vendor_start, &req)))
        return err;
    return sched_add_wait(s, 1, &req);
}

int nbc_vendor_scheduled(const struct coll_args *a, struct comm_ctx *ctx, int alg,
                         MPI_Request *req)
{
    return begin_with(a, ctx, alg, vendor_as_schedule, NBC_PERSISTENT, req);
}

void nbc_finalize(void)
{
    if (nbc_thread_running) {
        __atomic_store_n(&thread_stop, 1, __ATOMIC_RELEASE);
        pthread_join(progress_thread, NULL);
        nbc_thread_running = 0;
    }
    if (hooks_ready && opal_unregister)
        opal_unregister(opal_hook);
    while (nbc_persistent_count > 0) {
        struct nbc_request *r = persistent[--nbc_persistent_count];
        if (!r->active)
            release(r); /* the library frees the handle itself at MPI_Finalize */
    }
    free(persistent);
    persistent = NULL;
    for (int i = 0; i < NBC_CACHE; i++) {
        if (cache[i])
            release(cache[i]);
        cache[i] = NULL;
    }
    npersistent_cap = 0;
    if (self_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&self_comm);
}
