/* reduce_tree.c - segmented tree reduction to a root (see reduce_tree.h).
 *
 * Where the ranks sit: positions of reduce_tree_pattern.h, where a node is
 * the first position of its subtree and folds its children in increasing
 * position order, so every partial result covers consecutive positions.
 *
 * - Commutative op: position = rank relative to the root, one tree.
 * - Non-commutative op: positions are ranks, so the order is rank order.
 *   Ranks root..p-1 form the root's tree; ranks 0..root-1 form a second
 *   tree of the same shape topped by rank 0, which sends its partial to
 *   the root as one more child folded on the left:
 *
 *     binomial, p = 7, root = 3:   3 <- {4, 5 <- 6}  and  3 <- 0 <- {1, 2}
 *     result = (x0 x1 x2) op (x3 x4 x5 x6)
 *
 *   The flat shape (linear) folds ranks below the root straight into the
 *   root instead, nearest first: x_{r-1} op acc, then x_{r-2} op acc, ...
 *
 * Per segment a node waits for its children in fold order and folds each
 * into the partial: a child above is folded as acc op child (the result
 * lands in the child's buffer), a child below as child op acc. The partial
 * goes to the parent with a nonblocking send, or into recvbuf at the root.
 * Two slots of segment buffers alternate: the receives of segment s+1 are
 * posted (once the send of s-1 from that slot is done) before segment s is
 * folded, so links and arithmetic overlap along the tree.
 *
 * Memory: 2 slots x children segments; a leaf sends straight from its
 * input. Cost: see the algorithms using it. */
#include "algorithms/common/reduce_tree.h"

#include "engine/buf.h"
#include "engine/p2p.h"
#include "algorithms/patterns/pattern.h"
#include "engine/scratch.h"
#include "algorithms/model.h"

#include <limits.h>
#include <stdlib.h>

/* One tree of positions 0..m-1: position d is rank (origin + dir*d) mod p;
 * position 0 hangs under rank top_parent (-1: it is the root); mirrored
 * sides fold their children on the left. */
struct rt_side {
    int origin, dir, m, top_parent, mirrored;
};

/* My place in the tree: parent rank (-1 at the root), children in fold order. */
struct rt_node {
    int parent, nchild;
    int *child;
    unsigned char *left; /* 1: the child's ranks precede mine: child op acc */
};

struct rt_run {
    const struct coll_args *a;
    struct rt_node node;
    const void *input;
    void *result;       /* the root's recvbuf, NULL elsewhere */
    int in_place_root;  /* the root's input is its result buffer (MPI_IN_PLACE) */
    MPI_Aint count, nseg; /* the vector may pass INT_MAX elements (reduce_scatter) */
    int segcount;
    MPI_Datatype type;
    MPI_Op op;
    void **buf, **base; /* [slot*nchild + i]: child i's segment */
    MPI_Request *req;   /* [slot*(nchild+1) + i]: child i's receive, then the send */
};

static int side_rank(const struct rt_side *s, int d, int p)
{
    return ((s->origin + s->dir * d) % p + p) % p;
}

/* Parent and children of this rank within one side, if it belongs there. */
static void join_side(enum reduce_tree_shape shape, const struct rt_side *s,
                      const struct coll_args *a, struct rt_node *n)
{
    int p = a->size, d = (((a->rank - s->origin) * s->dir) % p + p) % p;
    if (d >= s->m)
        return;
    int pd, first = n->nchild;
    n->nchild += reduce_tree_node(shape, d, s->m, &pd, n->child + first);
    n->parent = pd < 0 ? s->top_parent : side_rank(s, pd, p);
    for (int i = first; i < n->nchild; i++) {
        n->child[i] = side_rank(s, n->child[i], p);
        n->left[i] = (unsigned char)s->mirrored;
    }
}

static int build_node(enum reduce_tree_shape shape, int root, int commutative,
                      const struct coll_args *a, struct rt_node *n)
{
    int p = a->size, nsides = 0;
    struct rt_side sides[2];
    n->parent = -1;
    n->nchild = 0;
    n->child = scratch_get((size_t)p * sizeof *n->child);
    n->left = scratch_get((size_t)p);
    if (!n->child || !n->left)
        return MPI_ERR_NO_MEM;
    if (commutative) {
        sides[nsides++] = (struct rt_side){root, 1, p, -1, 0};
    } else {
        sides[nsides++] = (struct rt_side){root, 1, p - root, -1, 0};
        if (shape == REDUCE_TREE_FLAT)
            sides[nsides++] = (struct rt_side){root, -1, root + 1, -1, 1};
        else
            sides[nsides++] = (struct rt_side){0, 1, root, root, 0};
    }
    for (int i = 0; i < nsides; i++)
        join_side(shape, &sides[i], a, n);
    if (!commutative && shape != REDUCE_TREE_FLAT && a->rank == root && root > 0) {
        n->child[n->nchild] = 0; /* top of the lower ranks' tree */
        n->left[n->nchild++] = 1;
    }
    return MPI_SUCCESS;
}

static int seg_len(const struct rt_run *r, MPI_Aint s)
{
    MPI_Aint rest = r->count - s * r->segcount;
    return rest < r->segcount ? (int)rest : r->segcount;
}

static void *seg_at(const void *buf, const struct rt_run *r, MPI_Aint s)
{
    return buf_at(buf, (MPI_Aint)s * r->segcount, r->type);
}

static void *child_buf(const struct rt_run *r, int slot, int i)
{
    return r->buf[slot * r->node.nchild + i];
}

static MPI_Request *recv_req(struct rt_run *r, int slot, int i)
{
    return &r->req[slot * (r->node.nchild + 1) + i];
}

static MPI_Request *send_req(struct rt_run *r, int slot)
{
    return recv_req(r, slot, r->node.nchild);
}

/* One segment buffer per child and slot, and the request arrays. */
static int pool_alloc(struct rt_run *r)
{
    int slots = r->nseg > 1 ? REDUCE_TREE_SLOTS : 1, k = r->node.nchild;
    r->buf = scratch_get_zeroed((size_t)(REDUCE_TREE_SLOTS * k + 1) * sizeof *r->buf);
    r->base = scratch_get_zeroed((size_t)(REDUCE_TREE_SLOTS * k + 1) * sizeof *r->base);
    r->req = scratch_get((size_t)(REDUCE_TREE_SLOTS * (k + 1)) * sizeof *r->req);
    if (!r->buf || !r->base || !r->req)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < REDUCE_TREE_SLOTS * (k + 1); i++)
        r->req[i] = MPI_REQUEST_NULL;
    for (int i = 0; i < slots * k; i++) {
        int err = buf_alloc_checked(r->a, r->segcount, r->type, &r->buf[i], &r->base[i]);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
}

static int post_recvs(struct rt_run *r, MPI_Aint s)
{
    int slot = s % REDUCE_TREE_SLOTS, err = MPI_SUCCESS;
    for (int i = 0; i < r->node.nchild && !err; i++)
        err = p2p_irecv(child_buf(r, slot, i), seg_len(r, s), r->type, r->node.child[i], r->a,
                        recv_req(r, slot, i));
    return err;
}

/* Before a fold on the left (only the root has children below it), the
 * partial must be writable: move it into the result segment. */
static int own_acc(struct rt_run *r, MPI_Aint s, const void **acc)
{
    void *dst = seg_at(r->result, r, s);
    int err = buf_copy(*acc, seg_len(r, s), r->type, dst, seg_len(r, s), r->type, r->a);
    *acc = dst;
    return err;
}

/* Fold segment s: my input with every child's partial, in fold order. */
static int fold_segment(struct rt_run *r, MPI_Aint s, const void **acc)
{
    int slot = s % REDUCE_TREE_SLOTS, len = seg_len(r, s), err = MPI_SUCCESS;
    int writable = r->in_place_root;
    *acc = seg_at(r->input, r, s);
    for (int i = 0; i < r->node.nchild && !err; i++) {
        void *in = child_buf(r, slot, i);
        if ((err = p2p_wait(r->a, recv_req(r, slot, i))))
            break;
        if (!r->node.left[i]) {
            err = buf_reduce(r->a, *acc, in, len, r->type, r->op);
            *acc = in;
            writable = 1;
            continue;
        }
        if (!writable && (err = own_acc(r, s, acc)))
            break;
        writable = 1;
        err = buf_reduce(r->a, in, (void *)*acc, len, r->type, r->op);
    }
    return err;
}

/* The folded segment goes up the tree, or into recvbuf at the root. */
static int deliver(struct rt_run *r, MPI_Aint s, const void *acc)
{
    int len = seg_len(r, s);
    if (r->node.parent < 0)
        return buf_copy(acc, len, r->type, seg_at(r->result, r, s), len, r->type, r->a);
    return p2p_isend(acc, len, r->type, r->node.parent, r->a, send_req(r, s % REDUCE_TREE_SLOTS));
}

static int run_segments(struct rt_run *r)
{
    int err = post_recvs(r, 0);
    for (MPI_Aint s = 0; s < r->nseg && !err; s++) {
        const void *acc;
        if (s + 1 < r->nseg) {
            err = p2p_wait(r->a, send_req(r, (s + 1) % REDUCE_TREE_SLOTS)); /* segment s-1 left */
            if (!err)
                err = post_recvs(r, s + 1);
        }
        if (!err)
            err = fold_segment(r, s, &acc);
        if (!err)
            err = deliver(r, s, acc);
    }
    return err;
}

/* Complete whatever is still in flight (after an error too), then free. */
static int run_finish(struct rt_run *r, int err)
{
    if (r->req) {
        int werr = p2p_waitall(r->a, REDUCE_TREE_SLOTS * (r->node.nchild + 1), r->req);
        err = err ? err : werr;
    }
    for (int i = 0; r->base && i < REDUCE_TREE_SLOTS * r->node.nchild; i++)
        buf_free(r->a, r->base[i]);
    scratch_put(r->buf);
    scratch_put(r->base);
    scratch_put(r->req);
    scratch_put(r->node.child);
    scratch_put(r->node.left);
    return err;
}

/* Elements per segment: seg bytes (0: the whole vector), at most INT_MAX
 * (a segment is one message and one local reduction). */
static int seg_count(MPI_Aint count, MPI_Datatype type, size_t seg)
{
    size_t size = buf_type_size(type), n = (size_t)count;
    if (seg != 0 && size != 0 && seg / size < n)
        n = seg / size > 0 ? seg / size : 1;
    return n > INT_MAX ? INT_MAX : (int)n;
}

int reduce_tree(enum reduce_tree_shape shape, const void *sendbuf, void *recvbuf, MPI_Aint count,
                MPI_Datatype type, MPI_Op op, int root, size_t seg,
                const struct coll_args *a)
{
    struct rt_run r = {.a = a, .count = count, .type = type, .op = op};
    int commutative = 1, err;
    if (count == 0)
        return MPI_SUCCESS;
    if ((err = PMPI_Op_commutative(op, &commutative)))
        return err;
    r.input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    r.result = a->rank == root ? recvbuf : NULL;
    r.in_place_root = a->rank == root && sendbuf == MPI_IN_PLACE;
    r.segcount = seg_count(count, type, seg);
    r.nseg = count / r.segcount + (count % r.segcount != 0);
    err = build_node(shape, root, commutative, a, &r.node);
    if (!err)
        err = pool_alloc(&r);
    if (!err)
        err = run_segments(&r);
    return run_finish(&r, err);
}

int reduce_tree_binomial(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype type,
                         MPI_Op op, int root, const struct coll_args *a)
{
    return reduce_tree(REDUCE_TREE_BINOMIAL, sendbuf, recvbuf, count, type, op, root,
                       a->params.seg, a);
}

double reduce_tree_flat_cost(const struct cost_call *c, const struct machine_model *m)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double segments = model_segments(c, c->count, 0, 0), piece = c->bytes / segments;
    double receive = model_tree(c, m, piece, c->p - 1, c->p - 1);
    double fold = (c->p - 1) * model_reduce(m, piece);
    return receive + fold + (segments - 1) * (receive > fold ? receive : fold);
}
