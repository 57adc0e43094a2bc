/* learn.c - COLLSHIM_LEARN: each communicator learns, per collective and
 * size class (the power-of-two bucket of the selection bytes, with the
 * call's in-place, commutative and predefined-op facts), which of a few
 * candidate algorithms is fastest on the program's own blocking calls, and
 * settles on it (doc/learning.md).
 *
 * Candidates: the tables' choice for the call, the vendor, and what each
 * table chooses at the neighbouring sizes (a quarter of the class to four
 * times it), at most LEARN_MAX_CAND, those whose restrictions allow the
 * call. Exploring: round robin, each candidate runs a batch of k calls,
 * timed by every rank; one vendor MPI_Allreduce(MAX) on the communicator
 * then gives every rank the batch's time (and whether it failed anywhere):
 * the slowest rank's own time, or with COLLSHIM_LEARN_CHARGE=last_entry
 * each call's time from the last rank's entry to the last rank's exit on a
 * common clock (rank 0's, clock_sync.c). The settling rule
 * (learn_settle.c) sees the same numbers on every rank and every rank
 * switches at the same call.
 * Settled: a hash lookup per call, no allocation, no communication.
 *
 * State: per context a bounded open-addressing table of classes (allocated
 * at its first learning call), each class allocated once at its first call;
 * freed with the context. A class starts settled when every rank of the
 * communicator already settled the same (collective, np, shape, class) on
 * another communicator (one small allreduce at the class's first call).
 * Blocking intracommunicator calls only; a class that the user's tables
 * (COLLSHIM_TUNE, COLLSHIM_TUNING_FILE) cover is not explored. */
#include "select/select.h"
#include "select/learn.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define LEARN_CLASSES 256 /* per communicator; power of two */
#define LEARN_MAX_BATCH 4 /* calls per batch (batch_length) */
#define LEARN_RESYNC_S 2.0 /* rank 0 asks for a new clock offset after this */

enum class_state { CLASS_EXPLORING, CLASS_SETTLED, CLASS_TABLES };

struct learn_class {
    uint32_t key;
    enum class_state state;
    int chosen;                    /* candidate index, when settled */
    int ncand, vendor, cur, rounds;
    int confirming, confirm_rounds; /* after the rule chose a native candidate */
    int in_batch, batch_failed;
    double entered[LEARN_MAX_BATCH], left[LEARN_MAX_BATCH]; /* the batch's calls (last_entry: common clock) */
    struct learn_cand cand[LEARN_MAX_CAND];
    struct learn_entry facts;      /* key fields and accounting */
};

struct learn_ctx {
    int rank, np;
    struct node_shape shape;
    double offset;      /* this rank's clock minus rank 0's (clock_sync.c) */
    double synced;      /* when offset was measured, this rank's clock */
    double unbilled;    /* seconds of clock synchronization not yet in a class's accounting */
    uint32_t keys[LEARN_CLASSES];  /* 0: free */
    struct learn_class *cls[LEARN_CLASSES];
    struct learn_ctx *prev, *next; /* the live states, for MPI_Finalize */
};

static struct learn_ctx *live;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

/* Where one rank cannot allocate, no rank may learn: the ranks would run
 * different algorithms in the same call. These stand in for what could
 * not be allocated (never written): a communicator nobody learns on, a
 * class that runs the tables. */
static struct learn_ctx learn_off;
static const struct learn_class tables_only = {.state = CLASS_TABLES};

static unsigned size_bucket(uint64_t bytes)
{
    return bytes ? 64u - (unsigned)__builtin_clzll(bytes) : 0u;
}

static unsigned call_flags(const struct coll_key *k)
{
    return (unsigned)k->in_place | (unsigned)k->commutative << 1 | (unsigned)k->predefined_op << 2;
}

static uint32_t class_key(const struct coll_key *k)
{
    return (uint32_t)(k->coll + 1) | size_bucket(k->bytes) << 5 | call_flags(k) << 12;
}

/* The common clock: every rank's offset to rank 0's, measured at the
 * communicator's first learning call and again when rank 0 finds it older
 * than LEARN_RESYNC_S at the end of a batch (nodes' clocks drift apart).
 * Collective. A failed measurement leaves offset 0: times from one node
 * stay right, across nodes they are off by the clocks' difference. */
static void sync_clock(struct learn_ctx *lc, const struct coll_args *a)
{
    double t0 = PMPI_Wtime();
    if (learn_io->clock_offset(a, &lc->offset) != MPI_SUCCESS)
        lc->offset = 0;
    lc->synced = PMPI_Wtime();
    lc->unbilled += lc->synced - t0;
}

/* The communicator's state, made at its first learning call, which every
 * rank reaches in the same collective: one allreduce decides that all
 * ranks learn on it or none does. */
static struct learn_ctx *ctx_state(struct learn_ctx **state, const struct coll_args *a)
{
    struct learn_ctx *lc = *state;
    if (lc)
        return lc;
    lc = learn_test_nomem & LEARN_NOMEM_CTX ? NULL : calloc(1, sizeof *lc);
    int all = lc != NULL;
    if (learn_io->allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, a->user_comm) != MPI_SUCCESS ||
        !all) {
        free(lc);
        return *state = &learn_off;
    }
    lc->rank = a->rank;
    lc->np = a->size;
    lc->shape = a->shape;
    if (learn_charge == LEARN_CHARGE_LAST_ENTRY)
        sync_clock(lc, a);
    pthread_mutex_lock(&live_lock);
    lc->next = live;
    if (live)
        live->prev = lc;
    live = lc;
    pthread_mutex_unlock(&live_lock);
    *state = lc;
    return lc;
}

/* Slot of key: its own, or the free one to claim; -1 when the table is full. */
static int class_slot(const struct learn_ctx *lc, uint32_t key)
{
    unsigned h = (key * 2654435761u) >> 24;
    for (int i = 0; i < LEARN_CLASSES; i++) {
        unsigned s = (h + (unsigned)i) & (LEARN_CLASSES - 1);
        if (lc->keys[s] == key || lc->keys[s] == 0)
            return (int)s;
    }
    return -1;
}

/* ---- candidates ---- */

static void add_candidate(struct learn_class *c, int alg, struct coll_params params,
                          const struct coll_key *key)
{
    if (c->ncand == LEARN_MAX_CAND || !registry_can_run(&registry_table[alg], key, NULL))
        return;
    for (int i = 0; i < c->ncand; i++)
        if (c->cand[i].alg == alg && c->cand[i].params.seg == params.seg &&
            c->cand[i].params.outstanding == params.outstanding)
            return;
    c->cand[c->ncand++] = (struct learn_cand){.alg = alg, .params = params};
}

/* Sizes around class b, [2^(b-1), 2^b): from a quarter of it to four times it. */
static int probe_sizes(unsigned b, uint64_t *out)
{
    if (b == 0) {
        out[0] = 0;
        return 1;
    }
    uint64_t lo = 1ull << (b - 1);
    int n = 0;
    out[n++] = lo;
    out[n++] = lo + (lo - 1); /* the top of the class */
    out[n++] = lo >> 1;
    out[n++] = lo >> 2;
    if (b < 62) {
        out[n++] = lo << 1;
        out[n++] = lo << 2;
    }
    return n;
}

static int registry_candidate(int alg, enum coll_id coll)
{
    return registry_table[alg].coll == coll &&
           !(registry_table[alg].restrictions & ALG_NEEDS_CONTEXT);
}

/* The tables know only what they were measured or written for: fill the
 * remaining places with the collective's other native algorithms (registry
 * order, default parameters) that can run the call, then the segmented
 * ones again with a finer and a coarser segment than their default 64 KiB
 * (16 KiB from 32 KiB up, 256 KiB from 512 KiB up: two segments at least,
 * colltune's sweep), and the windowed ones with 2 and 4 requests in flight
 * where that is fewer than the p-1 peers (their default 8; colltune sweeps
 * 2/4/8). A clearly slower one costs one batch: the rule drops
 * it after the first round. On the virtual cluster the tables' choices
 * alone left the learned run 1.20x the colltune table's time, the default
 * segments alone 1.17x (results/learning.md). */
static void add_registry_candidates(struct learn_class *c, const struct coll_key *key)
{
    static const size_t segs[] = {16384, 262144};
    static const int windows[] = {2, 4};
    unsigned b = size_bucket(key->bytes);
    uint64_t lo = b ? 1ull << (b - 1) : 0; /* the class's, whatever call came first */
    for (int i = 0; i < registry_count; i++)
        if (registry_candidate(i, key->coll))
            add_candidate(c, i, (struct coll_params){0, 0}, key);
    for (size_t s = 0; s < sizeof segs / sizeof segs[0]; s++)
        for (int i = 0; i < registry_count && lo >= 2 * segs[s]; i++)
            if (registry_candidate(i, key->coll) && (registry_table[i].restrictions & ALG_TAKES_SEG))
                add_candidate(c, i, (struct coll_params){.seg = segs[s]}, key);
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++)
        for (int i = 0; i < registry_count && windows[w] < key->np - 1; i++)
            if (registry_candidate(i, key->coll) && (registry_table[i].restrictions & ALG_TAKES_WINDOW))
                add_candidate(c, i, (struct coll_params){.outstanding = windows[w]}, key);
}

static void find_candidates(struct learn_class *c, const struct coll_key *key)
{
    const struct tune_table *tables[SELECT_TABLES];
    select_tables_enter(tables);
    struct tune_choice now = select_walk(key);
    uint64_t sizes[6];
    int nsizes = probe_sizes(size_bucket(key->bytes), sizes);
    add_candidate(c, now.alg, now.params, key);
    add_candidate(c, registry_vendor(key->coll), (struct coll_params){0, 0}, key);
    for (int s = 0; s < nsizes; s++)
        for (int t = 0; t < SELECT_TABLES; t++) {
            const struct tune_table *one = tables[t];
            struct coll_key probe = *key;
            probe.bytes = sizes[s];
            struct tune_choice ch = one ? tune_select(&one, 1, &probe) : now;
            if (one && ch.rule)
                add_candidate(c, ch.alg, ch.params, key);
        }
    select_tables_leave();
    add_registry_candidates(c, key);
    for (int i = 0; i < c->ncand; i++)
        if (c->cand[i].alg == registry_vendor(key->coll))
            c->vendor = i;
}

/* ---- a new class ---- */

static int covered_by_user_tables(const struct coll_key *key)
{
    const struct tune_table *tables[SELECT_TABLES];
    select_tables_enter(tables);
    int covered = tune_select(tables, 2, key).rule != NULL;
    select_tables_leave();
    return covered;
}

static int candidate_of(const struct learn_class *c, int alg)
{
    for (int i = 0; i < c->ncand; i++)
        if (c->cand[i].alg == alg)
            return i;
    return -1;
}

/* Did every rank already settle this (collective, np, shape, class) on the
 * same algorithm elsewhere? One allreduce of {alg, -alg, !have}, MAX; the
 * third says some rank could not allocate the class (have == 0): then
 * every rank runs the tables for it. */
static int agree_on_known(struct learn_class *c, const struct coll_args *a, int have)
{
    struct learn_entry known;
    int v[3], alg = learn_entry_settled(&c->facts, &known);
    double t0 = PMPI_Wtime();
    v[0] = alg;
    v[1] = -alg;
    v[2] = !have;
    int err = learn_io->allreduce(MPI_IN_PLACE, v, 3, MPI_INT, MPI_MAX, a->user_comm);
    c->facts.explore_time += PMPI_Wtime() - t0;
    if (err || v[2]) {
        c->state = CLASS_TABLES;
        return 0;
    }
    if (v[0] < 0 || v[0] != -v[1] || candidate_of(c, v[0]) < 0)
        return 0;
    c->chosen = candidate_of(c, v[0]);
    c->cand[c->chosen].params = known.params;
    c->facts.settled_alg = v[0];
    c->facts.params = known.params;
    c->facts.vendor_mean = known.vendor_mean;
    c->facts.chosen_mean = known.chosen_mean;
    c->state = CLASS_SETTLED;
    return 1;
}

static void fill_facts(struct learn_entry *e, const struct learn_ctx *lc,
                       const struct coll_key *key)
{
    memset(e, 0, sizeof *e);
    e->coll = key->coll;
    e->np = lc->np;
    e->nodes = lc->shape.nodes;
    e->ppn = lc->shape.ppn;
    e->bucket = (int)size_bucket(key->bytes);
    e->flags = (int)call_flags(key);
    e->settled_alg = -1;
}

/* A class at its first call. A rank that cannot allocate it still takes
 * part in the agreement (on a scratch copy), so that all ranks run the
 * tables for it, and keeps tables_only in its slot. */
static struct learn_class *class_new(struct learn_ctx *lc, int slot, const struct coll_args *a,
                                     const struct coll_key *key)
{
    static SHIM_TLS struct learn_class scratch;
    struct learn_class *c = learn_test_nomem & LEARN_NOMEM_CLASS ? NULL : calloc(1, sizeof *c);
    int have = c != NULL;
    if (!have) {
        memset(&scratch, 0, sizeof scratch);
        c = &scratch;
    }
    c->key = class_key(key);
    fill_facts(&c->facts, lc, key);
    c->facts.explore_time = lc->unbilled; /* the clock it is measured on */
    lc->unbilled = 0;
    c->vendor = -1;
    if (covered_by_user_tables(key)) {
        c->state = CLASS_TABLES;
    } else {
        find_candidates(c, key);
        c->facts.ncand = c->ncand;
        for (int i = 0; i < c->ncand; i++) {
            c->facts.cand_alg[i] = c->cand[i].alg;
            c->facts.cand_seg[i] = c->cand[i].params.seg;
            c->facts.cand_window[i] = c->cand[i].params.outstanding;
        }
        learn_entry_get(&c->facts); /* known to the process: shareable, reported */
        if (c->ncand < 2 || c->vendor < 0)
            c->state = CLASS_TABLES;
        else
            agree_on_known(c, a, have);
    }
    lc->keys[slot] = c->key;
    lc->cls[slot] = have ? c : (struct learn_class *)&tables_only;
    return lc->cls[slot];
}

/* ---- exploring ---- */

static int batch_length(const struct coll_args *a, const struct learn_class *c)
{
    int k = a->bytes < 16384 ? 4 : a->bytes < 262144 ? 2 : 1;
    return c->confirming && k < 2 ? 2 : k; /* back to back even at the largest sizes */
}

static void settle(struct learn_class *c, int idx, const struct coll_args *a)
{
    struct learn_entry *e = &c->facts;
    c->state = CLASS_SETTLED;
    c->chosen = idx;
    e->settled_alg = c->cand[idx].alg;
    e->params = c->cand[idx].params;
    e->vendor_mean = learn_median(c->cand[c->vendor].samples, c->cand[c->vendor].nsamples);
    e->chosen_mean = learn_median(c->cand[idx].samples, c->cand[idx].nsamples);
    learn_entry_settle(e);
    if (learn_verbose && a->rank == 0)
        fprintf(stderr, "collshim: learned %s np=%d nodes=%d ppn=%d class %d: -> %s "
                        "(%.3gx the vendor, after %.0f calls)\n",
                coll_name(a->coll), a->size, a->shape.nodes, a->shape.ppn, e->bucket,
                registry_table[e->settled_alg].name,
                e->vendor_mean > 0 ? e->chosen_mean / e->vendor_mean : 1.0, e->explore_calls);
}

static int first_live_from(const struct learn_class *c, int from)
{
    for (int i = from; i < c->ncand; i++)
        if (c->cand[i].state == CAND_LIVE)
            return i;
    return -1;
}

/* The rule chose a native candidate on exploring's short batches, each
 * right after the agreement allreduce; before it is kept, it and the vendor
 * run again, alone, in longer batches (learn_confirm). On the virtual
 * cluster a choice measured 0.80x the vendor while exploring then took
 * 1.31x its time once settled (results/learning.md). */
static void start_confirming(struct learn_class *c, int idx, const struct coll_args *a)
{
    for (int i = 0; i < c->ncand; i++)
        if (i != idx && i != c->vendor && c->cand[i].state == CAND_LIVE)
            c->cand[i].state = CAND_DROPPED;
    c->cand[idx].nsamples = c->cand[c->vendor].nsamples = 0;
    c->confirming = 1;
    c->chosen = idx;
    if (learn_verbose && a->rank == 0)
        fprintf(stderr, "collshim: learning %s np=%d class %d: confirming %s against the vendor\n",
                coll_name(a->coll), a->size, c->facts.bucket, registry_table[c->cand[idx].alg].name);
}

/* After a round: settle, confirm, or go on; 1 when settled. */
static int end_round(struct learn_class *c, const struct coll_args *a)
{
    c->rounds++;
    if (c->confirming) {
        if (++c->confirm_rounds < LEARN_CONFIRM_ROUNDS)
            return 0;
        int keep = learn_confirm(&c->cand[c->chosen], &c->cand[c->vendor]);
        settle(c, keep ? c->chosen : c->vendor, a);
        return 1;
    }
    int idx = learn_settle(c->cand, c->ncand, c->vendor, c->rounds, &learn_default_rule);
    if (idx == c->vendor) {
        settle(c, idx, a);
        return 1;
    }
    if (idx >= 0)
        start_confirming(c, idx, a);
    return 0;
}

/* Next live candidate; after the last one the round ends and the rule
 * may settle. The vendor is never dropped, so a round always has one. */
static void next_candidate(struct learn_class *c, const struct coll_args *a)
{
    c->in_batch = 0;
    c->batch_failed = 0;
    int i = first_live_from(c, c->cur + 1);
    if (i < 0) {
        if (end_round(c, a))
            return;
        i = first_live_from(c, 0);
    }
    c->cur = i < 0 ? c->vendor : i;
}

/* What the allreduce of end_batch carries (MAX over the ranks), as n
 * times then the failed and resync flags; returns n.
 *   own         n = 1: this rank's time in the batch's calls, waiting for
 *               late ranks included (each rank's own, as it lives it)
 *   last_entry  n = 2k: the k entries, then the k exits, on the common
 *               clock: each call from the last rank's entry to the last
 *               rank's exit. Waiting for a rank that came late (the
 *               program's imbalance, or the previous call letting it go
 *               late) is no candidate's; as collbench's window fence. */
static int batch_pack(const struct learn_ctx *lc, const struct learn_class *c, double *v,
                      double now)
{
    int k = c->in_batch, n = 1;
    if (learn_charge == LEARN_CHARGE_LAST_ENTRY) {
        memcpy(v, c->entered, (size_t)k * sizeof *v);
        memcpy(v + k, c->left, (size_t)k * sizeof *v);
        n = 2 * k;
    } else {
        v[0] = 0;
        for (int i = 0; i < k; i++)
            v[0] += c->left[i] - c->entered[i];
    }
    v[n] = c->batch_failed;
    v[n + 1] = learn_charge == LEARN_CHARGE_LAST_ENTRY && lc->rank == 0 &&
               now - lc->synced > LEARN_RESYNC_S;
    return n;
}

/* The batch's seconds from the reduced times. Positive in both charges
 * (last_entry: the last rank to enter left after it entered). */
static double batch_seconds(const double *v, int n)
{
    if (n == 1)
        return v[0];
    double s = 0;
    for (int i = 0; i < n / 2; i++)
        s += v[n / 2 + i] - v[i];
    return s;
}

/* The batch's time, whether it failed anywhere, and whether rank 0 wants
 * the clocks synchronized again: one allreduce. */
static void end_batch(struct learn_ctx *lc, struct learn_class *c, const struct coll_args *a)
{
    struct learn_cand *cand = &c->cand[c->cur];
    double v[2 * LEARN_MAX_BATCH + 2], t0 = PMPI_Wtime();
    int n = batch_pack(lc, c, v, t0);
    int err = learn_io->allreduce(MPI_IN_PLACE, v, n + 2, MPI_DOUBLE, MPI_MAX, a->user_comm);
    double took = err ? 0 : batch_seconds(v, n);
    c->facts.explore_time += took + (PMPI_Wtime() - t0);
    if (err || (v[n] > 0 && c->cur != c->vendor))
        cand->state = CAND_FAILED;
    else if (cand->nsamples < LEARN_MAX_ROUNDS)
        cand->samples[cand->nsamples++] = took / c->in_batch;
    if (!err && v[n + 1] > 0) {
        sync_clock(lc, a);
        c->facts.explore_time += lc->unbilled;
        lc->unbilled = 0;
    }
    next_candidate(c, a);
}

/* The candidate whose turn it is, timed from here to learn_ran; -1 when
 * its restrictions refuse the call (the same call facts on every rank):
 * it is never chosen, and the tables run this call. */
static int explore(struct coll_args *a, struct learn_ctx *lc, struct learn_class *c,
                   const struct coll_key *key, struct learn_turn *turn)
{
    struct learn_cand *cand = &c->cand[c->cur];
    c->facts.explore_calls++;
    if (!registry_can_run(&registry_table[cand->alg], key, NULL)) {
        cand->state = CAND_RESTRICTED;
        next_candidate(c, a);
        return -1;
    }
    a->params = cand->params;
    turn->lc = lc;
    turn->c = c;
    c->entered[c->in_batch] = PMPI_Wtime() - lc->offset;
    return cand->alg;
}

void learn_ran(const struct learn_turn *turn, const struct coll_args *a, int err)
{
    struct learn_class *c = turn->c;
    if (!c)
        return;
    c->left[c->in_batch] = PMPI_Wtime() - turn->lc->offset;
    c->batch_failed |= err > 0;
    if (++c->in_batch == batch_length(a, c))
        end_batch(turn->lc, c, a);
}

static int run_settled(struct coll_args *a, struct learn_class *c, const struct coll_key *key)
{
    const struct learn_cand *cand = &c->cand[c->chosen];
    if (!registry_can_run(&registry_table[cand->alg], key, NULL))
        return -1;
    c->facts.settled_calls++;
    a->params = cand->params;
    return cand->alg;
}

int learn_choose(struct learn_ctx **state, struct coll_args *a, struct learn_turn *turn)
{
    turn->lc = NULL;
    turn->c = NULL;
    struct learn_ctx *lc = ctx_state(state, a);
    if (lc == &learn_off)
        return -1;
    struct coll_key key = select_key(a);
    int slot = class_slot(lc, class_key(&key));
    struct learn_class *c = slot < 0 ? NULL : lc->cls[slot];
    if (c && c->state == CLASS_SETTLED) /* the steady state */
        return run_settled(a, c, &key);
    if (slot < 0)
        return -1;
    if (!c)
        c = class_new(lc, slot, a, &key);
    if (c->state == CLASS_EXPLORING)
        return explore(a, lc, c, &key, turn);
    return c->state == CLASS_SETTLED ? run_settled(a, c, &key) : -1;
}

/* ---- accounting ---- */

/* Add the context's classes to the process's entries (rank 0 of the
 * communicator only: gathered, each communicator counts once), then zero
 * them so that a later call adds nothing twice. */
static void account(struct learn_ctx *lc)
{
    for (int s = 0; s < LEARN_CLASSES; s++) {
        struct learn_class *c = lc->cls[s];
        if (!c || c->state == CLASS_TABLES || lc->rank != 0)
            continue;
        struct learn_entry n = c->facts;
        double vmean = c->state == CLASS_SETTLED ? n.vendor_mean
                       : learn_median(c->cand[c->vendor].samples, c->cand[c->vendor].nsamples);
        n.extra_time = n.explore_time - n.explore_calls * vmean;
        n.saved_time = c->state == CLASS_SETTLED ? n.settled_calls * (n.vendor_mean - n.chosen_mean)
                                                 : 0;
        n.classes = c->facts.classes ? 0 : 1;
        learn_entry_account(&n);
        c->facts.classes = 1;
        c->facts.explore_calls = c->facts.settled_calls = c->facts.explore_time = 0;
    }
}

void learn_ctx_free(struct learn_ctx *lc)
{
    if (!lc || lc == &learn_off)
        return;
    account(lc);
    pthread_mutex_lock(&live_lock);
    if (lc->prev)
        lc->prev->next = lc->next;
    else
        live = lc->next;
    if (lc->next)
        lc->next->prev = lc->prev;
    pthread_mutex_unlock(&live_lock);
    for (int s = 0; s < LEARN_CLASSES; s++)
        if (lc->cls[s] != &tables_only)
            free(lc->cls[s]);
    free(lc);
}

void learn_finalize(void)
{
    if (!learn_enabled || !learn_io)
        return;
    pthread_mutex_lock(&live_lock);
    for (struct learn_ctx *lc = live; lc; lc = lc->next)
        account(lc);
    pthread_mutex_unlock(&live_lock);
    learn_results_gather();
}
