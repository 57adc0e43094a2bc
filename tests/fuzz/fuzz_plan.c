/* fuzz_plan.c - one case of collfuzz, drawn from (seed, number): the
 * collective, its form, root, op, and the kind and count of every block of
 * every member, so that each transfer's type signatures match. Every member
 * draws the whole plan (every process's choices, in one order) and keeps
 * its own part; where the blocks go in its buffers it chooses itself
 * (fuzz_call.c). */
#include "tests/fuzz/fuzz.h"

#include <stdio.h>
#include <string.h>

const char *const fuzz_coll_names[F_COLL_COUNT] = {
    "barrier",   "bcast",     "gather",     "gatherv",        "scatter",
    "scatterv",  "allgather", "allgatherv", "alltoall",       "alltoallv",
    "alltoallw", "reduce",    "allreduce",  "reduce_scatter", "reduce_scatter_block",
    "scan",      "exscan"};

static const char *const form_names[FORM_COUNT] = {"blocking", "nonblocking", "persistent"};
const char *form_name(enum form f) { return form_names[f]; }

/* The processes of the case's communicator: one group, or two. */
struct view {
    int groups;
    int n[2];
    int group, rank; /* this process */
};

static int peer(const struct view *v, int g) { return v->groups == 2 ? 1 - g : g; }
static int is_me(const struct view *v, int g, int r) { return g == v->group && r == v->rank; }

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}
/* 0 stands for a type of no data: whatever it meets carries nothing. */
static int lcm(int a, int b) { return a && b ? a / gcd(a, b) * b : 0; }

static int base_kinds_only; /* the case's vendor needs them (fuzz_vendor.c) */

static enum kind draw_kind(struct rng *r)
{
    if (rng_chance(r, 40) || base_kinds_only)
        return KIND_BASE;
    if (rng_chance(r, 4))
        return KIND_ZERO;
    return (enum kind)(KIND_DUP + rng_below(r, KIND_ZERO - KIND_DUP));
}

/* Instances per transfer, as a multiple of what the kinds need: mostly
 * small, sometimes none, sometimes enough for segments and pipelines. */
static int draw_multiple(struct rng *r)
{
    int x = rng_below(r, 100);
    if (x < 10)
        return 0;
    if (x < 35)
        return 1;
    if (x < 65)
        return 2 + rng_below(r, 3);
    if (x < 94)
        return 5 + rng_below(r, 36);
    return 100 + rng_below(r, 1400);
}

/* m base elements as instances of kind k. A kind of no data gets no
 * instances: Open MPI 4.1.4 decides by counts, not bytes, whether a
 * message flows (its gatherv root waits for a rank that sends 0 instances
 * when it expects 1 of a type of no data), so the vendor hangs where one
 * side counts instances of such a type and the other does not. */
static int instances(int m, enum kind k)
{
    int e = kind_elements(k);
    return e ? m / e : 0;
}

static void set_one(struct side *s, enum kind k, int count)
{
    s->used = 1;
    s->layout = LAYOUT_ONE;
    s->nblocks = 1;
    s->b[0].kind = k;
    s->b[0].count = count;
}

static void set_blocks(struct side *s, enum layout layout, int n)
{
    s->used = 1;
    s->layout = layout;
    s->nblocks = n;
}

/* ---- bcast ---- */

static void plan_bcast(struct fcase *c, const struct view *v, struct rng *r)
{
    enum kind kinds[2][FUZZ_MAX_PROCS];
    int L = 1, m;
    c->root_group = v->groups == 2 ? rng_below(r, 2) : 0;
    c->root = rng_below(r, v->n[c->root_group]);
    for (int g = 0; g < v->groups; g++)
        for (int i = 0; i < v->n[g]; i++) {
            kinds[g][i] = draw_kind(r);
            int takes_part = v->groups == 1 || g != c->root_group || i == c->root;
            if (takes_part)
                L = lcm(L, kind_elements(kinds[g][i]));
        }
    m = L * draw_multiple(r);
    for (int g = 0; g < v->groups; g++)
        for (int i = 0; i < v->n[g]; i++) {
            int count = instances(m, kinds[g][i]);
            int takes_part = v->groups == 1 || g != c->root_group || i == c->root;
            if (is_me(v, g, i) && takes_part)
                set_one(&c->recv, kinds[g][i], count);
        }
}

/* ---- gather, gatherv, scatter, scatterv ---- */

static void plan_rooted(struct fcase *c, const struct view *v, struct rng *r, int gathering,
                        int vector)
{
    enum kind leaf[FUZZ_MAX_PROCS], root_kind;
    int m[FUZZ_MAX_PROCS], L, gr, gl;
    gr = c->root_group = v->groups == 2 ? rng_below(r, 2) : 0;
    gl = peer(v, gr);
    c->root = rng_below(r, v->n[gr]);
    c->in_place = v->groups == 1 && rng_chance(r, 25);
    root_kind = draw_kind(r);
    L = kind_elements(root_kind);
    for (int i = 0; i < v->n[gl]; i++) {
        leaf[i] = draw_kind(r);
        if (!(c->in_place && i == c->root))
            L = lcm(L, kind_elements(leaf[i]));
    }
    for (int i = 0, shared = L * draw_multiple(r); i < v->n[gl]; i++) {
        int need = c->in_place && i == c->root
                       ? kind_elements(root_kind)
                       : lcm(kind_elements(leaf[i]), kind_elements(root_kind));
        m[i] = vector ? need * draw_multiple(r) : shared;
    }
    struct side *root_side = gathering ? &c->recv : &c->send;
    struct side *leaf_side = gathering ? &c->send : &c->recv;
    for (int i = 0; i < v->n[gl]; i++) {
        int root_count = instances(m[i], root_kind), leaf_count = instances(m[i], leaf[i]);
        if (is_me(v, gr, c->root)) {
            root_side->b[i] = (struct block){root_kind, root_count};
            set_blocks(root_side, vector ? LAYOUT_V : LAYOUT_BLOCKS, v->n[gl]);
        }
        if (is_me(v, gl, i) && !(c->in_place && i == c->root))
            set_one(leaf_side, leaf[i], leaf_count);
    }
}

/* ---- allgather, allgatherv ---- */

static void plan_allgather(struct fcase *c, const struct view *v, struct rng *r, int vector)
{
    enum kind ks[2][FUZZ_MAX_PROCS], kr[2][FUZZ_MAX_PROCS];
    int m[2][FUZZ_MAX_PROCS];
    c->in_place = v->groups == 1 && rng_chance(r, 25);
    for (int g = 0; g < v->groups; g++)
        for (int i = 0; i < v->n[g]; i++) {
            ks[g][i] = draw_kind(r);
            kr[g][i] = draw_kind(r);
        }
    for (int g = 0; g < v->groups && vendor_needs_one_receive_type(c->coll); g++)
        for (int i = 1; i < v->n[g]; i++)
            kr[g][i] = kr[g][0];
    for (int gs = 0; gs < v->groups; gs++) {
        int gr = peer(v, gs), L = 1;
        for (int q = 0; q < v->n[gr]; q++)
            L = lcm(L, kind_elements(kr[gr][q]));
        int shared = L;
        for (int p = 0; p < v->n[gs] && !c->in_place; p++)
            shared = lcm(shared, kind_elements(ks[gs][p]));
        shared *= draw_multiple(r);
        for (int p = 0; p < v->n[gs]; p++) {
            int need = c->in_place ? L : lcm(L, kind_elements(ks[gs][p]));
            m[gs][p] = vector ? need * draw_multiple(r) : shared;
        }
    }
    for (int g = 0; g < v->groups; g++)
        for (int i = 0; i < v->n[g]; i++) {
            int gs = peer(v, g); /* the group this process receives from */
            int send_count = instances(m[g][i], ks[g][i]);
            for (int p = 0; p < v->n[gs]; p++) {
                int count = instances(m[gs][p], kr[g][i]);
                if (is_me(v, g, i))
                    c->recv.b[p] = (struct block){kr[g][i], count};
            }
            if (!is_me(v, g, i))
                continue;
            set_blocks(&c->recv, vector ? LAYOUT_V : LAYOUT_BLOCKS, v->n[gs]);
            if (!c->in_place)
                set_one(&c->send, ks[g][i], send_count);
        }
}

/* ---- alltoall, alltoallv, alltoallw ---- */

/* The kind process (g, i) sends to (w: and receives from) its j-th peer. */
struct a2a_kinds {
    enum kind s[2][FUZZ_MAX_PROCS][FUZZ_MAX_PROCS], r[2][FUZZ_MAX_PROCS][FUZZ_MAX_PROCS];
};

static void draw_a2a_kinds(struct a2a_kinds *k, const struct view *v, struct rng *r, int w)
{
    for (int g = 0; g < v->groups; g++)
        for (int i = 0; i < v->n[g]; i++) {
            enum kind s = draw_kind(r), rk = draw_kind(r);
            for (int j = 0; j < v->n[peer(v, g)]; j++) {
                k->s[g][i][j] = w ? draw_kind(r) : s;
                k->r[g][i][j] = w ? draw_kind(r) : rk;
            }
        }
}

/* Elements (g, i) sends to its peer j: m[g][i][j]. In place the data goes
 * out of the receive buffer, so each pair's two directions carry as much. */
static void draw_a2a_counts(int m[2][FUZZ_MAX_PROCS][FUZZ_MAX_PROCS], const struct a2a_kinds *k,
                            const struct view *v, struct rng *r, int vector, int in_place)
{
    for (int g = 0; g < v->groups; g++) {
        int gp = peer(v, g), L = 1;
        for (int i = 0; i < v->n[g]; i++)
            for (int j = 0; j < v->n[gp]; j++)
                L = lcm(L, lcm(kind_elements(in_place ? k->r[g][i][j] : k->s[g][i][j]),
                               kind_elements(k->r[gp][j][i])));
        int shared = L * draw_multiple(r);
        for (int i = 0; i < v->n[g]; i++)
            for (int j = 0; j < v->n[gp]; j++) {
                if (in_place && j < i) {
                    m[g][i][j] = m[g][j][i];
                    continue;
                }
                int need = lcm(kind_elements(in_place ? k->r[g][i][j] : k->s[g][i][j]),
                               kind_elements(k->r[gp][j][i]));
                if (in_place)
                    need =
                        lcm(need, lcm(kind_elements(k->r[g][j][i]), kind_elements(k->r[gp][i][j])));
                m[g][i][j] = vector ? need * draw_multiple(r) : shared;
            }
    }
}

static void plan_alltoall(struct fcase *c, const struct view *v, struct rng *r, enum layout layout)
{
    static struct a2a_kinds k;
    static int m[2][FUZZ_MAX_PROCS][FUZZ_MAX_PROCS];
    int vector = layout != LAYOUT_BLOCKS;
    c->in_place = v->groups == 1 && rng_chance(r, 20) && !vendor_breaks_persistent_in_place(c);
    base_kinds_only |= vendor_needs_base_types(c->coll, 0, c->in_place);
    draw_a2a_kinds(&k, v, r, layout == LAYOUT_W);
    draw_a2a_counts(m, &k, v, r, vector, c->in_place);
    for (int g = 0; g < v->groups; g++)
        for (int i = 0; i < v->n[g]; i++) {
            int gp = peer(v, g);
            for (int j = 0; j < v->n[gp]; j++) {
                int sc = instances(m[g][i][j], k.s[g][i][j]);
                int rc = instances(m[gp][j][i], k.r[g][i][j]);
                if (is_me(v, g, i)) {
                    c->send.b[j] = (struct block){k.s[g][i][j], sc};
                    c->recv.b[j] = (struct block){k.r[g][i][j], rc};
                }
            }
            if (is_me(v, g, i)) {
                set_blocks(&c->recv, layout, v->n[gp]);
                if (!c->in_place)
                    set_blocks(&c->send, layout, v->n[gp]);
            }
        }
}

/* ---- reductions ---- */

static void plan_reduce(struct fcase *c, const struct view *v, struct rng *r, int count)
{
    int gr = c->root_group = v->groups == 2 ? rng_below(r, 2) : 0;
    c->root = rng_below(r, v->n[gr]);
    c->in_place = v->groups == 1 && rng_chance(r, 25) && !vendor_breaks_in_place_reduce(c->root);
    int me_root = is_me(v, gr, c->root);
    if (me_root)
        set_one(&c->recv, c->dkind, count);
    if (v->group != gr || v->groups == 1)
        if (!(c->in_place && me_root))
            set_one(&c->send, c->dkind, count);
}

static void plan_reduce_scatter(struct fcase *c, const struct view *v, struct rng *r, int block)
{
    int counts[2][FUZZ_MAX_PROCS], sum = 0, t = draw_multiple(r) / 4;
    int empty = vendor_needs_empty_count(c->dkind);
    c->in_place = v->groups == 1 && rng_chance(r, 25);
    for (int i = 0; i < v->n[0]; i++)
        sum += counts[0][i] = empty   ? 0
                              : block ? t * (v->groups == 2 ? v->n[1] : 1)
                                      : draw_multiple(r) / 2;
    if (v->groups == 2) { /* the other group's counts add up to the same */
        int left = sum;
        for (int i = 0; i < v->n[1]; i++) {
            counts[1][i] = empty              ? 0
                           : block            ? t * v->n[0]
                           : i == v->n[1] - 1 ? left
                                              : rng_below(r, left + 1);
            left -= counts[1][i];
        }
    }
    for (int i = 0; i < v->n[v->group]; i++)
        c->rcounts[i] = counts[v->group][i];
    c->count = counts[v->group][v->rank];
    set_one(&c->send, c->dkind, sum);
    set_one(&c->recv, c->dkind, c->in_place ? sum : c->count);
    if (c->in_place) {
        c->send.used = 0;
        c->recv.has_undefined = 1; /* the input past the own block */
        c->recv.undefined_from = c->count;
    }
}

static void plan_reduction(struct fcase *c, const struct view *v, struct rng *r)
{
    op_draw(r, &c->op, &c->base);
    c->dkind = c->op.user ? draw_kind(r) : KIND_BASE;
    if (vendor_needs_contiguous_reduction(c))
        c->dkind = KIND_BASE;
    int count = draw_multiple(r);
    if (vendor_needs_empty_count(c->dkind))
        count = 0;
    switch (c->coll) {
    case F_REDUCE: plan_reduce(c, v, r, count); break;
    case F_REDUCE_SCATTER:
    case F_REDUCE_SCATTER_BLOCK:
        plan_reduce_scatter(c, v, r, c->coll == F_REDUCE_SCATTER_BLOCK);
        break;
    default: /* allreduce, scan, exscan */
        c->in_place = v->groups == 1 && rng_chance(r, 25);
        set_one(&c->recv, c->dkind, count);
        if (!c->in_place)
            set_one(&c->send, c->dkind, count);
        if (c->coll == F_EXSCAN && v->rank == 0) /* no result at rank 0 */
            c->recv.has_undefined = 1;
    }
    if (c->coll != F_REDUCE_SCATTER && c->coll != F_REDUCE_SCATTER_BLOCK)
        c->count = count;
}

/* ---- the case ---- */

static void describe(struct fcase *c, const struct fcomm *fc)
{
    int n = snprintf(c->what, sizeof c->what, "%s %s on %s (%d%s%d)%s base %s",
                     fuzz_coll_names[c->coll], form_name(c->form), fc->name, fc->size,
                     fc->inter ? "<->" : "", fc->inter ? fc->remote_size : 0,
                     c->in_place ? " in place" : "", base_name(c->base));
    if (c->op.name && n > 0 && n < (int)sizeof c->what)
        n += snprintf(c->what + n, sizeof c->what - (size_t)n, " op %s type %s", c->op.name,
                      kind_name(c->dkind));
    if (n > 0 && n < (int)sizeof c->what)
        snprintf(c->what + n, sizeof c->what - (size_t)n, " root %d", c->root);
}

static int is_reduction(int coll) { return coll >= F_REDUCE; }

void plan_case(struct fcase *c, const struct fcomm *fc, uint64_t seed, long number, int form)
{
    struct rng r = rng_for(seed, (uint64_t)number, 2);
    struct view v = {fc->inter ? 2 : 1, {0, 0}, fc->inter ? fc->group : 0, fc->rank};
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->number = number;
    v.n[v.group] = fc->size;
    if (fc->inter)
        v.n[1 - v.group] = fc->remote_size;
    /* scan and exscan have no intercommunicator form */
    c->coll = rng_below(&r, fc->inter ? F_SCAN : F_COLL_COUNT);
    base_kinds_only = vendor_needs_base_types(c->coll, fc->inter, 0);
    c->form = (enum form)rng_below(&r, FORM_COUNT);
    if (form >= 0)
        c->form = (enum form)form;
    c->base = base_draw(&r);
    if (is_reduction(c->coll))
        plan_reduction(c, &v, &r);
    switch (c->coll) {
    case F_BCAST: plan_bcast(c, &v, &r); break;
    case F_GATHER:
    case F_GATHERV:
    case F_SCATTER:
    case F_SCATTERV:
        plan_rooted(c, &v, &r, c->coll == F_GATHER || c->coll == F_GATHERV,
                    c->coll == F_GATHERV || c->coll == F_SCATTERV);
        break;
    case F_ALLGATHER:
    case F_ALLGATHERV: plan_allgather(c, &v, &r, c->coll == F_ALLGATHERV); break;
    case F_ALLTOALL: plan_alltoall(c, &v, &r, LAYOUT_BLOCKS); break;
    case F_ALLTOALLV: plan_alltoall(c, &v, &r, LAYOUT_V); break;
    case F_ALLTOALLW: plan_alltoall(c, &v, &r, LAYOUT_W); break;
    default: break;
    }
    describe(c, fc);
}
