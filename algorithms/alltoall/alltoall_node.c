/* alltoall_node.c - alltoall aggregated per node, for ranks in blocks per
 * node: the leader of each node sends one message to each other node's
 * leader instead of every rank sending one to every rank.
 *
 *   node:    gather of every rank's packed send buffer to the leader (intra)
 *   leader:  regroup the blocks by destination node (local copies)
 *   leaders: alltoallv of the per-node sections                      (inter)
 *   leader:  regroup the blocks by destination rank (local copies)
 *   node:    scatter of each rank's receive buffer, unpacked         (intra)
 *
 * At the leader, buffer all holds the gathered blocks, then the received
 * sections; out the sections to send, then the receive buffers.
 *
 * each exchange run by the algorithm the tables choose for its group
 * (compose/steps.h), on bytes (a homogeneous job: a packed block is its
 * raw data); it is for short blocks, though any length works (byte counts
 * are MPI_Aint).
 *
 * Cost (k ranks per node, N nodes, b bytes per block, n = p b per rank) =
 * Cost_i(gather, kn, k) + Cost_e(alltoallv, N) + Cost_i(scatter, kn, k) +
 * 2 k n copies at the leader; with linear levels 2 (k-1) alpha_i +
 * (N-1) alpha_e + (N-1)/N k n beta_e + 2 (k-1) n beta_i, against the flat
 * algorithms' (p-1) alpha_e per rank, k ranks of a node sending at once:
 * fewer, larger network messages, which wins while alpha_e dominates. */
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"
#include "algorithms/model.h"

/* gather of k packed send buffers (n bytes each) to the leader, alltoallv
 * of the leaders' sections (k n bytes a leader), scatter of k receive
 * buffers; every count is bytes, as the key's. The leader's regrouping
 * copies are not counted. */
double alltoall_node_cost(const struct cost_call *c, const struct machine_model *m)
{
    double node_bytes = c->bytes * c->ppn;
    const struct model_step steps[] = {{0, COLL_gather, node_bytes},
                                       {1, COLL_alltoallv, node_bytes},
                                       {0, COLL_scatter, node_bytes}};
    return c->p <= 1 ? 0 : model_steps(c, m, steps, 3);
}

struct a2a_node {
    const struct node_layout *L;
    size_t b;               /* bytes of one block */
    int k;                  /* ranks on this node */
    char *mine, *all, *out; /* packed: my p blocks; the node's k p; regrouped */
    MPI_Aint *counts, *displs; /* leaders' alltoallv, in bytes (send = receive) */
};

/* Buffers and the leaders' byte counts: node m's section holds its k_m
 * ranks' blocks for this node's k ranks, in both directions. */
static int a2a_setup(const struct coll_args *a, struct a2a_node *x)
{
    const struct node_layout *L = x->L;
    int nodes = L->shape.nodes, leader = L->my_index == 0;
    size_t n = (size_t)a->size * x->b, node_bytes = (size_t)x->k * n;
    x->mine = buf_bytes(a, n ? n : 1);
    x->all = leader ? buf_bytes(a, node_bytes ? 2 * node_bytes : 1) : NULL;
    x->out = leader ? x->all + node_bytes : NULL;
    x->counts = leader ? buf_bytes(a, 2 * (size_t)nodes * sizeof *x->counts) : NULL;
    if (!x->mine || (leader && (!x->all || !x->counts)))
        return MPI_ERR_NO_MEM;
    for (int m = 0; leader && m < nodes; m++) {
        x->counts[m] = (MPI_Aint)((size_t)L->node_size[m] * x->k * x->b);
        x->counts[nodes + m] = (MPI_Aint)((size_t)L->node_start[m] * x->k * x->b);
    }
    x->displs = x->counts ? x->counts + nodes : NULL;
    return MPI_SUCCESS;
}

/* all[j][d] (member j, destination rank d) -> out: per destination node m,
 * [j][d in m], so each section is contiguous. */
static void by_destination_node(const struct coll_args *a, const struct a2a_node *x, size_t n)
{
    const struct node_layout *L = x->L;
    for (int m = 0; m < L->shape.nodes; m++)
        for (int j = 0; j < x->k; j++)
            buf_memcpy(a, x->out + (size_t)x->displs[m] + j * L->node_size[m] * x->b,
                       x->all + j * n + L->node_start[m] * x->b, L->node_size[m] * x->b);
}

/* all (from node m: [source j of m][destination d here]) -> out[d][s],
 * every rank's receive buffer in source rank order. */
static void by_destination_rank(const struct coll_args *a, const struct a2a_node *x, size_t n)
{
    const struct node_layout *L = x->L;
    for (int m = 0; m < L->shape.nodes; m++)
        for (int j = 0; j < L->node_size[m]; j++)
            for (int d = 0; d < x->k; d++)
                buf_memcpy(a, x->out + d * n + (L->node_start[m] + j) * x->b,
                           x->all + (size_t)x->displs[m] + ((size_t)j * x->k + d) * x->b, x->b);
}

static int exchange_sections(const struct coll_args *a, struct a2a_node *x, size_t n)
{
    struct sub_group leaders = node_group_leaders(x->L);
    struct coll_array counts = COLL_ARRAY(x->counts), displs = COLL_ARRAY(x->displs);
    struct coll_args v = {.coll = COLL_alltoallv, .sendbuf = x->out, .sendcounts = counts,
                          .sdispls = displs, .sendtype = MPI_BYTE, .recvbuf = x->all,
                          .recvcounts = counts, .rdispls = displs, .recvtype = MPI_BYTE};
    by_destination_node(a, x, n);
    int err = sub_collective(a, &leaders, &v);
    if (!err)
        by_destination_rank(a, x, n);
    return err;
}

static int node_bytes_step(const struct coll_args *a, struct a2a_node *x, enum coll_id coll,
                           MPI_Aint bytes)
{
    struct sub_group node = node_group_mine(x->L);
    struct coll_args s = {.coll = coll, .sendbuf = coll == COLL_gather ? x->mine : x->out,
                          .sendcount = bytes, .sendtype = MPI_BYTE,
                          .recvbuf = coll == COLL_gather ? x->all : x->mine,
                          .recvcount = bytes, .recvtype = MPI_BYTE, .root = 0};
    return sub_collective(a, &node, &s);
}

int alltoall_node(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct a2a_node x = {.L = L, .b = (size_t)a->recvcount * buf_type_size(a->recvtype),
                         .k = L->node_size[L->my_node]};
    size_t n = (size_t)a->size * x.b;
    const void *src = a->in_place ? a->recvbuf : a->sendbuf;
    int err = a2a_setup(a, &x);
    if (!err)
        err = a->in_place ? buf_pack(src, (MPI_Aint)a->size * a->recvcount, a->recvtype, x.mine, a)
                          : buf_pack(src, (MPI_Aint)a->size * a->sendcount, a->sendtype, x.mine, a);
    if (!err)
        err = node_bytes_step(a, &x, COLL_gather, (MPI_Aint)n);
    if (!err && L->my_index == 0)
        err = exchange_sections(a, &x, n);
    if (!err)
        err = node_bytes_step(a, &x, COLL_scatter, (MPI_Aint)n);
    if (!err)
        err = buf_unpack(x.mine, a->recvbuf, (MPI_Aint)a->size * a->recvcount, a->recvtype, a);
    buf_free(a, x.mine);
    buf_free(a, x.all);
    buf_free(a, x.counts);
    return err;
}
