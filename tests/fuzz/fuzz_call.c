/* fuzz_call.c - a case made concrete on this rank: its types, its buffers
 * laid out with guards and filled (a pattern everywhere, values at every
 * element), the call in each form, and the byte comparison. */
#include "tests/fuzz/fuzz.h"
#include "bench/pcoll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- layout: where this rank puts each block ---- */

static MPI_Aint align_up(MPI_Aint x, MPI_Aint a) { return (x + a - 1) / a * a; }

/* Byte displacement of each block from the buffer pointer. */
static void place(const struct side *s, const struct ftype *types, int all_zero, struct rng *r,
                  MPI_Aint *at, int *displs)
{
    int order[FUZZ_MAX_PROCS], n = s->nblocks;
    MPI_Aint cur = 0;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) { /* a random order, with gaps */
        int j = rng_below(r, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int o = 0; o < n; o++) {
        int i = s->layout == LAYOUT_BLOCKS ? o : order[o];
        const struct ftype *t = &types[s->layout == LAYOUT_W ? i : 0];
        switch (s->layout) {
        case LAYOUT_ONE: displs[i] = 0; break;
        case LAYOUT_BLOCKS:
            displs[i] = (int)cur;
            cur += s->b[0].count;
            break;
        case LAYOUT_V:
            cur += rng_below(r, 3);
            displs[i] = all_zero ? 0 : (int)cur;
            cur += s->b[i].count;
            break;
        case LAYOUT_W: /* the data of block i starts 16-aligned */
            displs[i] = (int)(align_up(cur, 16) - t->true_lb);
            if (all_zero)
                displs[i] = 0;
            cur = align_up(cur, 16) +
                  (s->b[i].count ? (s->b[i].count - 1) * t->extent + t->true_extent : 0) +
                  16 * rng_below(r, 2);
            break;
        }
        at[i] = s->layout == LAYOUT_W ? displs[i] : (MPI_Aint)displs[i] * t->extent;
    }
}

/* The bytes a side's data spans: [*lo, *hi) from the buffer pointer. */
static void span(const struct side *s, const struct ftype *types, const MPI_Aint *at, MPI_Aint *lo,
                 MPI_Aint *hi)
{
    *lo = *hi = 0;
    int any = 0;
    for (int i = 0; i < s->nblocks; i++) {
        const struct ftype *t = &types[s->layout == LAYOUT_W ? i : 0];
        if (s->b[i].count == 0 || t->true_extent == 0)
            continue;
        MPI_Aint a = at[i] + t->true_lb,
                 b = at[i] + (s->b[i].count - 1) * t->extent + t->true_lb + t->true_extent;
        if (!any || a < *lo)
            *lo = a;
        if (!any || b > *hi)
            *hi = b;
        any = 1;
    }
}

/* The padding bytes of every element of every block: 2 in undefined. */
static void mark_padding(struct region *g, const struct side *s, const struct ftype *types,
                         const MPI_Aint *at, MPI_Datatype base)
{
    unsigned char mask[64];
    MPI_Aint e = base_extent(base);
    base_padding(base, mask);
    for (int i = 0; i < s->nblocks; i++) {
        const struct ftype *t = &types[s->layout == LAYOUT_W ? i : 0];
        for (int n = 0; n < s->b[i].count; n++)
            for (int j = 0; j < t->k; j++) {
                size_t first =
                    (size_t)(g->ptr + at[i] + (MPI_Aint)n * t->extent + t->off[j] - (char *)g->mem);
                for (MPI_Aint b = 0; b < e; b++)
                    if (mask[b])
                        g->undefined[first + (size_t)b] = 2;
            }
    }
}

/* Guard, span, guard: every byte from a pattern, then a value at every
 * element of every block. */
static int region_make(struct region *g, const struct side *s, const struct ftype *types,
                       const MPI_Aint *at, MPI_Datatype base, enum value_kind values, struct rng *r)
{
    MPI_Aint lo, hi;
    span(s, types, at, &lo, &hi);
    g->len = (size_t)(hi - lo) + 2 * FUZZ_GUARD;
    if (posix_memalign((void **)&g->mem, 64, g->len) || !(g->initial = malloc(g->len)) ||
        !(g->expected = malloc(g->len)))
        return MPI_ERR_NO_MEM;
    g->ptr = (char *)g->mem + FUZZ_GUARD - lo;
    for (size_t i = 0; i < g->len; i++)
        g->mem[i] = (unsigned char)(0xa5 ^ (i * 7) ^ (rng_next(r) & 0x0f));
    for (int i = 0; i < s->nblocks; i++) {
        const struct ftype *t = &types[s->layout == LAYOUT_W ? i : 0];
        for (int e = 0; e < s->b[i].count; e++)
            for (int j = 0; j < t->k; j++)
                value_write(g->ptr + at[i] + (MPI_Aint)e * t->extent + t->off[j], base, values, r);
    }
    memcpy(g->initial, g->mem, g->len);
    if (!(g->undefined = calloc(g->len, 1)))
        return MPI_ERR_NO_MEM;
    for (int e = s->undefined_from; s->has_undefined && e < s->b[0].count; e++)
        for (int j = 0; j < types[0].k; j++)
            memset(g->ptr + at[0] + (MPI_Aint)e * types[0].extent + types[0].off[j] -
                       (char *)g->mem + (char *)g->undefined,
                   1, (size_t)base_extent(base));
    mark_padding(g, s, types, at, base);
    return MPI_SUCCESS;
}

static void region_free(struct region *g)
{
    free(g->mem);
    free(g->initial);
    free(g->expected);
    free(g->undefined);
    memset(g, 0, sizeof *g);
}

/* ---- one side: types, layout, buffer, arguments ---- */

struct side_args {
    void *buf;
    int count, counts[FUZZ_MAX_PROCS], displs[FUZZ_MAX_PROCS];
    MPI_Datatype type, types[FUZZ_MAX_PROCS];
};

static int side_no_data(const struct side *s, const struct ftype *types)
{
    for (int i = 0; i < s->nblocks; i++)
        if (s->b[i].count && types[s->layout == LAYOUT_W ? i : 0].k)
            return 0;
    return 1;
}

static int side_prepare(const struct side *s, int is_send, int may_be_absolute, int zero_displs,
                        MPI_Datatype base, enum value_kind values, struct ftype *types,
                        struct ftype *abs, int *ntypes, struct region *g, struct side_args *out,
                        struct rng *r)
{
    MPI_Aint at[FUZZ_MAX_PROCS];
    int err, absolute = rng_chance(r, 25) && may_be_absolute, null_buffer = rng_chance(r, 30);
    *ntypes = s->layout == LAYOUT_W ? s->nblocks : 1;
    for (int i = 0; i < *ntypes; i++)
        if ((err = ftype_make(&types[i], s->b[i].kind, base)))
            return err;
    place(s, types, (is_send && rng_chance(r, 15)) || zero_displs, r, at, out->displs);
    if ((err = region_make(g, s, types, at, base, values, r)))
        return err;
    out->buf = g->ptr;
    if (side_no_data(s, types) && null_buffer) {
        out->buf = NULL;
        absolute = 0;
    }
    for (int i = 0; i < *ntypes && absolute; i++)
        if ((err = ftype_absolute(&abs[i], &types[i], g->ptr)))
            return err;
    if (absolute)
        out->buf = MPI_BOTTOM;
    out->type = (absolute ? abs : types)[0].type;
    out->count = s->b[0].count;
    for (int i = 0; i < s->nblocks; i++) {
        out->counts[i] = s->layout == LAYOUT_BLOCKS ? s->b[0].count : s->b[i].count;
        out->types[i] = (absolute ? abs : types)[s->layout == LAYOUT_W ? i : 0].type;
    }
    return MPI_SUCCESS;
}

static enum value_kind values_of(const struct fcase *c)
{
    return c->op.name ? c->op.values : VALUES_ANY;
}

/* The root argument this rank passes. */
static int root_argument(const struct fcase *c, const struct fcomm *fc)
{
    if (!fc->inter)
        return c->root;
    if (fc->group != c->root_group)
        return c->root;
    return fc->rank == c->root ? MPI_ROOT : MPI_PROC_NULL;
}

static int is_reduction(int coll) { return coll >= F_REDUCE; }
static int is_scatter(int coll) { return coll == F_SCATTER || coll == F_SCATTERV; }

/* In place at this rank: rooted collectives are in place at the root only. */
static int in_place_here(const struct fcase *c, const struct fcomm *fc)
{
    int rooted =
        c->coll == F_GATHER || c->coll == F_GATHERV || is_scatter(c->coll) || c->coll == F_REDUCE;
    return c->in_place && (!rooted || fc->rank == c->root);
}

/* What an argument that is not significant here points to: MPICH 4.0.2
 * refuses NULL even there (the sendbuf of an intercommunicator reduce's
 * root). */
static char not_significant[64];

int prepare(struct prepared *p, const struct fcase *c, const struct fcomm *fc)
{
    struct rng r = rng_for(c->seed, (uint64_t)c->number, 1000 + (uint64_t)fc->world_rank);
    struct side_args sa = {0}, ra = {0};
    /* A reduction has one datatype for both buffers: absolute addresses
     * only where one buffer is used. */
    int one_type = is_reduction(c->coll) && ((c->send.used && c->recv.used) ||
                                             !c->op.user || /* predefined ops: named types */
                                             vendor_crashes_on_bottom(c));
    int err = MPI_SUCCESS;
    memset(p, 0, sizeof *p);
    if (c->send.used)
        err = side_prepare(&c->send, 1, !one_type && !vendor_refuses_bottom(c, fc, 1),
                           vendor_misplaces(c, fc), c->base, values_of(c), p->stype, p->sabs,
                           &p->nstypes, &p->send, &sa, &r);
    if (!err && c->recv.used)
        err = side_prepare(&c->recv, 0, !one_type && !vendor_refuses_bottom(c, fc, 0),
                           vendor_misplaces(c, fc), c->base, values_of(c), p->rtype, p->rabs,
                           &p->nrtypes, &p->recv, &ra, &r);
    if (!err && is_reduction(c->coll))
        err = ftype_make(&p->dtype, c->dkind, c->base);
    if (err)
        return err;
    p->sendbuf = c->send.used ? sa.buf : not_significant;
    p->recvbuf = c->recv.used ? ra.buf : not_significant;
    if (in_place_here(c, fc) && is_scatter(c->coll))
        p->recvbuf = MPI_IN_PLACE;
    else if (in_place_here(c, fc))
        p->sendbuf = MPI_IN_PLACE;
    /* Arguments that are not significant here still get values of the
     * right kind: a count of 0 and MPI_INT (a reduction's datatype). */
    p->scount = c->send.used ? sa.count : 0;
    p->rcount = c->recv.used ? ra.count : 0;
    p->sdt = c->send.used ? sa.type : MPI_INT;
    p->rdt = c->recv.used ? ra.type : MPI_INT;
    for (int i = 0; i < FUZZ_MAX_PROCS; i++) {
        p->scounts[i] = c->send.used ? sa.counts[i] : 0;
        p->sdispls[i] = c->send.used ? sa.displs[i] : 0;
        p->rcounts[i] = c->recv.used ? ra.counts[i] : 0;
        p->rdispls[i] = c->recv.used ? ra.displs[i] : 0;
        p->sdts[i] = c->send.used ? sa.types[i] : MPI_INT;
        p->rdts[i] = c->recv.used ? ra.types[i] : MPI_INT;
    }
    if (is_reduction(c->coll))
        p->dt = c->send.used ? p->sdt : c->recv.used ? p->rdt : p->dtype.type;
    p->root = root_argument(c, fc);
    return MPI_SUCCESS;
}

void release_prepared(struct prepared *p)
{
    for (int i = 0; i < p->nstypes; i++) {
        ftype_free(&p->sabs[i]);
        ftype_free(&p->stype[i]);
    }
    for (int i = 0; i < p->nrtypes; i++) {
        ftype_free(&p->rabs[i]);
        ftype_free(&p->rtype[i]);
    }
    ftype_free(&p->dtype);
    region_free(&p->send);
    region_free(&p->recv);
}

void restore(struct prepared *p)
{
    if (p->send.mem)
        memcpy(p->send.mem, p->send.initial, p->send.len);
    if (p->recv.mem)
        memcpy(p->recv.mem, p->recv.initial, p->recv.len);
}

void keep_expected(struct prepared *p)
{
    if (p->send.mem)
        memcpy(p->send.expected, p->send.mem, p->send.len);
    if (p->recv.mem)
        memcpy(p->recv.expected, p->recv.mem, p->recv.len);
}

/* The first byte that differs from the vendor's, but where the standard
 * defines no result and the vendor wrote the byte. */
static long first_difference(const struct region *g, const char **where, int *expected, int *got)
{
    for (size_t i = 0; i < g->len; i++)
        if (g->mem[i] != g->expected[i] && g->undefined[i] != 2 &&
            !(g->undefined[i] && g->expected[i] != g->initial[i])) {
            *where = i < FUZZ_GUARD             ? "guard before the data"
                     : i >= g->len - FUZZ_GUARD ? "guard after the data"
                                                : "data span";
            *expected = g->expected[i];
            *got = g->mem[i];
            return (long)((char *)g->mem + i - g->ptr);
        }
    return -1;
}

int compare(const struct prepared *p, const char **which, const char **where, long *offset,
            int *expected, int *got)
{
    if (p->recv.mem && (*offset = first_difference(&p->recv, where, expected, got)) != -1) {
        *which = "receive buffer";
        return 1;
    }
    if (p->send.mem && (*offset = first_difference(&p->send, where, expected, got)) != -1) {
        *which = "send buffer";
        return 1;
    }
    return 0;
}

/* ---- the call ---- */

/* MPI_<Name>, MPI_I<name> or the persistent init, by form. */
#define FORMS(Name, iname, ...)                                                                    \
    (f == FORM_BLOCKING      ? MPI_##Name(__VA_ARGS__, comm)                                       \
     : f == FORM_NONBLOCKING ? MPI_##iname(__VA_ARGS__, comm, req)                                 \
                             : PERSISTENT_INIT(Name)(__VA_ARGS__, comm, MPI_INFO_NULL, req))

static int issue(const struct fcase *c, const struct prepared *p, MPI_Comm comm, enum form f,
                 MPI_Request *req)
{
    const void *sb = p->sendbuf;
    void *rb = p->recvbuf;
    MPI_Datatype dt = p->dt;
    switch (c->coll) {
    case F_BARRIER:
        return f == FORM_BLOCKING      ? MPI_Barrier(comm)
               : f == FORM_NONBLOCKING ? MPI_Ibarrier(comm, req)
                                       : PERSISTENT_INIT(Barrier)(comm, MPI_INFO_NULL, req);
    case F_BCAST: return FORMS(Bcast, Ibcast, rb, p->rcount, p->rdt, p->root);
    case F_GATHER:
        return FORMS(Gather, Igather, sb, p->scount, p->sdt, rb, p->rcount, p->rdt, p->root);
    case F_GATHERV:
        return FORMS(Gatherv, Igatherv, sb, p->scount, p->sdt, rb, p->rcounts, p->rdispls, p->rdt,
                     p->root);
    case F_SCATTER:
        return FORMS(Scatter, Iscatter, sb, p->scount, p->sdt, rb, p->rcount, p->rdt, p->root);
    case F_SCATTERV:
        return FORMS(Scatterv, Iscatterv, sb, p->scounts, p->sdispls, p->sdt, rb, p->rcount, p->rdt,
                     p->root);
    case F_ALLGATHER:
        return FORMS(Allgather, Iallgather, sb, p->scount, p->sdt, rb, p->rcount, p->rdt);
    case F_ALLGATHERV:
        return FORMS(Allgatherv, Iallgatherv, sb, p->scount, p->sdt, rb, p->rcounts, p->rdispls,
                     p->rdt);
    case F_ALLTOALL:
        return FORMS(Alltoall, Ialltoall, sb, p->scount, p->sdt, rb, p->rcount, p->rdt);
    case F_ALLTOALLV:
        return FORMS(Alltoallv, Ialltoallv, sb, p->scounts, p->sdispls, p->sdt, rb, p->rcounts,
                     p->rdispls, p->rdt);
    case F_ALLTOALLW:
        return FORMS(Alltoallw, Ialltoallw, sb, p->scounts, p->sdispls, p->sdts, rb, p->rcounts,
                     p->rdispls, p->rdts);
    case F_REDUCE: return FORMS(Reduce, Ireduce, sb, rb, c->count, dt, c->op.op, p->root);
    case F_ALLREDUCE: return FORMS(Allreduce, Iallreduce, sb, rb, c->count, dt, c->op.op);
    case F_REDUCE_SCATTER:
        return FORMS(Reduce_scatter, Ireduce_scatter, sb, rb, c->rcounts, dt, c->op.op);
    case F_REDUCE_SCATTER_BLOCK:
        return FORMS(Reduce_scatter_block, Ireduce_scatter_block, sb, rb, c->count, dt, c->op.op);
    case F_SCAN: return FORMS(Scan, Iscan, sb, rb, c->count, dt, c->op.op);
    default: return FORMS(Exscan, Iexscan, sb, rb, c->count, dt, c->op.op);
    }
}

/* The call in form f; after(arg) after each completion (persistent: runs
 * starts, buffers restored in between; every rank makes every start, so
 * after only records what it finds). */
int run_call(const struct fcase *c, const struct fcomm *fc, struct prepared *p, enum form f,
             int (*after)(void *), void *arg, int runs)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int err = issue(c, p, fc->comm, f, &req);
    if (!err && f == FORM_NONBLOCKING)
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (err || f != FORM_PERSISTENT) {
        if (!err && after)
            after(arg);
        return err;
    }
    for (int run = 0; run < runs && !err; run++) {
        if (run)
            restore(p);
        err = MPI_Start(&req);
        if (!err)
            err = MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (!err && after)
            after(arg);
    }
    int free_err = MPI_Request_free(&req);
    return err ? err : free_err;
}

/* --show: this rank's arguments, one line. */
void show_arguments(const struct fcase *c, const struct fcomm *fc, const struct prepared *p)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "rank %d (world %d) of %s: send %s%p count %d [", fc->rank,
                     fc->world_rank, fc->name, p->sendbuf == MPI_IN_PLACE ? "IN_PLACE " : "",
                     p->sendbuf, p->scount);
    for (int i = 0; i < c->send.nblocks && n < 900; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s x%d@%d", kind_name(c->send.b[i].kind),
                      p->scounts[i], p->sdispls[i]);
    n += snprintf(line + n, sizeof line - (size_t)n, " ] recv %s%p count %d [",
                  p->recvbuf == MPI_IN_PLACE ? "IN_PLACE " : "", p->recvbuf, p->rcount);
    for (int i = 0; i < c->recv.nblocks && n < 1000; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s x%d@%d", kind_name(c->recv.b[i].kind),
                      p->rcounts[i], p->rdispls[i]);
    fprintf(stderr, "collfuzz: case %ld: %s: %s ] root %d count %d\n", c->number, c->what, line,
            p->root, c->count);
}
