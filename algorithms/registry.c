/* registry.c - THE table of algorithms. Adding an algorithm adds its file
 * (listed in its folder's sources.am) and one row of NATIVE_ALGORITHMS
 * below; `make doc-tables` then prints it into doc/algorithms.md.
 *
 * Row: X(collective, name, model, restrictions, cost, summary); the function
 * is <collective>_<name>, declared here from the row. model is MODELLED when
 * the algorithm's file defines its cost on the machine model,
 * <collective>_<name>_cost (algorithms/model.h), else UNMODELLED. */
#include "algorithms/registry.h"

#include <stdio.h>
#include <string.h>

#define NATIVE_ALGORITHMS(X)                                                  \
    /* ---- barrier ---- */                                                 \
    X(barrier, dissemination, MODELLED, 0,                                       \
      "Cost = ceil(lg p) alpha", \
      "signal rank+2^k, wait for rank-2^k (Hensgen et al. 1988); any p, the default") \
    X(barrier, recursive_doubling, MODELLED, 0,                                       \
      "Cost = lg(p) alpha (+2 alpha if p not pow2)", \
      "zero-byte exchanges with rank xor 2^k, non-pow2 folded; pow2 p") \
    X(barrier, tree, MODELLED, 0,                                       \
      "Cost = 2 ceil(lg p) alpha", \
      "binomial fan-in to rank 0 then fan-out; fewest messages (p-1 per phase)") \
    X(barrier, node, MODELLED, ALG_NEEDS_NODES,                                       \
      "Cost = 2 Cost_intra(barrier, k) + Cost_inter(barrier, N), k ranks per node, N nodes", \
      "node-aware: barrier in each node, among the leaders, in each node again") \
    X(barrier, inter_leaders, UNMODELLED, ALG_INTER,                                       \
      "Cost = 2 Cost(barrier, p) + alpha", \
      "intercommunicator: local barriers around a zero-byte swap of the two leaders") \
    X(barrier, inter_direct, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha (one round)", \
      "intercommunicator: a zero-byte message to every remote rank and back; small groups") \
    /* ---- bcast ---- */                                                 \
    X(bcast, binomial, MODELLED, 0,                                       \
      "Cost = ceil(lg p) (alpha + n beta)", \
      "whole message down a binomial tree; small messages") \
    X(bcast, knomial, MODELLED, 0,                                       \
      "Cost = ceil(log_4 p) (alpha + 3 n beta)", \
      "whole message down a radix-4 k-nomial tree: half binomial's levels; short messages, many ranks") \
    X(bcast, scatter_allgather, MODELLED, 0,                                       \
      "Cost = (lg p + p - 1) alpha + 2 (p-1)/p n beta", \
      "binomial scatter of byte blocks + ring allgather (van de Geijn); large messages") \
    X(bcast, scatter_rdb_allgather, MODELLED, 0,                                       \
      "Cost = 2 ceil(lg p) alpha + 2 (p-1)/p n beta (+ alpha a step whose window wraps)", \
      "binomial scatter + doubling (Bruck-form) allgather, any p; medium messages") \
    X(bcast, pipeline, MODELLED, ALG_TAKES_SEG,                                       \
      "Cost = (p - 2 + n/s) (alpha + s beta), s = seg (default 64k)", \
      "segmented chain from the root; very large messages, few ranks") \
    X(bcast, binary_pipeline, MODELLED, ALG_TAKES_SEG,                                       \
      "Cost = (floor(lg p) + n/s - 1) (alpha + 2 s beta), s = seg (default 64k): each parent sends a segment to two children at once", \
      "segmented binary tree; large messages on many ranks") \
    X(bcast, linear, MODELLED, 0,                                       \
      "Cost = alpha + (p - 1) n beta", \
      "root sends to every rank at once (flat tree, one round); short messages, high latency") \
    X(bcast, node, MODELLED, ALG_NEEDS_NODES,                                       \
      "Cost = Cost_inter(bcast, N) + Cost_intra(bcast, k), k ranks per node, N nodes", \
      "node-aware: bcast among one rank per node (the root on its node), then in each node") \
    X(bcast, inter_leaders, UNMODELLED, ALG_INTER,                                       \
      "Cost = alpha + n beta + Cost(bcast, q, n)", \
      "intercommunicator: root -> remote rank 0, then the selected bcast in the remote group; short/medium") \
    X(bcast, inter_scatter_allgather, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + n beta + Cost(allgatherv, q, n)", \
      "intercommunicator: root sends block i to remote rank i, then the selected allgatherv there; long") \
    /* ---- gather ---- */                                                 \
    X(gather, binomial, MODELLED, 0,                                       \
      "Cost = lg(p) alpha + ((p-1)/p) n beta", \
      "binomial tree forwarding packed subtrees; small and medium messages") \
    X(gather, linear, MODELLED, 0,                                       \
      "Cost = (p-1) alpha + ((p-1)/p) n beta", \
      "root receives every block at once, no copies; large messages, few ranks") \
    X(gather, node, UNMODELLED, ALG_NEEDS_NODES | ALG_NEEDS_BLOCK_NODES,                     \
      "Cost = Cost_intra(gather, k) + Cost_inter(gatherv, N), k ranks per node, N nodes", \
      "node-aware: gather in each node to one rank (the root on its node), then gatherv of the nodes' runs") \
    X(gather, inter_leaders, UNMODELLED, ALG_INTER,                                       \
      "Cost = Cost(gather, q, n) + alpha + n beta", \
      "intercommunicator: the selected gather at remote rank 0, one message to the root; small blocks") \
    X(gather, inter_linear, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + n beta", \
      "intercommunicator: every remote rank sends straight to the root; large blocks") \
    /* ---- gatherv ---- */                                                 \
    X(gatherv, linear, MODELLED, 0,                                       \
      "Cost = (p-1) alpha + n beta", \
      "root posts a receive per non-empty block, straight into recvbuf; the default") \
    X(gatherv, linear_throttled, UNMODELLED, ALG_TAKES_WINDOW,                                       \
      "Cost = (p-1) alpha + n beta, at most w = outstanding (8) receives in flight", \
      "linear with a Waitany-driven window at the root; large blocks at large p") \
    X(gatherv, inter_linear, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + n beta", \
      "intercommunicator: every remote rank sends straight to the root at rdispls") \
    X(gatherv, inter_linear_throttled, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + n beta, at most w = outstanding (8) receives in flight", \
      "intercommunicator: linear with a window at the root; large blocks from many ranks") \
    /* ---- scatter ---- */                                                 \
    X(scatter, binomial, MODELLED, 0,                                       \
      "Cost = lg(p) alpha + ((p-1)/p) n beta", \
      "binomial tree forwarding packed subtrees; small and medium messages") \
    X(scatter, linear, MODELLED, 0,                                       \
      "Cost = (p-1) alpha + ((p-1)/p) n beta", \
      "root sends every block at once, no copies; large messages, few ranks") \
    X(scatter, node, UNMODELLED, ALG_NEEDS_NODES | ALG_NEEDS_BLOCK_NODES,                    \
      "Cost = Cost_inter(scatterv, N) + Cost_intra(scatter, k), k ranks per node, N nodes", \
      "node-aware: scatterv of the nodes' runs to one rank per node, then scatter in each node") \
    X(scatter, inter_leaders, UNMODELLED, ALG_INTER,                                       \
      "Cost = alpha + n beta + Cost(scatter, q, n)", \
      "intercommunicator: one message to remote rank 0, then the selected scatter; small blocks") \
    X(scatter, inter_linear, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + n beta", \
      "intercommunicator: the root sends block i straight to remote rank i; large blocks") \
    /* ---- scatterv ---- */                                                 \
    X(scatterv, linear, MODELLED, 0,                                       \
      "Cost = (p-1) alpha + n beta", \
      "root posts a send per non-empty block, straight from sendbuf; the default") \
    X(scatterv, linear_throttled, UNMODELLED, ALG_TAKES_WINDOW,                                       \
      "Cost = (p-1) alpha + n beta, at most w = outstanding (8) sends in flight", \
      "linear with a Waitany-driven window at the root; large blocks at large p") \
    X(scatterv, inter_linear, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + n beta", \
      "intercommunicator: the root sends block i straight to remote rank i from sdispls") \
    X(scatterv, inter_linear_throttled, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + n beta, at most w = outstanding (8) sends in flight", \
      "intercommunicator: linear with a window at the root; large blocks to many ranks") \
    /* ---- allgather ---- */                                                 \
    X(allgather, ring, MODELLED, 0,                                       \
      "Cost = (p-1) alpha + ((p-1)/p) n beta", \
      "p-1 steps to the right neighbour, one block each; large messages") \
    X(allgather, recursive_doubling, MODELLED, 0,                                       \
      "Cost = lg(p) alpha + ((p-1)/p) n beta (+2 alpha + (n/p + n) beta if p not pow2, and doubling rounds carry a folded pair's blocks twice)", \
      "groups double by swapping with rank xor 2^k, non-pow2 folded; small messages, pow2 p") \
    X(allgather, bruck, MODELLED, 0,                                       \
      "Cost = ceil(lg p) alpha + ((p-1)/p) n beta (+ n beta_mem rotation)", \
      "Bruck concatenation on a rotated byte buffer, any p; small messages") \
    X(allgather, neighbor_exchange, MODELLED, ALG_NEEDS_EVEN_NP,                                       \
      "Cost = (p/2) alpha + ((p-1)/p) n beta", \
      "pairs of blocks between alternating neighbours (Chen 2005); medium/large, even p") \
    X(allgather, linear, MODELLED, 0,                                       \
      "Cost = 2 alpha + ((p-1)/p) n beta + (p-1) n beta", \
      "flat gather to rank 0 then flat broadcast: two rounds at any p; short blocks, high latency") \
    X(allgather, node, MODELLED, ALG_NEEDS_NODES | ALG_NEEDS_BLOCK_NODES,                  \
      "Cost = Cost_intra(gather, k) + Cost_inter(allgatherv, N) + Cost_intra(bcast, n, k)", \
      "node-aware: gather in each node, allgatherv of the nodes' runs among leaders, bcast in each node") \
    X(allgather, inter_leaders, UNMODELLED, ALG_INTER,                                       \
      "Cost = Cost(gather, p, n_p) + alpha + max(n_p, n_q) beta + Cost(bcast, p, n_q)", \
      "intercommunicator: selected gather, leaders swap, selected bcast; small blocks, many ranks") \
    X(allgather, inter_direct, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + (q m_p + n_q) beta", \
      "intercommunicator: every rank sends its block to every remote rank at once; large blocks") \
    /* ---- allgatherv ---- */                                                 \
    X(allgatherv, ring, UNMODELLED, 0,                                       \
      "Cost = (p-1) alpha + (p-1) m beta, m = largest block", \
      "p-1 steps to the right neighbour, one block each; large even blocks") \
    X(allgatherv, bruck, UNMODELLED, 0,                                       \
      "Cost = ceil(lg p) alpha + ((p-1)/p) n beta (up to lg(p) n beta if uneven)", \
      "Bruck concatenation on a rotated byte buffer, any p; small or uneven blocks") \
    X(allgatherv, recursive_doubling, UNMODELLED, 0,                                       \
      "Cost = lg(p) alpha + ((p-1)/p) n beta (up to lg(p) n beta if uneven)", \
      "groups double via indexed types over rdispls, non-pow2 folded; small messages") \
    X(allgatherv, linear, UNMODELLED, 0,                                       \
      "Cost = 2 alpha + (n - n_0) beta + (p-1) n beta", \
      "flat gather to rank 0 then flat broadcast of all blocks; short vectors, high latency") \
    X(allgatherv, node, UNMODELLED, ALG_NEEDS_NODES | ALG_NEEDS_BLOCK_NODES,                \
      "Cost = Cost_intra(gatherv, k) + Cost_inter(allgatherv, n, N) + Cost_intra(bcast, n, k) + 2n copies", \
      "node-aware: gatherv in each node, allgatherv of the packed node runs among leaders, bcast in each node") \
    X(allgatherv, inter_direct, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + (q m_p + n_q) beta", \
      "intercommunicator: every rank sends its block to every remote rank at once") \
    X(allgatherv, inter_pairwise, UNMODELLED, ALG_INTER,                                       \
      "Cost = max(p,q) alpha + (q m_p + n_q) beta", \
      "intercommunicator: max(p,q) rounds of one sendrecv (rank + j = k mod max); large blocks") \
    /* ---- alltoall ---- */                                                 \
    X(alltoall, bruck, MODELLED, ALG_NO_IN_PLACE,                                       \
      "Cost = ceil(lg p) alpha + (n/2) ceil(lg p) beta (+ (2 + lg p) n local copy)", \
      "Bruck et al. 1997: lg p steps of packed bytes; small blocks, many ranks") \
    X(alltoall, pairwise, MODELLED, ALG_NO_IN_PLACE,                                       \
      "Cost = (p-1) alpha + ((p-1)/p) n beta", \
      "p-1 sendrecv steps, rank+-s or XOR partners for pow2 p; large blocks") \
    X(alltoall, scattered, MODELLED, ALG_NO_IN_PLACE | ALG_TAKES_WINDOW,                                       \
      "Cost = ceil((p-1)/k) alpha + ((p-1)/p) n beta, k = outstanding (default 8; the model chooses it)", \
      "all isend/irecv posted, k pairs in flight per window; medium blocks") \
    X(alltoall, inplace, MODELLED, ALG_NEEDS_IN_PLACE,                                       \
      "Cost = (p - 1 + p mod 2) alpha + ((p-1)/p) n beta (+ ((p-1)/p) n local copy)", \
      "MPI_IN_PLACE path: pairwise swaps in tournament rounds via one block temporary") \
    X(alltoall, linear, MODELLED, 0,                                       \
      "Cost = 2 alpha + 2 (p-1) n beta (+ 2 p n local copy at rank 0)", \
      "relay through rank 0: gather every send buffer, transpose, scatter; tiny blocks") \
    X(alltoall, node, MODELLED, ALG_NEEDS_NODES | ALG_NEEDS_BLOCK_NODES,                  \
      "Cost = Cost_intra(gather, kn, k) + Cost_inter(alltoallv, N) + Cost_intra(scatter, kn, k) + 2kn copies at leaders", \
      "node-aware: leaders gather their node's blocks, swap one section per node pair, scatter; short blocks") \
    X(alltoall, inter_direct, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + (q m + q m') beta", \
      "intercommunicator: block i to and from remote rank i, all at once") \
    X(alltoall, inter_pairwise, UNMODELLED, ALG_INTER,                                       \
      "Cost = max(p,q) alpha + (q m + q m') beta", \
      "intercommunicator: max(p,q) rounds of one sendrecv (rank + j = k mod max); large blocks") \
    /* ---- alltoallv ---- */                                                 \
    X(alltoallv, pairwise, UNMODELLED, ALG_NO_IN_PLACE,                                       \
      "Cost = (p-1) alpha + ((p-1)/p) n beta, n = bytes this rank sends", \
      "p-1 sendrecv steps, rank+-s or XOR partners for pow2 p; large blocks") \
    X(alltoallv, scattered, UNMODELLED, ALG_NO_IN_PLACE | ALG_TAKES_WINDOW,                                       \
      "Cost = ceil((p-1)/k) alpha + ((p-1)/p) n beta, k = outstanding (default 8)", \
      "all isend/irecv posted, k pairs in flight per window; small and medium blocks") \
    X(alltoallv, inplace, UNMODELLED, ALG_NEEDS_IN_PLACE,                                       \
      "Cost = (p - 1 + p mod 2) alpha + ((p-1)/p) n beta (+ ((p-1)/p) n local copy)", \
      "MPI_IN_PLACE path: pairwise swaps in tournament rounds via one block temporary") \
    X(alltoallv, inter_direct, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + (bytes sent + bytes received) beta", \
      "intercommunicator: block i to and from remote rank i, all at once") \
    X(alltoallv, inter_pairwise, UNMODELLED, ALG_INTER,                                       \
      "Cost = max(p,q) alpha + (bytes sent + bytes received) beta", \
      "intercommunicator: max(p,q) rounds of one sendrecv; large blocks") \
    /* ---- alltoallw ---- */                                                 \
    X(alltoallw, pairwise, UNMODELLED, ALG_NO_IN_PLACE,                                       \
      "Cost = (p-1) alpha + ((p-1)/p) n beta, n = bytes this rank sends", \
      "p-1 sendrecv steps, rank+-s or XOR partners for pow2 p; large blocks") \
    X(alltoallw, scattered, UNMODELLED, ALG_NO_IN_PLACE | ALG_TAKES_WINDOW,                                       \
      "Cost = ceil((p-1)/k) alpha + ((p-1)/p) n beta, k = outstanding (default 8)", \
      "all isend/irecv posted, k pairs in flight per window; small and medium blocks") \
    X(alltoallw, inplace, UNMODELLED, ALG_NEEDS_IN_PLACE,                                       \
      "Cost = (p - 1 + p mod 2) alpha + ((p-1)/p) n beta (+ ((p-1)/p) n local copy)", \
      "MPI_IN_PLACE path: pairwise swaps in tournament rounds via one block temporary") \
    X(alltoallw, inter_direct, UNMODELLED, ALG_INTER,                                       \
      "Cost = q alpha + (bytes sent + bytes received) beta", \
      "intercommunicator: block i to and from remote rank i, all at once") \
    X(alltoallw, inter_pairwise, UNMODELLED, ALG_INTER,                                       \
      "Cost = max(p,q) alpha + (bytes sent + bytes received) beta", \
      "intercommunicator: max(p,q) rounds of one sendrecv; large blocks") \
    /* ---- reduce ---- */                                                 \
    X(reduce, binomial, MODELLED, 0,                                                    \
      "Cost = ceil(lg p) (alpha + n beta + n gamma) (+ alpha + n beta + n gamma if the op is non-commutative and root > 0)", \
      "binomial tree to the root, folded in rank order; small messages") \
    X(reduce, pipeline, MODELLED, ALG_TAKES_SEG,                                                    \
      "Cost = (p + s - 2) (alpha + m beta + m gamma), s = n/m segments of m = seg bytes", \
      "segmented chain ending at the root; large messages at small p") \
    X(reduce, binary_pipeline, MODELLED, ALG_TAKES_SEG,                                             \
      "Cost = (floor(lg p) + s - 1) (alpha + 2 m beta + 2 m gamma), s = n/m segments of m = seg bytes: each parent takes a segment from two children at once", \
      "segmented preorder binary tree, order-preserving; large messages, moderate p") \
    X(reduce, linear, MODELLED, 0,                                                      \
      "Cost = alpha + (p - 1) n beta + (p - 1) n gamma", \
      "root receives from every rank at once and folds in rank order; tiny p") \
    X(reduce, rabenseifner, MODELLED, 0,                                                 \
      "Cost = 2 lg(p) alpha + 2n(p-1)/p beta + n(p-1)/p gamma (+ alpha + n beta + n gamma if p not pow2)", \
      "recursive-halving reduce-scatter then binomial gather to the root; long vectors") \
    X(reduce, node, MODELLED, ALG_NEEDS_NODES | ALG_NODE_ORDER,                          \
      "Cost = Cost_intra(reduce, k) + Cost_inter(reduce, N), k ranks per node, N nodes", \
      "node-aware: reduce in each node to one rank (the root on its node), then among those") \
    X(reduce, inter_leaders, UNMODELLED, ALG_INTER,                                       \
      "Cost = Cost(reduce, q, n) + alpha + n beta", \
      "intercommunicator: the selected reduce at remote rank 0, which sends to the root; the default") \
    X(reduce, inter_linear, UNMODELLED, ALG_INTER,                                       \
      "Cost = alpha + q n beta + (q-1) n gamma", \
      "intercommunicator: the root receives every remote vector at once, folds in rank order; tiny") \
    /* ---- allreduce ---- */                                                 \
    X(allreduce, recursive_doubling, MODELLED, 0,                                       \
      "Cost = lg(p) alpha + n lg(p) beta + n lg(p) gamma (+2(alpha+n beta) if p not pow2)", \
      "whole vectors exchanged with partners 1, 2, 4, ... apart; small messages") \
    X(allreduce, reduce_bcast, MODELLED, 0,                                             \
      "Cost = 2 ceil(lg p) alpha + 2 ceil(lg p) n beta + ceil(lg p) n gamma", \
      "binomial reduce to rank 0 then binomial broadcast; the baseline") \
    X(allreduce, reduce_scatter_allgather, MODELLED, 0,                                 \
      "Cost = Cost(reduce_scatter, n) + Cost(allgatherv, n), steps chosen by the tables", \
      "composed: the selected reduce_scatter of p blocks, then the selected allgatherv") \
    X(allreduce, rabenseifner, MODELLED, 0,                                              \
      "Cost = 2 lg(p) alpha + 2n(p-1)/p beta + n(p-1)/p gamma (+2 alpha + 2n beta + n gamma if p not pow2)", \
      "recursive-halving reduce-scatter + recursive-doubling allgather, rank order; medium/long") \
    X(allreduce, ring, MODELLED, ALG_NEEDS_COMMUTATIVE | ALG_TAKES_SEG,                                  \
      "Cost = 2(p-1) alpha + 2n(p-1)/p beta + n(p-1)/p gamma (+ 2(p-1) alpha per extra segment)", \
      "segmented ring reduce-scatter + ring allgather (seg=, 64k); long vectors") \
    X(allreduce, linear, MODELLED, 0,                                                    \
      "Cost = 2 alpha + 2 (p-1) n beta + (p-1) n gamma", \
      "flat reduce to rank 0 (rank order) then flat broadcast: two rounds; short vectors, high latency") \
    X(allreduce, node, MODELLED, ALG_NEEDS_NODES | ALG_NODE_ORDER,                       \
      "Cost = Cost_intra(reduce, k) + Cost_inter(allreduce, N) + Cost_intra(bcast, k)", \
      "node-aware: reduce in each node, allreduce among the leaders, bcast in each node") \
    X(allreduce, node_slices, MODELLED, ALG_NEEDS_NODES | ALG_NEEDS_EQUAL_NODES | ALG_NODE_ORDER, \
      "Cost = Cost_intra(reduce_scatter, n, k) + Cost_inter(allreduce, n/k, N) + Cost_intra(allgatherv, n, k)", \
      "node-aware, long vectors: reduce_scatter in the node, allreduce per slice across nodes, allgatherv") \
    X(allreduce, inter_leaders, UNMODELLED, ALG_INTER,                                       \
      "Cost = Cost(reduce, p, n) + alpha + n beta + Cost(bcast, p, n)", \
      "intercommunicator: selected reduce, leaders swap, selected bcast; short/medium") \
    X(allreduce, inter_reduce_scatter, UNMODELLED, ALG_INTER,                                       \
      "Cost = Cost(reduce_scatter, p, n) + ceil(q/p) alpha + (n/min(p,q)) beta + Cost(allgatherv, p, n)", \
      "intercommunicator: selected reduce_scatter, blocks to the other group, selected allgatherv; long") \
    /* ---- reduce_scatter ---- */                                                 \
    X(reduce_scatter, recursive_halving, UNMODELLED, ALG_NEEDS_COMMUTATIVE,                \
      "Cost = lg(p) alpha + n(p-1)/p beta + n(p-1)/p gamma (+2 alpha + n(1+1/p) beta + n gamma if p not pow2)", \
      "halves the blocks still owned with partners p/2, ..., 1 apart; medium/long vectors") \
    X(reduce_scatter, distance_doubling, UNMODELLED, ALG_NEEDS_COMMUTATIVE,          \
      "Cost = (lg(p)+1) alpha + n beta + n(p-1)/p gamma (+2 alpha + n(1+1/p) beta + n gamma if p not pow2)", \
      "halves the blocks with partners 1, 2, ..., p/2 apart, then one swap; nodes of many ranks") \
    X(reduce_scatter, pairwise, UNMODELLED, 0,                                             \
      "Cost = (p-1) alpha + n(p-1)/p beta + n(p-1)/p gamma",                   \
      "p-1 sendrecvs straight to each block owner, rank order kept; long or uneven blocks") \
    X(reduce_scatter, ring, UNMODELLED, ALG_NEEDS_COMMUTATIVE | ALG_TAKES_SEG,                             \
      "Cost = (p-1) alpha + n(p-1)/p beta + n(p-1)/p gamma (+ (p-1) alpha per extra segment)", \
      "segmented neighbour ring, reduction overlapping transfers (seg=, 64k); long vectors") \
    X(reduce_scatter, recursive_doubling, UNMODELLED, 0,                                   \
      "Cost = lg(p) alpha + n(lg(p) - 2(p-1)/p + lg(p)/p)(beta + gamma) (+2 alpha + n(1+1/p) beta + n gamma if p not pow2)", \
      "order-preserving doubling sending what the partner still needs; non-commutative ops") \
    X(reduce_scatter, reduce_scatterv, UNMODELLED, 0,                                      \
      "Cost = 2 ceil(lg p) alpha + n(ceil(lg p) + (p-1)/p) beta + n ceil(lg p) gamma", \
      "binomial reduce to rank 0 then binomial scatter of the blocks; tiny vectors, any op") \
    X(reduce_scatter, linear, UNMODELLED, 0,                                               \
      "Cost = 2 alpha + (p-1) n beta + ((p-1)/p) n beta + (p-1) n gamma", \
      "flat reduce to rank 0 then flat scatter of the blocks: two rounds, any op; tiny vectors") \
    X(reduce_scatter, node, UNMODELLED, ALG_NEEDS_NODES | ALG_NEEDS_BLOCK_NODES,           \
      "Cost = Cost_intra(reduce, n, k) + Cost_inter(reduce_scatter, n, N) + Cost_intra(scatterv, n/N, k)", \
      "node-aware: reduce in each node, reduce_scatter of the nodes' runs among leaders, scatterv in each node") \
    X(reduce_scatter, inter_leaders, UNMODELLED, ALG_INTER,                                       \
      "Cost = Cost(reduce, p, n) + alpha + n beta + Cost(scatterv, p, n)", \
      "intercommunicator: selected reduce, leaders swap, selected scatterv") \
    /* ---- reduce_scatter_block ---- */                                                 \
    X(reduce_scatter_block, recursive_halving, MODELLED, ALG_NEEDS_COMMUTATIVE,          \
      "Cost = lg(p) alpha + n(p-1)/p beta + n(p-1)/p gamma (+2 alpha + n(1+1/p) beta + n gamma if p not pow2)", \
      "halves the blocks still owned with partners p/2, ..., 1 apart; medium/long vectors") \
    X(reduce_scatter_block, distance_doubling, MODELLED, ALG_NEEDS_COMMUTATIVE,          \
      "Cost = (lg(p)+1) alpha + n beta + n(p-1)/p gamma (+2 alpha + n(1+1/p) beta + n gamma if p not pow2)", \
      "halves the blocks with partners 1, 2, ..., p/2 apart, then one swap; nodes of many ranks") \
    X(reduce_scatter_block, pairwise, MODELLED, 0,                                       \
      "Cost = (p-1) alpha + n(p-1)/p beta + n(p-1)/p gamma",                   \
      "p-1 sendrecvs straight to each block owner, rank order kept; long or uneven blocks") \
    X(reduce_scatter_block, ring, MODELLED, ALG_NEEDS_COMMUTATIVE | ALG_TAKES_SEG,                       \
      "Cost = (p-1) alpha + n(p-1)/p beta + n(p-1)/p gamma (+ (p-1) alpha per extra segment)", \
      "segmented neighbour ring, reduction overlapping transfers (seg=, 64k); long vectors") \
    X(reduce_scatter_block, recursive_doubling, MODELLED, 0,                             \
      "Cost = lg(p) alpha + n(lg(p) - 2(p-1)/p + lg(p)/p)(beta + gamma) (+2 alpha + n(1+1/p) beta + n gamma if p not pow2)", \
      "order-preserving doubling sending what the partner still needs; non-commutative ops") \
    X(reduce_scatter_block, reduce_scatterv, MODELLED, 0,                                \
      "Cost = 2 ceil(lg p) alpha + n(ceil(lg p) + (p-1)/p) beta + n ceil(lg p) gamma", \
      "binomial reduce to rank 0 then binomial scatter of the blocks; tiny vectors, any op") \
    X(reduce_scatter_block, linear, MODELLED, 0,                                         \
      "Cost = 2 alpha + (p-1) n beta + ((p-1)/p) n beta + (p-1) n gamma", \
      "flat reduce to rank 0 then flat scatter of the blocks: two rounds, any op; tiny vectors") \
    X(reduce_scatter_block, node, MODELLED, ALG_NEEDS_NODES | ALG_NEEDS_BLOCK_NODES,     \
      "Cost = Cost_intra(reduce, n, k) + Cost_inter(reduce_scatter, n, N) + Cost_intra(scatterv, n/N, k)", \
      "node-aware: reduce in each node, reduce_scatter of the nodes' runs among leaders, scatterv in each node") \
    X(reduce_scatter_block, inter_leaders, UNMODELLED, ALG_INTER,                                       \
      "Cost = Cost(reduce, p, n) + alpha + n beta + Cost(scatter, p, n)", \
      "intercommunicator: selected reduce, leaders swap, selected scatter") \
    X(reduce_scatter_block, inter_reduce_scatter, UNMODELLED, ALG_INTER,                                       \
      "Cost = Cost(reduce_scatter, p, n) + (ceil(q/p) + ceil(p/q) + 1) alpha + (n/min(p,q)) beta", \
      "intercommunicator: selected reduce_scatter, pieces straight to the remote blocks; long") \
    /* ---- scan ---- */                                                 \
    X(scan, recursive_doubling, UNMODELLED, 0,                                       \
      "Cost = ceil(lg p) alpha + ceil(lg p) n beta + 2 ceil(lg p) n gamma", \
      "partials swapped with rank xor 2^k, lower ranks folded on the left; small vectors") \
    X(scan, linear, UNMODELLED, ALG_TAKES_SEG,                                       \
      "Cost = (p - 2 + S) (alpha + (n/S) beta + (n/S) gamma), S = ceil(n/seg), seg 64k", \
      "chain 0->1->...->p-1 pipelined in segments; large vectors") \
    /* ---- exscan ---- */                                                 \
    X(exscan, recursive_doubling, UNMODELLED, 0,                                       \
      "Cost = ceil(lg p) alpha + ceil(lg p) n beta + 2 ceil(lg p) n gamma", \
      "partials swapped with rank xor 2^k, lower ranks folded on the left; small vectors") \
    X(exscan, linear, UNMODELLED, ALG_TAKES_SEG,                                       \
      "Cost = (p - 2 + S) (alpha + (n/S) beta + (n/S) gamma), S = ceil(n/seg), seg 64k", \
      "chain 0->1->...->p-1 pipelined in segments; large vectors") \
    /* ---- end ---- */

#define DECLARE(coll, name, model, restr, cost, summary)                      \
    int coll##_##name(const struct coll_args *a);                             \
    double coll##_##name##_cost(const struct cost_call *c, const struct machine_model *m);
NATIVE_ALGORITHMS(DECLARE)
#undef DECLARE

#define VENDOR_ROW(coll, facts)                                                    \
    {COLL_##coll, "vendor", NULL, ALG_NEEDS_CONTEXT | ALG_VENDOR,           \
     "Cost = the MPI library's choice",                                      \
     "the MPI library's own collective on the caller's communicator", NULL},
#define COST_FN_MODELLED(coll, name) coll##_##name##_cost
#define COST_FN_UNMODELLED(coll, name) NULL
#define NATIVE_ROW(coll, name, model, restr, cost, summary)                   \
    {COLL_##coll, #name, coll##_##name, restr, cost, summary, COST_FN_##model(coll, name)},

const struct algorithm registry_table[] = {
    COLLSHIM_COLLECTIVES(VENDOR_ROW)
    NATIVE_ALGORITHMS(NATIVE_ROW)
};
const int registry_count = (int)(sizeof registry_table / sizeof registry_table[0]);
_Static_assert(sizeof registry_table / sizeof registry_table[0] <= COLLSHIM_MAX_ALGORITHMS,
               "raise COLLSHIM_MAX_ALGORITHMS");

int registry_find(enum coll_id coll, const char *name, size_t len)
{
    for (int i = 0; i < registry_count; i++)
        if (registry_table[i].coll == coll && strlen(registry_table[i].name) == len &&
            !strncmp(registry_table[i].name, name, len))
            return i;
    return -1;
}

int registry_vendor(enum coll_id coll) { return (int)coll; }

static const struct {
    unsigned flag;
    const char *word;
    const char *why;
} restriction_words[] = {
    {ALG_NEEDS_COMMUTATIVE, "commutative", "needs a commutative op"},
    {ALG_NEEDS_POW2, "pow2", "needs a power-of-two communicator size"},
    {ALG_NEEDS_EVEN_NP, "even-np", "needs an even communicator size"},
    {ALG_NEEDS_COUNT_GE_P, "count>=p", "needs at least one element per rank"},
    {ALG_NO_IN_PLACE, "not-in-place", "cannot run in place"},
    {ALG_NEEDS_PREDEFINED, "predefined-op", "needs a predefined op"},
    {ALG_NEEDS_IN_PLACE, "in-place", "only runs in place"},
    {ALG_NEEDS_CONTEXT, "own-comm", "runs only on the caller's communicator, not as a step"},
    {ALG_INTER, "inter", "runs only on intercommunicators"},
    {ALG_NEEDS_NODES, "nodes", "needs 2 or more nodes and 2 or more ranks on some node"},
    {ALG_NEEDS_EQUAL_NODES, "equal-nodes", "needs the same number of ranks on every node"},
    {ALG_NODE_ORDER, "commutative-or-block", "needs a commutative op or ranks in blocks per node"},
    {ALG_NEEDS_BLOCK_NODES, "block-nodes", "needs the ranks of each node consecutive"},
};

static int restriction_holds(unsigned flag, const struct coll_key *k)
{
    switch (flag) {
    case ALG_NEEDS_COMMUTATIVE: return k->commutative;
    case ALG_NEEDS_POW2: return (k->np & (k->np - 1)) == 0;
    case ALG_NEEDS_EVEN_NP: return k->np % 2 == 0;
    case ALG_NEEDS_COUNT_GE_P: return k->count >= k->np;
    case ALG_NO_IN_PLACE: return !k->in_place;
    case ALG_NEEDS_PREDEFINED: return k->predefined_op;
    case ALG_NEEDS_IN_PLACE: return k->in_place;
    case ALG_NEEDS_CONTEXT: return !k->sub;
    case ALG_INTER: return k->inter;
    case ALG_NEEDS_NODES: return k->shape.nodes >= 2 && k->shape.ppn >= 2;
    case ALG_NEEDS_EQUAL_NODES: return k->shape.equal;
    case ALG_NODE_ORDER: return k->commutative || k->shape.block;
    case ALG_NEEDS_BLOCK_NODES: return k->shape.block;
    default: return 0;
    }
}

int registry_can_run(const struct algorithm *alg, const struct coll_key *key,
                     const char **why)
{
    size_t n = sizeof restriction_words / sizeof restriction_words[0];
    if (key->inter && !(alg->restrictions & (ALG_INTER | ALG_VENDOR))) {
        if (why)
            *why = "is not an intercommunicator algorithm";
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned f = restriction_words[i].flag;
        if ((alg->restrictions & f) && !restriction_holds(f, key)) {
            if (why)
                *why = restriction_words[i].why;
            return 0;
        }
    }
    return 1;
}

void registry_names(enum coll_id coll, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < registry_count && used < len; i++)
        if (registry_table[i].coll == coll)
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     used ? ", " : "", registry_table[i].name);
}

int registry_restriction(int i, unsigned *flag, const char **word, const char **meaning)
{
    if (i < 0 || (size_t)i >= sizeof restriction_words / sizeof restriction_words[0])
        return 0;
    *flag = restriction_words[i].flag;
    *word = restriction_words[i].word;
    *meaning = restriction_words[i].why;
    return 1;
}

void registry_restrictions_text(unsigned restrictions, char *buf, size_t len)
{
    size_t used = 0, n = sizeof restriction_words / sizeof restriction_words[0];
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        if (restrictions & restriction_words[i].flag)
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     used ? "," : "", restriction_words[i].word);
    if (!used)
        snprintf(buf, len, "none");
}
