/* reduce_scatter_node.c - reduce-scatter in levels for ranks in blocks per
 * node (common/reduce_scatter_core_node.c): reduce of the whole vector in
 * each node to its leader, reduce_scatter of the nodes' runs among the
 * leaders, scatterv of each run in its node; each level chosen by the tables
 * for its group.
 *
 * Cost (k ranks per node, N nodes) = Cost_i(reduce, n, k)
 * + Cost_e(reduce_scatter, n, N) + Cost_i(scatterv, n/N, k); with binomial,
 * ring and linear levels lg k (alpha_i + n beta_i + n gamma)
 * + (N-1) alpha_e + (N-1)/N n (beta_e + gamma) + (k-1) alpha_i + n/N beta_i:
 * one vector per node on the network where the flat ring has k ranks of a
 * node sharing its link. */
#include "algorithms/common/reduce_scatter_core.h"

int reduce_scatter_node(const struct coll_args *a)
{
    return reduce_scatter_core_node(a, a->recvcounts);
}
