/* check_alltoall.c - matrix of alltoall, alltoallv, alltoallw.
 *
 * Every block of every rank is described the same way for the three
 * collectives: per peer a count, an element layout (plain int, or the
 * strided int of type_strided_int() with nonzero lower bound) and a byte
 * displacement. Cases: block counts from case_counts(), in place or not,
 * layouts
 *   alltoall, alltoallv:  int, strided, int->strided (sender contiguous,
 *                         receiver strided), by-rank (even ranks send
 *                         strided and receive int, odd ranks the reverse)
 *   alltoallw:            peer-parity (int for even peers, strided for odd
 *                         ones), crossed (sender and receiver of one
 *                         message use different layouts), strided
 * and, for v and w, even or uneven counts (zeros, counts below p; symmetric
 * when in place, as the standard requires) with displacements in reverse
 * rank order and gaps between the blocks (bytes for w). Element k of the
 * block from src to dst holds val(src, dst, k): results are checked against
 * that, every byte that is not a received element must keep the sentinel,
 * and the whole receive buffer must equal the vendor's (which is run not in
 * place, on a copy of the in-place input). Open MPI 4.1.4's alltoallw on
 * one rank (coll/self) multiplies byte displacements by the extent, so there
 * the single block sits at displacement 0 (see side_place). */
#include "tests/mpi/check.h"
#include "tests/mpi/check_call.h"
#include "collshim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL 0x5a

enum layout { T_INT, T_STRIDED };

static MPI_Datatype layout_type(enum layout t) { return t == T_INT ? MPI_INT : type_strided_int(); }
static size_t layout_extent(enum layout t) { return t == T_INT ? 4 : 12; }
/* Byte offset of element k from the block's displacement. */
static size_t layout_offset(enum layout t, int k) { return t == T_INT ? 4 * (size_t)k : 8 + 12 * (size_t)k; }

/* Persistent mode's first start of a request sends other values: val_salt
 * is then nonzero (see a2a_between_starts). */
static unsigned val_salt;

/* Element k of the block that rank src sends to rank dst. */
static int val(int src, int dst, int k)
{
    return (int)((unsigned)src * 100000007u + (unsigned)dst * 1000003u + (unsigned)k * 7u + 1u +
                 val_salt * 977u);
}

/* ---- layouts per (me, peer, side) and count patterns ---- */

struct layout_pick {
    const char *name;
    enum layout (*pick)(int me, int peer, int recv);
};

static enum layout pick_int(int me, int peer, int recv) { return T_INT; }
static enum layout pick_strided(int me, int peer, int recv) { return T_STRIDED; }
static enum layout pick_mixed(int me, int peer, int recv) { return recv ? T_STRIDED : T_INT; }
static enum layout pick_by_rank(int me, int peer, int recv)
{
    return (me % 2 == 0) != (recv != 0) ? T_STRIDED : T_INT;
}
static enum layout pick_peer(int me, int peer, int recv) { return peer % 2 ? T_STRIDED : T_INT; }
static enum layout pick_crossed(int me, int peer, int recv)
{
    return (me + peer + recv) % 2 ? T_STRIDED : T_INT;
}

static const struct layout_pick one_type_layouts[] = {
    {"int", pick_int}, {"strided", pick_strided}, {"int->strided", pick_mixed},
    {"by-rank", pick_by_rank}};
static const struct layout_pick per_peer_layouts[] = {
    {"peer-parity", pick_peer}, {"crossed", pick_crossed}, {"strided", pick_strided}};

/* Elements from src to dst; uneven: zeros and small extras, symmetric in
 * (src, dst) when sym (in place). */
static int block_count(int n, int uneven, int sym, int src, int dst)
{
    if (!uneven)
        return n;
    int i = sym && src > dst ? dst : src, j = sym && src > dst ? src : dst;
    return (i + 2 * j + 1) % 3 == 0 ? 0 : n + (2 * i + j) % 4;
}

/* ---- one rank's side of a call ---- */

struct side {
    int *count, *displ;     /* displ: what the call takes (units for v, bytes for w) */
    size_t *disp;           /* byte displacement of each block */
    enum layout *lay;
    MPI_Datatype *type;
    size_t bytes;           /* buffer size */
};

struct a2a_case {
    const char *coll;
    int p, me, in_place;
    struct side s, r;
};

static int side_alloc(struct side *sd, int p)
{
    sd->count = calloc((size_t)p, sizeof(int));
    sd->displ = calloc((size_t)p, sizeof(int));
    sd->disp = calloc((size_t)p, sizeof(size_t));
    sd->lay = calloc((size_t)p, sizeof(enum layout));
    sd->type = calloc((size_t)p, sizeof(MPI_Datatype));
    return sd->count && sd->displ && sd->disp && sd->lay && sd->type;
}

static void side_free(struct side *sd)
{
    free(sd->count); free(sd->displ); free(sd->disp); free(sd->lay); free(sd->type);
}

/* Block displacements: rank order for alltoall; reverse rank order with a
 * gap before every block for v (in extents) and w (8 bytes). */
static void side_place(struct side *sd, const char *coll, int p)
{
    size_t cur = 0;
    if (!strcmp(coll, "alltoall")) {
        for (int j = 0; j < p; j++)
            sd->disp[j] = (size_t)j * (size_t)sd->count[0] * layout_extent(sd->lay[0]);
        cur = (size_t)p * (size_t)sd->count[0] * layout_extent(sd->lay[0]);
    } else if (!strcmp(coll, "alltoallv")) {
        size_t ext = layout_extent(sd->lay[0]), unit = 1;
        for (int j = p - 1; j >= 0; j--) {
            sd->displ[j] = (int)unit;
            sd->disp[j] = unit * ext;
            unit += (size_t)sd->count[j] + 1;
        }
        cur = unit * ext;
    } else {
        /* Open MPI 4.1.4's alltoallw on one rank (coll/self) scales the
         * byte displacements by the extent: give its only block offset 0. */
        cur = p == 1 && !strcmp(collshim_flavour(), "openmpi") ? 0 : 8;
        for (int j = p - 1; j >= 0; j--) {
            sd->displ[j] = (int)cur;
            sd->disp[j] = cur;
            cur += (size_t)sd->count[j] * layout_extent(sd->lay[j]) + 8;
        }
    }
    sd->bytes = cur + 16;
}

static void side_fill(struct side *sd, const struct layout_pick *lp, const struct a2a_case *c,
                      int n, int uneven, int recv)
{
    for (int j = 0; j < c->p; j++) {
        int src = recv ? j : c->me, dst = recv ? c->me : j;
        sd->count[j] = block_count(n, uneven, c->in_place, src, dst);
        sd->lay[j] = lp->pick(c->me, j, recv);
        sd->type[j] = layout_type(sd->lay[j]);
    }
    side_place(sd, c->coll, c->p);
}

/* ---- buffers ---- */

static int *elem_at(void *buf, const struct side *sd, int j, int k)
{
    return (int *)((char *)buf + sd->disp[j] + layout_offset(sd->lay[j], k));
}

/* Blocks of sd as rank c->me's input: block j holds val(me, j, k). */
static void input_fill(const struct a2a_case *c, const struct side *sd, char *buf)
{
    memset(buf, SENTINEL, sd->bytes);
    for (int j = 0; j < c->p; j++)
        for (int k = 0; k < sd->count[j]; k++)
            *elem_at(buf, sd, j, k) = val(c->me, j, k);
}

static void *input_buffer(const struct a2a_case *c, const struct side *sd)
{
    char *buf = malloc(sd->bytes);
    if (buf)
        input_fill(c, sd, buf);
    return buf;
}

/* under_test: the collective in the matrix's mode; else MPI_<Coll>, the
 * vendor's reference. */
static int call_coll(const struct check_env *env, const struct a2a_case *c, const void *sbuf,
                     const struct side *s, void *rbuf, int under_test)
{
    const struct side *r = &c->r;
    if (!strcmp(c->coll, "alltoall"))
        return (under_test ? mode_alltoall : MPI_Alltoall)(
            sbuf, s ? s->count[0] : 0, s ? s->type[0] : MPI_DATATYPE_NULL, rbuf, r->count[0],
            r->type[0], env->comm);
    if (!strcmp(c->coll, "alltoallv"))
        return (under_test ? mode_alltoallv : MPI_Alltoallv)(
            sbuf, s ? s->count : NULL, s ? s->displ : NULL, s ? s->type[0] : MPI_DATATYPE_NULL,
            rbuf, r->count, r->displ, r->type[0], env->comm);
    return (under_test ? mode_alltoallw : MPI_Alltoallw)(
        sbuf, s ? s->count : NULL, s ? s->displ : NULL, s ? s->type : NULL, rbuf, r->count,
        r->displ, r->type, env->comm);
}

/* Received elements hold val(j, me, k); every other byte the sentinel;
 * the whole buffer equals ref when ref is not NULL. `when` starts the
 * messages. */
static void compare(struct check_case *cc, const struct a2a_case *c, char *rbuf, const char *ref,
                    const char *when)
{
    unsigned char *mark = calloc(c->r.bytes, 1);
    if (!mark) {
        check_fail(cc, "out of memory in the checker");
        return;
    }
    for (int j = 0; j < c->p && !cc->failed; j++)
        for (int k = 0; k < c->r.count[j] && !cc->failed; k++) {
            int *e = elem_at(rbuf, &c->r, j, k);
            memset(mark + ((char *)e - rbuf), 1, sizeof(int));
            if (*e != val(j, c->me, k))
                check_fail(cc, "%selement %d of the block from rank %d differs from the value "
                           "computed from the inputs", when, k, j);
        }
    for (size_t b = 0; b < c->r.bytes && !cc->failed; b++)
        if (!mark[b] && (unsigned char)rbuf[b] != SENTINEL)
            check_fail(cc, "%sbyte %zu outside the received elements was overwritten", when, b);
    if (!cc->failed && ref && memcmp(rbuf, ref, c->r.bytes))
        check_fail(cc, "receive buffer differs from the vendor's result");
    free(mark);
}

/* The inputs of one run (of the current val_salt): the send buffer, and
 * the receive buffer (its input when in place, sentinels otherwise). */
static void write_inputs(const struct a2a_case *c, char *sbuf, char *rbuf)
{
    input_fill(c, &c->s, sbuf);
    if (c->in_place)
        input_fill(c, &c->r, rbuf);
    else
        memset(rbuf, SENTINEL, c->r.bytes);
}

/* Persistent mode starts each request twice: first on other values
 * (val_salt 1), checked between the starts, then on the usual ones. */
struct a2a_restart {
    struct check_case *cc;
    const struct a2a_case *c;
    char *sbuf, *rbuf;
};

static void a2a_between_starts(void *arg)
{
    struct a2a_restart *r = arg;
    compare(r->cc, r->c, r->rbuf, NULL, "first start: ");
    val_salt = 0;
    write_inputs(r->c, r->sbuf, r->rbuf);
}

/* Open MPI 4.1.4's MPI_Ialltoallv and MPI_Ialltoallw in place (libnbc,
 * also behind MPIX_<Coll>_init): a rank whose receive counts are all zero
 * returns a no-op request without starting a schedule (nbc_ialltoallv.c),
 * so its per-communicator libnbc tag sequence falls behind the other
 * ranks' and this or a later libnbc collective hangs (np=2); at np=4
 * uneven counts come back wrong. Where the forced algorithm cannot run in
 * place and the vendor's request would run instead, the case is skipped. */
static const char ompi_inplace_bug[] =
    "in-place alltoallv/alltoallw where the vendor's nonblocking call would run: Open MPI "
    "4.1.4's libnbc hangs or returns wrong data there (check_alltoall.c)";

static int vendor_request_broken(const struct a2a_case *c, int can)
{
    return !can && c->in_place && strcmp(c->coll, "alltoall") && check_mode != MODE_BLOCKING &&
           !strcmp(collshim_flavour(), "openmpi");
}

/* The vendor's result for one case, computed at the first algorithm that
 * runs it (every rank decides alike), from inputs of its own. */
struct reference {
    int ready;
    char *rbuf; /* NULL: out of memory */
};

static const char *reference_of(const struct check_env *env, const struct a2a_case *c,
                                struct reference *ref)
{
    if (ref->ready)
        return ref->rbuf;
    ref->ready = 1;
    val_salt = 0;
    char *sbuf = input_buffer(c, &c->s), *init = input_buffer(c, &c->r);
    ref->rbuf = malloc(c->r.bytes);
    if (!sbuf || !init || !ref->rbuf) { /* the other ranks would wait for this one */
        fprintf(stderr, "check_alltoall: out of memory for the vendor's reference\n");
        MPI_Abort(env->comm, 1);
    }
    memset(ref->rbuf, SENTINEL, c->r.bytes);
    vendor_on();
    if (c->in_place)
        call_coll(env, c, init, &c->r, ref->rbuf, 0);
    else
        call_coll(env, c, sbuf, &c->s, ref->rbuf, 0);
    vendor_off();
    free(sbuf);
    free(init);
    return ref->rbuf;
}

static void run_case(const struct check_env *env, const char *alg, struct a2a_case *c,
                     const char *lname, int n, int uneven, struct reference *ref)
{
    struct check_case cc;
    const char *pat = strcmp(c->coll, "alltoall") ? (uneven ? " counts=uneven" : " counts=even") : "";
    int can = collshim_algorithm_can_run(c->coll, alg, env->size, 0, 1, 1, c->in_place);
    if (vendor_request_broken(c, can)) {
        check_skip(env, ompi_inplace_bug);
        return;
    }
    if (strcmp(lname, "int") && strided_type_broken()) {
        check_skip(env, strided_type_broken());
        return;
    }
    char *sbuf = input_buffer(c, &c->s), *rbuf = malloc(c->r.bytes);
    check_begin(env, &cc, c->coll, alg, can, "count=%d inplace=%d layout=%s%s", n, c->in_place,
                lname, pat);
    if (!sbuf || !rbuf) {
        check_fail(&cc, "out of memory in the checker");
    } else {
        struct a2a_restart restart = {&cc, c, sbuf, rbuf};
        val_salt = check_call_twice(a2a_between_starts, &restart);
        write_inputs(c, sbuf, rbuf);
        int err = c->in_place ? call_coll(env, c, MPI_IN_PLACE, NULL, rbuf, 1)
                              : call_coll(env, c, sbuf, &c->s, rbuf, 1);
        check_expect_runs(&cc, check_call_runs());
        val_salt = 0;
        const char *vendor = reference_of(env, c, ref);
        if (err != MPI_SUCCESS)
            check_fail(&cc, "returned error %d", err);
        else
            compare(&cc, c, rbuf, vendor, "");
    }
    check_end(env, &cc);
    free(sbuf); free(rbuf);
}

CHECKER(check_alltoall)
{
    int counts[8], ncounts = case_counts(env, counts, 8);
    int w = !strcmp(coll, "alltoallw"), plain = !strcmp(coll, "alltoall");
    const struct layout_pick *lays = w ? per_peer_layouts : one_type_layouts;
    int nlays = w ? 3 : 4, npat = plain ? 1 : 2;
    struct a2a_case c = {coll, env->size, env->rank, 0, {0}, {0}};
    if (!side_alloc(&c.s, c.p) || !side_alloc(&c.r, c.p)) {
        fprintf(stderr, "check_alltoall: out of memory\n");
        check_failed++;
        return;
    }
    for (int ci = 0; ci < ncounts; ci++)
        for (int ip = 0; ip < 2; ip++)
            for (int l = 0; l < nlays; l++)
                for (int uneven = 0; uneven < npat; uneven++) {
                    struct reference ref = {0};
                    c.in_place = ip;
                    side_fill(&c.s, &lays[l], &c, counts[ci], uneven, 0);
                    side_fill(&c.r, &lays[l], &c, counts[ci], uneven, 1);
                    for (int a = 0; a < nalgs; a++)
                        run_case(env, algs[a], &c, lays[l].name, counts[ci], uneven, &ref);
                    free(ref.rbuf);
                }
    side_free(&c.s);
    side_free(&c.r);
}
