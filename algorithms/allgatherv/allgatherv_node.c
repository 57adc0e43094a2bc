/* allgatherv_node.c - allgatherv in levels, for ranks in blocks per node
 * (a node's blocks are one run of the packed vector):
 *
 *   node:    gatherv to the leader, straight into recvbuf        (intra)
 *   leader:  pack its node's blocks into their run of a byte vector
 *   leaders: allgatherv of the runs, in place                    (inter)
 *   node:    bcast of the byte vector from the leader, unpacked  (intra)
 *
 * each exchange run by the algorithm the tables choose for its group
 * (compose/steps.h), the last two on bytes (a homogeneous job: a packed
 * block is its raw data), of any length (byte counts are MPI_Aint).
 *
 * Cost (k ranks per node, N nodes, n bytes in all) = Cost_i(gatherv, k)
 * + Cost_e(allgatherv, n, N) + Cost_i(bcast, n, k) + 2n copies; with
 * linear, ring and scatter-allgather levels (k-1) alpha_i + (N-1) alpha_e
 * + (N-1)/N n beta_e + ~3 n beta_i, against the flat ring's (p-1) rounds
 * with k ranks per node sharing its link. */
#include "engine/buf.h"
#include "algorithms/compose/node.h"
#include "algorithms/compose/steps.h"

/* Byte offset of each rank's block in the packed vector (p + 1 entries),
 * then each node's run: bytes and offset (for the leaders' step). */
struct agv_runs {
    size_t *off;
    MPI_Aint *run, *run_off;
};

static int agv_runs(const struct coll_args *a, const struct node_layout *L, struct agv_runs *r)
{
    int p = a->size, nodes = L->shape.nodes;
    size_t tsize = buf_type_size(a->recvtype);
    r->off = buf_bytes(a, (p + 1) * sizeof(size_t) + 2 * (size_t)nodes * sizeof(MPI_Aint));
    if (!r->off)
        return MPI_ERR_NO_MEM;
    r->run = (MPI_Aint *)(r->off + p + 1);
    r->run_off = r->run + nodes;
    r->off[0] = 0;
    for (int i = 0; i < p; i++)
        r->off[i + 1] = r->off[i] + (size_t)coll_array_at(a->recvcounts, i) * tsize;
    for (int n = 0; n < nodes; n++) {
        r->run_off[n] = (MPI_Aint)r->off[L->node_start[n]];
        r->run[n] = (MPI_Aint)(r->off[L->node_start[n + 1]] - r->off[L->node_start[n]]);
    }
    return MPI_SUCCESS;
}

static void *block_of(const struct coll_args *a, int i)
{
    return buf_at(a->recvbuf, coll_array_at(a->rdispls, i), a->recvtype);
}

static int gather_in_node(const struct coll_args *a, const struct node_layout *L)
{
    struct sub_group node = node_group_mine(L);
    int start = L->node_start[L->my_node];
    struct coll_args gv = {.coll = COLL_gatherv, .sendbuf = a->sendbuf,
                           .sendcount = a->sendcount, .sendtype = a->sendtype,
                           .recvbuf = a->recvbuf,
                           .recvcounts = coll_array_from(a->recvcounts, start),
                           .rdispls = coll_array_from(a->rdispls, start), .recvtype = a->recvtype,
                           .root = 0};
    if (a->in_place && L->my_index > 0) { /* my block sits in recvbuf */
        gv.sendbuf = block_of(a, a->rank);
        gv.sendcount = coll_array_at(a->recvcounts, a->rank);
        gv.sendtype = a->recvtype;
    }
    return sub_collective(a, &node, &gv);
}

/* Blocks [first, last) between recvbuf and the packed vector. */
static int move_blocks(const struct coll_args *a, const struct agv_runs *r, char *packed,
                       int first, int last, int pack)
{
    int err = MPI_SUCCESS;
    for (int i = first; i < last && !err; i++) {
        MPI_Aint count = coll_array_at(a->recvcounts, i);
        err = pack ? buf_pack(block_of(a, i), count, a->recvtype, packed + r->off[i], a)
                   : buf_unpack(packed + r->off[i], block_of(a, i), count, a->recvtype, a);
    }
    return err;
}

/* What the leader does not have yet: every block but its node's. */
static int unpack_all(const struct coll_args *a, const struct node_layout *L,
                      const struct agv_runs *r, char *packed)
{
    int first = L->node_start[L->my_node], last = L->node_start[L->my_node + 1];
    if (L->my_index > 0)
        return move_blocks(a, r, packed, 0, a->size, 0);
    int err = move_blocks(a, r, packed, 0, first, 0);
    return err ? err : move_blocks(a, r, packed, last, a->size, 0);
}

int allgatherv_node(const struct coll_args *a)
{
    NODE_LAYOUT_OR_FAIL(L, a);
    struct sub_group node = node_group_mine(L), leaders = node_group_leaders(L);
    struct agv_runs r;
    char *packed = NULL;
    int err = agv_runs(a, L, &r), me = L->my_node;
    if (!err && !(packed = buf_bytes(a, r.off[a->size] ? r.off[a->size] : 1)))
        err = MPI_ERR_NO_MEM;
    if (!err)
        err = gather_in_node(a, L);
    if (!err && L->my_index == 0)
        err = move_blocks(a, &r, packed, L->node_start[me], L->node_start[me + 1], 1);
    if (!err && L->my_index == 0)
        err = step_allgatherv(a, &leaders, MPI_IN_PLACE, 0, packed, COLL_ARRAY(r.run),
                              COLL_ARRAY(r.run_off), MPI_BYTE);
    if (!err)
        err = step_bcast(a, &node, packed, (MPI_Aint)r.off[a->size], MPI_BYTE, 0);
    if (!err)
        err = unpack_all(a, L, &r, packed);
    buf_free(a, packed);
    buf_free(a, r.off);
    return err;
}
