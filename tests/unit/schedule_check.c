/* schedule_check.c - every algorithm's schedule, checked without a
 * launch of many ranks: for a communicator of p ranks the schedules of all
 * p ranks are recorded in this one process (engine/sched.h: recording
 * needs no peer), then run against each other in a simulation that moves
 * no data. It checks that
 *   - every send meets a receive from the same peer in MPI's order, of at
 *     least as many bytes (no truncation), and every receive a send;
 *   - the schedules finish together (no rank waits for ever);
 *   - every request is waited for;
 *   - no step reads or writes bytes that a receive posted earlier fills,
 *     before the wait on that receive (a send of them, a copy, a reduction,
 *     another receive).
 * Cases: p = 1-9, 16, 17 and 64; counts 0, 1, 5 and 33 (per block; at
 * count 5 the count and displacement arrays are MPI_Aint, as a large-count
 * call's, MPI_Gatherv_c's, are, elsewhere int);
 * MPI_INT and a vector type with gaps; roots first and last; in place and
 * not; MPI_SUM and a non-commutative user op; every native algorithm of
 * every collective that its restrictions let run (one node; the
 * intercommunicator and node-aware ones are the MPI tests' matter).
 * Run as one process (MPI_Init for datatypes only). Ends with
 * "schedule_check: N passed, N failed". */
#include "algorithms/registry.h"
#include "engine/buf.h"
#include "engine/sched.h"
#include "shim/shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_P 64
static int passed, failed, quiet_failures;

/* ---- the call of one rank ---- */

struct rank_call {
    struct coll_args a;
    char *sbuf, *rbuf;
    int scounts[MAX_P], sdispls[MAX_P], rcounts[MAX_P], rdispls[MAX_P];
    MPI_Aint wide[4][MAX_P]; /* the same four as MPI_Aint */
    MPI_Datatype stypes[MAX_P], rtypes[MAX_P];
};

struct shape {
    int p, n, root, in_place;
    int wide; /* count and displacement arrays of MPI_Aint */
    MPI_Datatype type;
    MPI_Op op;
};

static int is_reduction(enum coll_id c) { return c >= COLL_reduce; }
static int is_rooted(enum coll_id c)
{
    return c == COLL_bcast || c == COLL_gather || c == COLL_gatherv || c == COLL_scatter ||
           c == COLL_scatterv || c == COLL_reduce;
}

/* Counts of the v-variants: every third block empty, the others differ;
 * alltoall(v,w) uses pair_count(r, j) both ways (a symmetric one). */
static int block_count(const struct shape *sh, int i) { return (i % 3) * sh->n; }
static int pair_count(const struct shape *sh, int r, int j) { return ((r + j) % 3) * sh->n; }

/* counts and displacements of rank r: element displacements with a gap of
 * one after each block, in bytes for alltoallw (the widest extent). */
static void fill_blocks(const struct shape *sh, enum coll_id coll, int r, int *counts,
                        int *displs)
{
    int a2a = coll == COLL_alltoallv || coll == COLL_alltoallw;
    for (int i = 0, at = 0; i < sh->p; i++) {
        counts[i] = a2a ? pair_count(sh, r, i) : block_count(sh, i);
        displs[i] = coll == COLL_alltoallw ? at * 3 * (int)sizeof(int) : at;
        at += counts[i] + 1;
    }
}

static void make_call(struct rank_call *c, enum coll_id coll, const struct shape *sh, int r)
{
    size_t bytes = (size_t)(sh->p + 1) * (size_t)(3 * sh->n + 2) * 3 * sizeof(int) + 64;
    memset(c, 0, sizeof *c);
    c->sbuf = calloc(1, bytes);
    c->rbuf = calloc(1, bytes);
    struct coll_args *a = &c->a;
    *a = (struct coll_args){.coll = coll, .comm = MPI_COMM_WORLD, .user_comm = MPI_COMM_WORLD,
                            .rank = r, .size = sh->p, .env = &shim_env, .tag = 0,
                            .sendbuf = c->sbuf, .recvbuf = c->rbuf, .count = sh->n,
                            .datatype = sh->type, .op = sh->op, .root = sh->root,
                            .sendcount = sh->n, .recvcount = sh->n, .sendtype = sh->type,
                            .recvtype = sh->type, .shape = {1, sh->p, 1, 1}};
    fill_blocks(sh, coll, r, c->scounts, c->sdispls);
    fill_blocks(sh, coll, r, c->rcounts, c->rdispls);
    for (int i = 0; i < sh->p; i++)
        c->stypes[i] = c->rtypes[i] = sh->type;
    for (int i = 0; i < sh->p; i++) {
        c->wide[0][i] = c->scounts[i], c->wide[1][i] = c->sdispls[i];
        c->wide[2][i] = c->rcounts[i], c->wide[3][i] = c->rdispls[i];
    }
    a->sendcounts = sh->wide ? COLL_ARRAY(c->wide[0]) : COLL_ARRAY(c->scounts);
    a->sdispls = sh->wide ? COLL_ARRAY(c->wide[1]) : COLL_ARRAY(c->sdispls);
    a->recvcounts = sh->wide ? COLL_ARRAY(c->wide[2]) : COLL_ARRAY(c->rcounts);
    a->rdispls = sh->wide ? COLL_ARRAY(c->wide[3]) : COLL_ARRAY(c->rdispls);
    a->sendtypes = c->stypes;
    a->recvtypes = c->rtypes;
    if (coll == COLL_gatherv || coll == COLL_allgatherv)
        a->sendcount = block_count(sh, r);
    if (coll == COLL_scatterv)
        a->recvcount = block_count(sh, r);
    int here = !is_rooted(coll) || r == sh->root;
    if (sh->in_place && here && coll != COLL_bcast) {
        if (coll == COLL_scatter || coll == COLL_scatterv)
            a->recvbuf = MPI_IN_PLACE;
        else
            a->sendbuf = MPI_IN_PLACE;
    }
    select_call_facts(a);
    a->bytes = select_key_bytes(a);
}

static void free_call(struct rank_call *c)
{
    free(c->sbuf);
    free(c->rbuf);
}

/* ---- the simulation ---- */

struct message {
    int slot, bytes, matched;
};
struct channel { /* sends from one rank to another and their receives, in order */
    struct message *send, *recv;
    int nsend, nrecv, capsend, caprecv;
};
static struct channel *channels; /* [src * p + dst] */

enum { POSTED = 1, DONE = 2, WAITED = 3 };

struct range {
    const char *lo, *hi;
    int slot;
};

struct rank_run {
    struct sched *s;
    int pc, finished;
    unsigned char *state; /* per request slot */
    struct range pending[1024]; /* receives posted, not yet waited */
    int npending;
};

static char problem[512];

static void complain(const char *fmt, int rank, int step, const char *what)
{
    if (!problem[0])
        snprintf(problem, sizeof problem, fmt, rank, step, what);
}

static int bytes_of(MPI_Aint count, MPI_Datatype type)
{
    return (int)(count * (MPI_Aint)buf_type_size(type));
}

static void span_of(const void *buf, MPI_Aint count, MPI_Datatype type, const char **lo,
                    const char **hi)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    *lo = *hi = buf;
    if (count <= 0 || buf_type_size(type) == 0 || buf == MPI_IN_PLACE)
        return;
    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    *lo = (const char *)buf + true_lb;
    *hi = *lo + (count - 1) * extent + true_extent;
}

/* A step touching [lo, hi) while a receive into it is pending. */
static void touches(struct rank_run *rr, int rank, int step, const char *lo, const char *hi,
                    const char *what)
{
    for (int i = 0; i < rr->npending; i++)
        if (lo < rr->pending[i].hi && rr->pending[i].lo < hi)
            complain("rank %d step %d %s bytes that a receive fills before it is waited", rank,
                     step, what);
}

static void match(int src, int dst, int p, struct rank_run *runs)
{
    struct channel *ch = &channels[src * p + dst];
    for (int i = 0; i < ch->nsend && i < ch->nrecv; i++) {
        struct message *s = &ch->send[i], *r = &ch->recv[i];
        if (s->matched)
            continue;
        s->matched = r->matched = 1;
        if (s->bytes > r->bytes)
            complain("rank %d step %d: %s", dst, -1, "a message longer than its receive");
        runs[src].state[s->slot] = DONE;
        runs[dst].state[r->slot] = DONE;
    }
}

/* Room for one more message after n. */
static struct message *grown(struct message *m, int n, int *cap)
{
    if (n < *cap)
        return m;
    *cap = *cap ? 2 * *cap : 8;
    m = realloc(m, (size_t)*cap * sizeof *m);
    if (!m) {
        fprintf(stderr, "schedule_check: out of memory\n");
        exit(2);
    }
    return m;
}

static int post(struct rank_run *runs, int p, int rank, const struct sched_step *st)
{
    struct rank_run *rr = &runs[rank];
    const char *lo, *hi;
    int peer = st->peer, bytes = bytes_of(st->count, st->type);
    if (peer == MPI_PROC_NULL) { /* completes at once, moves nothing */
        rr->state[st->slot] = DONE;
        return 1;
    }
    if (peer < 0 || peer >= p) {
        complain("rank %d step %d %s", rank, rr->pc, "names a peer outside the communicator");
        return 0;
    }
    rr->state[st->slot] = POSTED;
    if (st->kind == STEP_SEND) {
        span_of(st->src, st->count, st->type, &lo, &hi);
        touches(rr, rank, rr->pc, lo, hi, "sends");
        struct channel *ch = &channels[rank * p + peer];
        ch->send = grown(ch->send, ch->nsend, &ch->capsend);
        ch->send[ch->nsend++] = (struct message){st->slot, bytes, 0};
        match(rank, peer, p, runs);
        return 1;
    }
    span_of(st->dst, st->count, st->type, &lo, &hi);
    touches(rr, rank, rr->pc, lo, hi, "receives into");
    if (hi > lo)
        rr->pending[rr->npending++] = (struct range){lo, hi, st->slot};
    struct channel *ch = &channels[peer * p + rank];
    ch->recv = grown(ch->recv, ch->nrecv, &ch->caprecv);
    ch->recv[ch->nrecv++] = (struct message){st->slot, bytes, 0};
    match(peer, rank, p, runs);
    return 1;
}

static void unpend(struct rank_run *rr, int slot)
{
    for (int i = 0; i < rr->npending; i++)
        if (rr->pending[i].slot == slot)
            rr->pending[i--] = rr->pending[--rr->npending];
}

static int wait_step(struct rank_run *rr, const struct sched_step *st)
{
    for (int i = 0; i < st->n; i++)
        if (rr->state[rr->s->waits[st->slot + i]] != DONE)
            return 0;
    for (int i = 0; i < st->n; i++) {
        int slot = rr->s->waits[st->slot + i];
        rr->state[slot] = WAITED;
        unpend(rr, slot);
    }
    return 1;
}

static void local_step(struct rank_run *rr, int rank, const struct sched_step *st)
{
    const char *lo, *hi;
    MPI_Aint n = st->count;
    MPI_Datatype t = st->kind == STEP_MEMCPY ? MPI_BYTE : st->type;
    if (st->kind == STEP_UNPACK)
        span_of(st->src, st->count * (MPI_Aint)buf_type_size(st->type), MPI_BYTE, &lo, &hi);
    else
        span_of(st->src, n, t, &lo, &hi);
    touches(rr, rank, rr->pc, lo, hi, "reads");
    if (st->kind == STEP_PACK)
        span_of(st->dst, st->count * (MPI_Aint)buf_type_size(st->type), MPI_BYTE, &lo, &hi);
    else if (st->kind == STEP_COPY)
        span_of(st->dst, st->count2, st->type2, &lo, &hi);
    else
        span_of(st->dst, n, t, &lo, &hi);
    touches(rr, rank, rr->pc, lo, hi, "writes");
}

/* One step of one rank if it can go; 1 when it went. */
static int advance(struct rank_run *runs, int p, int rank)
{
    struct rank_run *rr = &runs[rank];
    if (rr->pc >= rr->s->nsteps)
        return 0;
    const struct sched_step *st = &rr->s->steps[rr->pc];
    switch (st->kind) {
    case STEP_SEND: case STEP_RECV:
        if (!post(runs, p, rank, st))
            return 0;
        break;
    case STEP_WAIT:
        if (!wait_step(rr, st))
            return 0;
        break;
    case STEP_START:
        complain("rank %d step %d %s", rank, rr->pc, "starts a call of the vendor's");
        return 0;
    default:
        local_step(rr, rank, st);
    }
    rr->pc++;
    return 1;
}

static void check_end(struct rank_run *runs, int p)
{
    for (int r = 0; r < p; r++) {
        if (runs[r].pc < runs[r].s->nsteps)
            complain("rank %d step %d %s", r, runs[r].pc, "waits for ever");
        for (int i = 0; i < runs[r].s->nreqs; i++)
            if (runs[r].state[i] != WAITED)
                complain("rank %d step %d %s", r, -1, "leaves a request it never waits for");
    }
    for (int i = 0; i < p * p; i++)
        if (channels[i].nsend != channels[i].nrecv)
            complain("rank %d step %d %s", i / p, -1,
                     channels[i].nsend > channels[i].nrecv ? "sends a message nobody receives"
                                                           : "receives a message nobody sends");
}

static void simulate(struct sched **scheds, int p)
{
    size_t np = (size_t)(p > 0 ? p : 1);
    struct rank_run *runs = calloc(np, sizeof *runs);
    channels = calloc(np * np, sizeof *channels);
    for (int r = 0; r < p; r++) {
        runs[r].s = scheds[r];
        runs[r].state = calloc((size_t)scheds[r]->nreqs + 1, 1);
    }
    for (int moved = 1; moved && !problem[0];) {
        moved = 0;
        for (int r = 0; r < p; r++)
            while (advance(runs, p, r))
                moved = 1;
    }
    if (!problem[0])
        check_end(runs, p);
    for (int r = 0; r < p; r++)
        free(runs[r].state);
    for (size_t i = 0; i < np * np; i++) {
        free(channels[i].send);
        free(channels[i].recv);
    }
    free(runs);
    free(channels);
}

/* ---- cases ---- */

static void check_case(int alg, enum coll_id coll, const struct shape *sh)
{
    static struct rank_call calls[MAX_P];
    struct sched *scheds[MAX_P] = {0};
    const struct algorithm *row = &registry_table[alg];
    int p = sh->p, err = 0;
    problem[0] = '\0';
    for (int r = 0; r < p; r++)
        make_call(&calls[r], coll, sh, r);
    struct coll_key key = select_key(&calls[0].a);
    if (!registry_can_run(row, &key, NULL)) {
        for (int r = 0; r < p; r++)
            free_call(&calls[r]);
        return;
    }
    for (int r = 0; r < p && !err; r++)
        err = sched_build(&calls[r].a, alg, row->run, &scheds[r]);
    if (err)
        snprintf(problem, sizeof problem, "recording failed with MPI error %d", err);
    else
        simulate(scheds, p);
    if (problem[0]) {
        failed++;
        if (quiet_failures++ < 40)
            printf("FAIL %s %s p=%d count=%d%s root=%d in_place=%d %s op=%s: %s\n",
                   coll_name(coll), row->name, p, sh->n, sh->wide ? " (MPI_Aint arrays)" : "",
                   sh->root, sh->in_place,
                   sh->type == MPI_INT ? "MPI_INT" : "vector", sh->op == MPI_SUM ? "sum" : "user",
                   problem);
    } else {
        passed++;
    }
    for (int r = 0; r < p; r++) {
        sched_free(scheds[r]);
        free_call(&calls[r]);
    }
}

static void ordered(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

int main(int argc, char **argv)
{
    static const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 64};
    static const int counts[] = {0, 1, 5, 33};
    MPI_Datatype vector;
    MPI_Op user;
    MPI_Init(&argc, &argv);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vector);
    MPI_Type_commit(&vector);
    MPI_Op_create(ordered, 0, &user);
    for (int c = 0; c < COLL_COUNT; c++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
            for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++)
                for (int variant = 0; variant < 4; variant++) {
                    int p = sizes[si];
                    if (p == 64 && variant) /* one shape at 64: the big ones are slow */
                        continue;
                    struct shape sh = {p, counts[ci], variant & 1 ? p - 1 : 0, variant >> 1,
                                       counts[ci] == 5, variant & 1 ? vector : MPI_INT,
                                       variant & 1 ? user : MPI_SUM};
                    if (is_reduction((enum coll_id)c) && sh.op == MPI_SUM && sh.type != MPI_INT)
                        sh.type = MPI_INT;
                    for (int alg = 0; alg < registry_count; alg++)
                        if (registry_table[alg].coll == (enum coll_id)c &&
                            !registry_is_vendor(&registry_table[alg]))
                            check_case(alg, (enum coll_id)c, &sh);
                }
    printf("schedule_check: %d passed, %d failed\n", passed, failed);
    MPI_Op_free(&user);
    MPI_Type_free(&vector);
    MPI_Finalize();
    return failed != 0;
}
