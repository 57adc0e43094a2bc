/* node.h - how a communicator's ranks sit on the machine's nodes, and the
 * groups a node-aware algorithm runs its levels on (compose/sub.h).
 *
 * Nodes are numbered in the order of their first rank in the
 * communicator; a node's members in rank order; its first rank is its
 * leader. Every table is the same on every rank except the my_* fields
 * and slice_peers. Built once per communicator (shim/layout.c) from the
 * node of each world rank, with no communication. */
#ifndef COLLSHIM_NODE_H
#define COLLSHIM_NODE_H

#include "algorithms/coll.h"
#include "algorithms/compose/sub.h"

struct node_layout {
    struct node_shape shape;
    int size;              /* ranks of the communicator */
    int my_node, my_index; /* this rank's node, and its index there */
    int *node_of;          /* node of each rank */
    int *index_in_node;    /* index of each rank in its node */
    int *node_start;       /* nodes + 1: node n holds members[node_start[n] .. node_start[n+1]) */
    int *node_size;        /* ranks of each node */
    int *members;          /* the ranks, by node, then by rank */
    int *member_peers;     /* shadow rank of members[i] */
    int *leader_peers;     /* shadow rank of each node's leader */
    int *slice_peers;      /* shadow rank of the my_index-th member of each node
                              (equal nodes only, else NULL) */
    int *rooted_peers;     /* scratch of node_rooted_leaders (used during one call) */
};

/* The layout of a communicator of size ranks, rank `rank`, whose rank i
 * has shadow rank peers[i] (NULL: i) and sits on the node named node_id[i]
 * (any non-negative numbers, equal for ranks of one node). One malloc:
 * free() it. NULL when out of memory. */
struct node_layout *node_layout_build(const int *node_id, int size, int rank, const int *peers);

/* Node of each of size world ranks from a testing spec (COLLSHIM_NODES):
 * "block:K" (K nodes, ranks in near-equal consecutive blocks), "rr:K" (K
 * nodes, rank r on node r mod K) or a list "0,0,1,1,1" of size entries.
 * 0, or -1 when the spec is malformed or does not fit size. */
int node_ids_parse(const char *spec, int size, int *ids);

static inline int node_members(const struct node_layout *L, int node)
{
    return L->node_start[node + 1] - L->node_start[node];
}

/* The layout of a call that a node-aware algorithm needs: NULL only when
 * the selector was given a shape without one (an internal error). */
#define NODE_LAYOUT_OR_FAIL(L, a)                                            \
    const struct node_layout *L = (a)->layout;                               \
    if (!L)                                                                  \
        return MPI_ERR_INTERN

/* This rank's node, as a group (members in rank order; shape 1 node). */
struct sub_group node_group_mine(const struct node_layout *L);
/* The node leaders (index = node; shape: ppn 1); only leaders take part. */
struct sub_group node_group_leaders(const struct node_layout *L);
/* The my_index-th members of every node (equal nodes; index = node). */
struct sub_group node_group_slice(const struct node_layout *L);

/* Rooted collectives: the representative of a node is root on root's node,
 * its leader elsewhere. Its index in this rank's node: */
int node_rep_index(const struct node_layout *L, int root);
/* 1 when this rank represents its node for root. */
int node_is_rep(const struct node_layout *L, int root);
/* The representatives as a group (index = node; root's node is
 * node_of[root]); only representatives take part. */
struct sub_group node_rooted_leaders(const struct node_layout *L, int root);

#endif
