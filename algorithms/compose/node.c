/* node.c - a communicator's node layout and the groups of its levels
 * (node.h). */
#include "algorithms/compose/node.h"

#include <stdlib.h>
#include <string.h>

/* ---- building ---- */

/* Number the nodes by first appearance: node_of[i] for every rank, the
 * count of nodes returned (-1: out of memory). */
static int number_nodes(const int *node_id, int size, int *node_of)
{
    int max_id = 0, nodes = 0;
    for (int i = 0; i < size; i++)
        max_id = node_id[i] > max_id ? node_id[i] : max_id;
    int *local = malloc(((size_t)max_id + 1) * sizeof *local);
    if (!local)
        return -1;
    for (int i = 0; i <= max_id; i++)
        local[i] = -1;
    for (int i = 0; i < size; i++) {
        if (local[node_id[i]] < 0)
            local[node_id[i]] = nodes++;
        node_of[i] = local[node_id[i]];
    }
    free(local);
    return nodes;
}

/* members, node_start, index_in_node from node_of (a counting sort). */
static void sort_members(struct node_layout *L)
{
    int nodes = L->shape.nodes, *fill = L->rooted_peers; /* nodes ints of scratch */
    memset(L->node_start, 0, ((size_t)nodes + 1) * sizeof *L->node_start);
    for (int i = 0; i < L->size; i++)
        L->node_start[L->node_of[i] + 1]++;
    for (int n = 0; n < nodes; n++) {
        L->node_size[n] = L->node_start[n + 1];
        L->node_start[n + 1] += L->node_start[n];
    }
    memcpy(fill, L->node_start, (size_t)nodes * sizeof *fill);
    for (int i = 0; i < L->size; i++) {
        int n = L->node_of[i];
        L->index_in_node[i] = fill[n] - L->node_start[n];
        L->members[fill[n]++] = i;
    }
}

static void describe_shape(struct node_layout *L)
{
    struct node_shape *s = &L->shape;
    s->ppn = 0;
    s->equal = s->block = 1;
    for (int n = 0; n < s->nodes; n++) {
        int k = node_members(L, n);
        s->equal &= k == node_members(L, 0);
        s->ppn = k > s->ppn ? k : s->ppn;
    }
    for (int i = 1; i < L->size; i++) /* blocks: node numbers never go back */
        s->block &= L->node_of[i] >= L->node_of[i - 1];
}

static void fill_peers(struct node_layout *L, const int *peers)
{
    int nodes = L->shape.nodes;
    for (int i = 0; i < L->size; i++)
        L->member_peers[i] = peers ? peers[L->members[i]] : L->members[i];
    for (int n = 0; n < nodes; n++)
        L->leader_peers[n] = L->member_peers[L->node_start[n]];
    if (!L->shape.equal) {
        L->slice_peers = NULL;
        return;
    }
    for (int n = 0; n < nodes; n++)
        L->slice_peers[n] = L->member_peers[L->node_start[n] + L->my_index];
}

struct node_layout *node_layout_build(const int *node_id, int size, int rank, const int *peers)
{
    /* size ints each for node_of, index_in_node, members, member_peers;
     * nodes (<= size) each for node_start (+1), leader, node size, slice
     * and rooted peers */
    size_t ints = 9 * (size_t)size + 1;
    struct node_layout *L = calloc(1, sizeof *L + ints * sizeof(int));
    if (!L)
        return NULL;
    int *p = (int *)(L + 1);
    L->size = size;
    L->node_of = p, p += size;
    L->index_in_node = p, p += size;
    L->members = p, p += size;
    L->member_peers = p, p += size;
    L->shape.nodes = number_nodes(node_id, size, L->node_of);
    if (L->shape.nodes < 0) {
        free(L);
        return NULL;
    }
    L->node_start = p, p += L->shape.nodes + 1;
    L->leader_peers = p, p += L->shape.nodes;
    L->node_size = p, p += L->shape.nodes;
    L->slice_peers = p, p += L->shape.nodes;
    L->rooted_peers = p;
    sort_members(L);
    describe_shape(L);
    L->my_node = L->node_of[rank];
    L->my_index = L->index_in_node[rank];
    fill_peers(L, peers);
    return L;
}

/* ---- the testing spec ---- */

static int parse_list(const char *spec, int size, int *ids)
{
    int i = 0;
    const char *p = spec;
    size_t n = strlen(spec);
    if (n == 0 || spec[n - 1] == ',')
        return -1;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v >= size || i >= size || (*end && *end != ','))
            return -1;
        ids[i++] = (int)v;
        p = *end ? end + 1 : end;
    }
    return i == size ? 0 : -1;
}

int node_ids_parse(const char *spec, int size, int *ids)
{
    int block = !strncmp(spec, "block:", 6), rr = !strncmp(spec, "rr:", 3);
    if (!block && !rr)
        return parse_list(spec, size, ids);
    char *end;
    long k = strtol(spec + (block ? 6 : 3), &end, 10);
    if (*end || k < 1 || k > size)
        return -1;
    for (int r = 0; r < size; r++)
        ids[r] = block ? (int)((long long)r * k / size) : (int)(r % k);
    return 0;
}

/* ---- groups ---- */

struct sub_group node_group_mine(const struct node_layout *L)
{
    int k = node_members(L, L->my_node);
    struct sub_group g = {L->my_index, k, L->member_peers + L->node_start[L->my_node],
                          node_shape_make(1, k, 1, 1), NULL};
    return g;
}

struct sub_group node_group_leaders(const struct node_layout *L)
{
    struct sub_group g = {L->my_node, L->shape.nodes, L->leader_peers,
                          node_shape_make(L->shape.nodes, 1, 1, 1), NULL};
    return g;
}

struct sub_group node_group_slice(const struct node_layout *L)
{
    struct sub_group g = {L->my_node, L->shape.nodes, L->slice_peers,
                          node_shape_make(L->shape.nodes, 1, 1, 1), NULL};
    return g;
}

int node_rep_index(const struct node_layout *L, int root)
{
    return L->node_of[root] == L->my_node ? L->index_in_node[root] : 0;
}

int node_is_rep(const struct node_layout *L, int root)
{
    return L->my_index == node_rep_index(L, root);
}

struct sub_group node_rooted_leaders(const struct node_layout *L, int root)
{
    int root_node = L->node_of[root];
    memcpy(L->rooted_peers, L->leader_peers, (size_t)L->shape.nodes * sizeof(int));
    L->rooted_peers[root_node] = L->member_peers[L->node_start[root_node] +
                                                 L->index_in_node[root]];
    struct sub_group g = {L->my_node, L->shape.nodes, L->rooted_peers,
                          node_shape_make(L->shape.nodes, 1, 1, 1), NULL};
    return g;
}
