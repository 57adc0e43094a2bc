/* model.c - the rounds costs are written in (model.h), and the cost of
 * a composed algorithm's steps. */
#include "algorithms/model.h"
#include "algorithms/registry.h"
#include "algorithms/patterns/bcast_pattern.h"
#include "algorithms/patterns/reduce_tree_pattern.h"

#include <math.h>
#include <string.h>

static int min_int(int a, int b) { return a < b ? a : b; }

int model_log(int radix, int x)
{
    int levels = 0;
    for (long long reach = 1; reach < x; reach *= radix)
        levels++;
    return levels;
}

int model_pow2_floor(int x)
{
    int pow2 = 1;
    while (pow2 <= x / 2)
        pow2 *= 2;
    return pow2;
}

int model_crosses(const struct cost_call *c, int distance)
{
    return c->nodes > 1 && distance % c->p != 0;
}

/* Whether rank r and rank r xor distance (or a tree's r and r + distance,
 * r a multiple of 2 distance) can sit on different nodes. */
static int pair_crosses(const struct cost_call *c, int distance)
{
    if (c->nodes <= 1)
        return 0;
    if (!c->block || !c->equal)
        return 1;
    return distance >= c->ppn || c->ppn % (2 * distance) != 0;
}

/* The latency a message between nodes adds where it leaves its group of
 * nodes (m->group_nodes, in the communicator's node order): a pair aligned
 * as in recursive doubling or a binomial tree (rank r and r xor distance,
 * or r and r + distance with r a multiple of 2 distance) leaves it where
 * the ranks in blocks of k lie distance / k nodes apart or more; a shift
 * (`aligned` 0: r and r + distance for every r) has a pair crossing a
 * group's edge wherever the nodes span two groups, and a round costs its
 * slowest message. */
static double group_latency(const struct cost_call *c, const struct machine_model *m,
                            int distance, int aligned)
{
    if (m->group_nodes < 1 || c->nodes <= m->group_nodes)
        return 0;
    if (aligned && c->block && c->equal && distance / c->ppn < m->group_nodes)
        return 0;
    return m->alpha_group;
}

/* Whether the figures by node distance price call c: they were measured
 * over as many nodes as it spans (a shift over fewer, as of a
 * communicator inside one leaf switch, does not wait for the spine). */
static int distances_apply(const struct cost_call *c, const struct machine_model *m)
{
    return m->distances > 0 && (m->distance_nodes <= 0 || c->nodes == (int)m->distance_nodes);
}

/* The level i of a round whose every message goes `distance` ranks:
 * node distance 2^i (distance / k on equal nodes in block order; a
 * boundary between neighbouring nodes is level 0); -1 at another node
 * distance, in another order, or where no such level is measured. */
static int distance_level(const struct cost_call *c, const struct machine_model *m,
                          int distance)
{
    if (!distances_apply(c, m) || !c->block || !c->equal || distance <= 0)
        return -1;
    int nodes_apart = distance / c->ppn > 1 ? distance / c->ppn : 1;
    int level = model_log(2, nodes_apart);
    return nodes_apart == 1 << level && level < m->distances ? level : -1;
}

/* The per-byte factor of a round whose messages go `distance` ranks
 * (m->beta_distance): its level's; elsewhere (a burst to many distances
 * at once: distance 0) the mean of those measured, as a pairwise
 * exchange's rounds pass through every distance; 1 where none is. */
static double distance_share(const struct cost_call *c, const struct machine_model *m,
                             int distance)
{
    int level = distance_level(c, m, distance);
    if (level >= 0)
        return m->beta_distance[level];
    if (!distances_apply(c, m))
        return 1;
    double sum = 0;
    for (int i = 0; i < m->distances; i++)
        sum += m->beta_distance[i];
    return sum / m->distances;
}

/* The latency of a round between nodes whose messages go `distance`
 * ranks, a swap with rank r xor distance (`aligned`) or a shift to rank
 * r + distance: the measured one of its level (alpha_exchange,
 * alpha_shift); at another distance, and in a burst to many distances
 * at once (distance 0), the slowest measured of its kind, as some
 * message of such a round goes as far as any; unmeasured, alpha_inter
 * and the step between groups of nodes (a burst crosses a group's edge
 * wherever the nodes span two groups, as a shift does). */
static double round_latency(const struct cost_call *c, const struct machine_model *m,
                            int distance, int aligned)
{
    if (!distances_apply(c, m))
        return m->alpha_inter + group_latency(c, m, distance, aligned);
    const double *alpha = aligned ? m->alpha_exchange : m->alpha_shift;
    int level = distance_level(c, m, distance);
    if (level >= 0)
        return alpha[level];
    double slowest = 0;
    for (int i = 0; i < m->distances; i++)
        slowest = alpha[i] > slowest ? alpha[i] : slowest;
    return slowest;
}

/* One message of `bytes` inside a node, or across at `latency` with
 * `senders` ranks of the node sharing its link, its per-byte time `share`
 * times that of the nearest node's (distance_share). */
static double message(const struct machine_model *m, double bytes, int across, int senders,
                      double share, double latency)
{
    if (!across)
        return m->alpha_intra + bytes * m->beta_intra;
    return latency + bytes * m->beta_inter * (senders > 1 ? senders : 1) * share;
}

/* A rendezvous's handshake: a message of `bytes` between nodes above the
 * MPI's eager limit waits for its receive to be posted and acknowledged
 * (m->handshake) before its bytes leave. Only where the limit is known
 * (eager_inter > 0); messages in flight at once wait for theirs together. */
static double handshake(const struct machine_model *m, double bytes, int across)
{
    return across && m->eager_inter > 0 && bytes > m->eager_inter ? m->handshake : 0;
}

double model_shift(const struct cost_call *c, const struct machine_model *m, double bytes,
                   int distance)
{
    int across = model_crosses(c, distance);
    return message(m, bytes, across, c->block ? min_int(distance, c->ppn) : c->ppn,
                   distance_share(c, m, distance), round_latency(c, m, distance, 0)) +
           handshake(m, bytes, across);
}

double model_exchange(const struct cost_call *c, const struct machine_model *m, double bytes,
                      int distance)
{
    int across = pair_crosses(c, distance);
    return message(m, bytes, across, min_int(distance, c->ppn), distance_share(c, m, distance),
                   round_latency(c, m, distance, 1)) +
           handshake(m, bytes, across);
}

double model_send(const struct cost_call *c, const struct machine_model *m, double bytes,
                  int distance)
{
    int across = pair_crosses(c, distance);
    return message(m, bytes, across, min_int(distance, c->ppn), 1,
                   round_latency(c, m, distance, 1)) +
           handshake(m, bytes, across);
}

/* A tree hop's per-byte time and the overhead of each further message a
 * rank sends or receives at once on it: between nodes while most ranks
 * wait (beta_inter, overhead_lone), inside a node (beta_intra, overhead). */
static double tree_beta(const struct cost_call *c, const struct machine_model *m, int distance)
{
    return pair_crosses(c, distance) ? m->beta_inter : m->beta_intra;
}

static double tree_overhead(const struct cost_call *c, const struct machine_model *m, int distance)
{
    return pair_crosses(c, distance) ? m->overhead_lone : m->overhead;
}

double model_tree(const struct cost_call *c, const struct machine_model *m, double bytes,
                  int distance, int messages)
{
    int across = pair_crosses(c, distance);
    double alpha = across ? m->alpha_lone + group_latency(c, m, distance, 1) : m->alpha_intra;
    messages = messages > 1 ? messages : 1;
    return alpha + messages * bytes * tree_beta(c, m, distance) +
           (messages - 1) * tree_overhead(c, m, distance) + handshake(m, bytes, across);
}

int model_fans(const struct machine_model *m, double bytes)
{
    return m->fan_nodes > 0 && m->eager_inter > 0 && bytes <= m->eager_inter;
}

/* The child's own message (model_tree's, one message), and where it
 * crosses, the byte times of the messages sent with it: each child beyond
 * the first adds fan_share of one to the last one's arrival, and the
 * child `order` waits for the share fan_first of all of them and for the
 * rest of those sent before it; its parent's overhead for each of those. */
double model_fan_arrival(const struct cost_call *c, const struct machine_model *m, double bytes,
                         int distance, int children, int order)
{
    double one = model_tree(c, m, bytes, distance, 1);
    if (!pair_crosses(c, distance) || children <= 1)
        return one;
    double others = m->fan_first * (children - 1) + (1 - m->fan_first) * order;
    return one + others * m->fan_share * bytes * m->beta_inter + order * m->overhead_lone;
}

/* A k-nomial parent's children at level i from its top (weight top /
 * radix^i): the top level's `first`, each other radix - 1; and their
 * model_tree distance, `spread` times the weight. */
static int fan_children(int i, long first, int radix) { return (int)(i == 0 ? first : radix - 1); }

static int fan_distance(long top, int i, int radix, int spread)
{
    for (; i > 0; i--)
        top /= radix;
    return (int)(spread * top);
}

double model_fan_tree(const struct cost_call *c, const struct machine_model *m, int radix,
                      int spread)
{
    double subtree[32] = {0}; /* subtree[l]: one whose root has l levels of children */
    int levels = model_log(radix, c->p);
    long top = 1;
    for (int l = 1; l <= levels; l++, top *= radix) {
        long first = l < levels ? radix - 1 : (c->p - 1) / top;
        first = first < radix - 1 ? first : radix - 1;
        int across = 0, order = 0; /* only children on other nodes share the parent's link */
        int distance[32], crosses[32];
        for (int i = 0; i < l; i++) {
            distance[i] = fan_distance(top, i, radix, spread);
            crosses[i] = pair_crosses(c, distance[i]);
            across += crosses[i] * fan_children(i, first, radix);
        }
        for (int i = 0; i < l; i++) {
            for (long j = 0; j < fan_children(i, first, radix); j++, order += crosses[i]) {
                double t = model_fan_arrival(c, m, c->bytes, distance[i], across, order) +
                           subtree[l - 1 - i];
                subtree[l] = t > subtree[l] ? t : subtree[l];
            }
        }
    }
    return subtree[levels];
}

/* The time a rank's posting of `messages` (receives and sends) adds to a
 * round whose first message takes `latency` and the others' bytes
 * `streaming` more: the sends posted leave while the rest are posted, so
 * the posting of the others hides behind those, less what the first's
 * own posting and receiving take (overhead_post, overhead); beyond them,
 * the last send leaves late. On SMPI's Ethernet a window of 63 posts of 8
 * bytes takes 113 us where a message travels 35. */
static double posting_beyond(const struct machine_model *m, int messages, double latency,
                             double streaming)
{
    double hidden = latency - m->overhead_post - m->overhead + streaming;
    double posting = (messages - 1) * m->overhead_post;
    return posting > hidden ? posting - (hidden > 0 ? hidden : 0) : 0;
}

double model_burst(const struct cost_call *c, const struct machine_model *m, double bytes,
                   int messages, int distance)
{
    int across = model_crosses(c, distance);
    messages = messages > 1 ? messages : 1;
    double latency = across ? round_latency(c, m, 0, 0) : m->alpha_intra;
    double round = message(m, messages * bytes, across, c->ppn, distance_share(c, m, 0), latency);
    double streaming = (round - latency) * (messages - 1) / messages;
    return round + (messages - 1) * m->overhead + posting_beyond(m, messages, latency, streaming) +
           handshake(m, bytes, across);
}

double model_binomial_blocks(const struct cost_call *c, const struct machine_model *m)
{
    double cost = 0, block = c->bytes / c->p;
    for (int d = 1; d < c->p && c->bytes > 0; d *= 2)
        cost += model_tree(c, m, min_int(d, c->p - d) * block, d, 1);
    return cost;
}

double model_flat_blocks(const struct cost_call *c, const struct machine_model *m)
{
    return c->p > 1 && c->bytes > 0 ? model_tree(c, m, c->bytes / c->p, c->p - 1, c->p - 1) : 0;
}

double model_reduce(const struct machine_model *m, double bytes) { return bytes * m->gamma; }

double model_copy(const struct machine_model *m, double bytes) { return bytes * m->gamma; }

double model_segment_bytes(const struct cost_call *c, double seg)
{
    return c->seg > 0 ? c->seg : seg;
}

double model_pipeline_window(const struct machine_model *m, double round, double seg,
                             int messages, int across, int slots)
{
    if (!across || seg > m->eager_inter || !m->eager_waits || slots < 1)
        return 0;
    return (round + messages * m->overhead + (messages + 1) * m->overhead_post) / slots;
}

double model_pipeline_step(const struct machine_model *m, double round, double seg,
                           int messages, int across, double carried, int slots)
{
    if (!across || seg > m->eager_inter)
        return round;
    double streamed = carried * seg * m->beta_inter + messages * m->overhead;
    streamed = streamed < round ? streamed : round;
    double windowed = model_pipeline_window(m, round, seg, messages, across, slots);
    return windowed > streamed ? windowed : streamed;
}

double model_segments(const struct cost_call *c, int64_t elements, double seg,
                      int max_segments)
{
    double size = c->count > 0 ? c->bytes / (double)c->count : 1;
    seg = model_segment_bytes(c, seg);
    if (seg <= 0 || elements <= 0)
        return 1;
    int64_t per_segment = (int64_t)(seg / size);
    if (max_segments > 0 && per_segment < (elements + max_segments - 1) / max_segments)
        per_segment = (elements + max_segments - 1) / max_segments;
    per_segment = per_segment < 1 ? 1 : per_segment;
    return (double)((elements + per_segment - 1) / per_segment);
}

double model_chain_pipeline(const struct cost_call *c, const struct machine_model *m,
                            double seg, int reduces, int slots)
{
    seg = model_segment_bytes(c, seg);
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    double segments = ceil(c->bytes / seg);
    if (seg > c->bytes)
        seg = c->bytes;
    double hop = model_shift(c, m, seg, 1), fold = reduces ? model_reduce(m, seg) : 0;
    double step = model_pipeline_step(m, hop, seg, 1, model_crosses(c, 1), distance_share(c, m, 1),
                                      slots);
    return (c->p - 1) * (hop + fold) + (segments - 1) * (step + fold);
}

/* The children of the busiest parent on a binary tree's deepest level
 * (`depth` levels of edges, p ranks): a heap's deepest level holds p -
 * (2^depth - 1) ranks, filled from its first parent on; a balanced
 * preorder tree's largest subtree there, its leftmost, has p >> (depth - 1)
 * ranks, two children where that is 3. */
static int deepest_children(int p, int depth, enum model_tree_order order)
{
    if (order == MODEL_HEAP_ORDER)
        return p - ((1 << depth) - 1) >= 2 ? 2 : 1;
    return p >> (depth - 1) >= 3 ? 2 : 1;
}

/* Position d's parent (-1 for the root) into *parent and its children
 * into child in the binary tree of `order` (positions relative to the
 * root; children come after their parent); returns how many children. */
static int tree_node(enum model_tree_order order, int d, int p, int *parent, int child[2])
{
    if (order == MODEL_PREORDER)
        return reduce_tree_node(REDUCE_TREE_BINARY, d, p, parent, child);
    int n = 0;
    *parent = bcast_pattern_binary_parent(d);
    for (int k = 0; k < 2; k++)
        if (bcast_pattern_binary_child(d, k, p) >= 0)
            child[n++] = bcast_pattern_binary_child(d, k, p);
    return n;
}

/* The tree's edges that leave or enter the busiest node one way, ranks
 * in blocks of k on equal nodes: its ranks' children on other nodes, or
 * its ranks whose parents are. */
static int busiest_node_edges(const struct cost_call *c, enum model_tree_order order)
{
    int busiest = 0;
    for (int first = 0; first < c->p; first += c->ppn) {
        int end = min_int(first + c->ppn, c->p), in = 0, out = 0, child[2], parent;
        for (int d = first; d < end; d++) {
            for (int i = tree_node(order, d, c->p, &parent, child) - 1; i >= 0; i--)
                in += child[i] >= end;
            out += parent >= 0 && parent < first;
        }
        busiest = in > busiest ? in : busiest;
        busiest = out > busiest ? out : busiest;
    }
    return busiest;
}

/* The byte times of a segment that a full pipeline's round puts on the
 * busiest link: a parent's `children` segments at the widest edges'
 * `share`, or, where a node holds several ranks in blocks, the segments
 * of every edge through its link, each beyond the first adding fan_share
 * of one where the fan is measured (a torus host's edges leave on several
 * links). On SMPI's fat tree, 64 hosts of 4, a host's link carries up to
 * 5 edges of reduce's tree and 8 of bcast's, whose 32 and 64 KiB segments
 * took 13.3-14.8 and 46-54 us each where a segment's bytes take 2.75
 * and 5.5. */
static double carried_segments(const struct cost_call *c, const struct machine_model *m,
                               enum model_tree_order order, int children, double share)
{
    double carried = children * share;
    if (c->ppn <= 1 || !c->block || !c->equal)
        return carried;
    int edges = busiest_node_edges(c, order);
    double link = 1 + (edges - 1) * (m->fan_nodes > 0 ? m->fan_share : 1);
    return link > carried ? link : carried;
}

/* A subtree's one-segment reduce: when its root has folded its children's
 * partials (sizes in the memo `known`, up to PREORDER_SIZES of them). A
 * child's message leaves once its subtree is done; the later of the two
 * adds its own overhead, and where it arrives within the other's byte
 * time, the bytes it shares the link with (model_tree's second message).
 * The left child sits next to its parent, the right one half the subtree
 * away: on SMPI's fat tree the right children at 64 hosts cross the spine
 * at three levels and the left ones never, and a one-segment reduce of 4
 * B took 9.2 us where six levels each as far as binomial's priced it
 * 10.7. On Ethernet, where every message takes as long, a level waits for
 * one message where the right subtree is shallower and for two where it
 * is as deep: a reduce of 32 KiB took 49.3 us a level at 4-64 hosts. */
enum { PREORDER_SIZES = 128 };
struct preorder_memo {
    int count, size[PREORDER_SIZES];
    double done[PREORDER_SIZES];
};

static double preorder_subtree(const struct cost_call *c, const struct machine_model *m,
                               double seg, double fold, int size, struct preorder_memo *known)
{
    if (size <= 1)
        return 0;
    for (int i = 0; i < known->count; i++)
        if (known->size[i] == size)
            return known->done[i];
    int left = size / 2, right = size - 1 - left;
    double done = preorder_subtree(c, m, seg, fold, left, known) + model_tree(c, m, seg, 1, 1);
    if (right > 0) {
        double other = preorder_subtree(c, m, seg, fold, right, known) +
                       model_tree(c, m, seg, 1 + left, 1);
        int far = other > done, distance = far ? 1 + left : 1;
        double later = far ? other : done, gap = fabs(other - done);
        double bytes = seg * tree_beta(c, m, distance);
        done = later + tree_overhead(c, m, distance) + (bytes > gap ? bytes - gap : 0) + fold;
    }
    done += fold;
    if (known->count < PREORDER_SIZES) {
        known->size[known->count] = size;
        known->done[known->count++] = done;
    }
    return done;
}

/* The messages that reach the parent on the preorder tree's deepest path
 * `level` levels below the root together, at the end of its wait: its
 * left child's, and its right child's where that subtree is as deep (the
 * left child holds the larger half, so the right is never deeper); the
 * level pricing's stand-in for preorder_subtree where a hop's crossing
 * depends on its position. */
static int preorder_last_messages(int p, int level)
{
    int size = p >> level, left = size / 2, right = size - 1 - left;
    int deep = model_log(2, model_pow2_floor(left)); /* level < lg p: size >= 2, left >= 1 */
    return right > 0 && model_log(2, model_pow2_floor(right)) == deep ? 2 : 1;
}

/* Whether a node's ranks, in blocks of several, make a preorder child's
 * crossing depend on its position (then the tree is priced by levels). */
static int crossings_by_position(const struct cost_call *c)
{
    return c->nodes > 1 && c->ppn > 1 && c->block && c->equal;
}

/* The first segment's climb, level by level: a parent's two segments a
 * level (one where it waits for the left child alone, `one_preorder`), a
 * level's edges 2^level to 2^(level+1) - 1 ranks long. */
static double levels_fill(const struct cost_call *c, const struct machine_model *m, double seg,
                          double fold, enum model_tree_order order, int one_preorder)
{
    int depth = model_log(2, model_pow2_floor(c->p)), children = c->p > 2 ? 2 : 1;
    double fill = 0;
    for (int level = 0; level < depth; level++) {
        int kids = level < depth - 1 ? children : deepest_children(c->p, depth, order);
        int last = one_preorder ? preorder_last_messages(c->p, level) : kids;
        fill += model_tree(c, m, seg, 1 << level, last) +
                (kids - last) * tree_overhead(c, m, 1 << level) + kids * fold;
    }
    return fill;
}

double model_binary_pipeline(const struct cost_call *c, const struct machine_model *m,
                             double seg, enum model_tree_order order, int reduces, int slots)
{
    if (c->p <= 1 || c->bytes <= 0)
        return 0;
    int depth = model_log(2, model_pow2_floor(c->p)), children = c->p > 2 ? 2 : 1;
    double segments = model_segments(c, c->count, seg, 0);
    seg = model_segment_bytes(c, seg);
    seg = seg > c->bytes ? c->bytes : seg;
    double fold = reduces ? model_reduce(m, seg) : 0; /* a child's segment */
    int one_preorder = order == MODEL_PREORDER && segments < 2;
    if (one_preorder && !crossings_by_position(c)) {
        struct preorder_memo known = {0};
        return preorder_subtree(c, m, seg, fold, c->p, &known);
    }
    double fill = levels_fill(c, m, seg, fold, order, one_preorder);
    int widest = c->p / 2, across = pair_crosses(c, widest);
    double carried = across ? carried_segments(c, m, order, children,
                                               distance_share(c, m, widest))
                            : children;
    double round = model_tree(c, m, seg, widest, children) +
                   (carried - children) * seg * m->beta_inter;
    double step = model_pipeline_step(m, round, seg, children, across, carried, slots);
    double per_segment = step + children * fold, piped = fill + (segments - 1) * per_segment;
    if (segments < 2 || model_pipeline_window(m, round, seg, children, across, slots) < step)
        return piped;
    double held = segments < slots ? segments : slots;
    double queued = (held * (depth - 1) + segments - 1) * per_segment;
    return queued > piped ? queued : piped;
}

double model_fold(const struct cost_call *c, const struct machine_model *m, double in,
                  double back)
{
    if (model_pow2_floor(c->p) == c->p)
        return 0;
    return model_exchange(c, m, in, 1) + model_reduce(m, in) + model_exchange(c, m, back, 1);
}

double model_folded_exchange(const struct cost_call *c, const struct machine_model *m,
                             double bytes, int distance)
{
    double cost = model_exchange(c, m, bytes, distance);
    if (model_pow2_floor(c->p) < c->p) {
        double wide = model_exchange(c, m, bytes, 2 * distance);
        cost = wide > cost ? wide : cost;
    }
    return cost;
}

double model_folded_bytes(int blocks, int folded, double block)
{
    return (blocks + (blocks < folded ? blocks : folded)) * block;
}

struct cost_call model_node_level(const struct cost_call *c)
{
    struct cost_call node = *c;
    node.p = c->ppn;
    node.nodes = 1;
    node.block = node.equal = 1;
    return node;
}

struct cost_call model_leader_level(const struct cost_call *c)
{
    struct cost_call leaders = *c;
    leaders.p = c->nodes;
    leaders.ppn = 1;
    leaders.block = leaders.equal = 1;
    return leaders;
}

/* The key of a step with c's shape (a step's op is taken as commutative
 * and predefined: composed algorithms are costed for those). */
static struct coll_key step_key(const struct cost_call *c)
{
    struct coll_key key = {.coll = c->coll, .np = c->p, .bytes = (uint64_t)c->bytes,
                           .count = c->count, .commutative = 1, .predefined_op = 1,
                           .sub = 1};
    key.shape = node_shape_make(c->nodes, c->ppn, c->equal, c->block);
    return key;
}

/* Collectives whose algorithms are those of another on counts that
 * differ per rank (the same patterns, common/): each of their algorithms
 * is costed as the other's of the same name, on the call's total bytes. */
static const struct {
    enum coll_id coll, costed_as;
} stand_ins[] = {
    {COLL_allgatherv, COLL_allgather},
    {COLL_reduce_scatter, COLL_reduce_scatter_block},
    {COLL_alltoallv, COLL_alltoall},
};

coll_cost_fn model_of(int row)
{
    const struct algorithm *alg = &registry_table[row];
    if (alg->model || (alg->restrictions & ALG_NEEDS_NODES))
        return alg->model;
    for (size_t i = 0; i < sizeof stand_ins / sizeof stand_ins[0]; i++)
        if (stand_ins[i].coll == alg->coll) {
            int twin = registry_find(stand_ins[i].costed_as, alg->name, strlen(alg->name));
            return twin >= 0 ? registry_table[twin].model : NULL;
        }
    return NULL;
}

double model_row_cost(int row, const struct coll_key *key, const struct cost_call *c,
                      const struct machine_model *m)
{
    const struct algorithm *alg = &registry_table[row];
    coll_cost_fn model = model_of(row);
    if (alg->coll != key->coll || !model || !registry_can_run(alg, key, NULL))
        return COST_UNKNOWN;
    return model(c, m);
}

/* The windows are tried smallest first and a window wins only where it
 * is cheaper, so a tie keeps fewer requests in flight. */
double model_cheapest_window(int row, const struct coll_key *key, const struct cost_call *c,
                             const struct machine_model *m, int *outstanding)
{
    struct cost_call windowed = *c;
    windowed.outstanding = 0;
    double best = model_row_cost(row, key, &windowed, m);
    *outstanding = 0;
    if (best < 0 || !(registry_table[row].restrictions & ALG_TAKES_WINDOW))
        return best;
    coll_cost_fn cost = model_of(row); /* the row runs key: checked once above */
    for (int k = 2; k < 2 * (c->p - 1); k *= 2) {
        windowed.outstanding = min_int(k, c->p - 1);
        double predicted = cost(&windowed, m);
        if (predicted >= 0 && predicted < best) {
            best = predicted;
            *outstanding = windowed.outstanding;
        }
    }
    return best;
}

int model_cheapest(const struct coll_key *key, const struct cost_call *c,
                   const struct machine_model *m, int steps_only, double *cost,
                   struct coll_params *params)
{
    double best = COST_UNKNOWN;
    int row = -1, best_window = 0;
    for (int i = 0; i < registry_count; i++) {
        if (steps_only && (registry_table[i].restrictions & ALG_NEEDS_NODES))
            continue;
        int window;
        double predicted = model_cheapest_window(i, key, c, m, &window);
        if (predicted >= 0 && (best < 0 || predicted < best)) {
            best = predicted;
            row = i;
            best_window = window;
        }
    }
    if (cost)
        *cost = best;
    if (params)
        *params = (struct coll_params){.seg = 0, .outstanding = best_window};
    return row;
}

static model_step_choice step_choice; /* the selection's, handed down */

void model_set_step_choice(model_step_choice choose) { step_choice = choose; }

/* The cost of the row the selection runs key's step by, or COST_UNKNOWN. */
static double chosen_step(const struct coll_key *key, const struct cost_call *c,
                          const struct machine_model *m)
{
    struct coll_params params = {0, 0};
    int row = step_choice ? step_choice(key, &params) : -1;
    if (row < 0)
        return COST_UNKNOWN;
    struct cost_call step = *c;
    step.outstanding = params.outstanding;
    step.seg = (int)params.seg;
    return model_row_cost(row, key, &step, m);
}

double model_best_step(const struct cost_call *c, const struct machine_model *m)
{
    struct coll_key key = step_key(c);
    double best = chosen_step(&key, c, m);
    if (best < 0)
        model_cheapest(&key, c, m, 1, &best, NULL);
    return best;
}

double model_steps(const struct cost_call *c, const struct machine_model *m,
                   const struct model_step *steps, int count)
{
    double total = 0;
    for (int i = 0; i < count; i++) {
        struct cost_call step = steps[i].leaders ? model_leader_level(c) : model_node_level(c);
        step.coll = steps[i].coll;
        if (steps[i].bytes != MODEL_CALL_BYTES) {
            step.bytes = steps[i].bytes;
            step.count = (int64_t)steps[i].bytes;
        }
        double cost = model_best_step(&step, m);
        if (cost < 0)
            return COST_UNKNOWN;
        total += cost;
    }
    return total;
}
