/* model.h - the machine model and the algorithms' costs on it.
 *
 * A cost is the predicted time, in seconds, of one call of an algorithm on
 * a communicator of a given shape, on the machine the model describes.
 * Each modelled algorithm has one, `double <coll>_<name>_cost(const struct
 * cost_call *, const struct machine_model *)`, in its own file under the
 * comment that states it in the alpha-beta-gamma model, and its registry
 * row says MODELLED. A cost is written in rounds, the way the algorithm
 * moves its data: for each round, the bytes a rank sends and how far in
 * rank order its partner is (model_shift, model_exchange, model_tree),
 * which says whether the round crosses the network, between groups of
 * nodes or inside one, and how many ranks of a node share a node's link
 * while it does; plus the bytes it reduces
 * (model_reduce). A round costs its slowest message.
 *
 * The selection (select/model.c) evaluates the costs of a call's
 * algorithms and runs the cheapest; doc/model.md says when. */
#ifndef COLLSHIM_MODEL_H
#define COLLSHIM_MODEL_H

#include "algorithms/coll.h"

/* Node distances 1, 2, 4, ... the model can hold figures for (2^16 nodes). */
#define MODEL_DISTANCES 16

/* What the costs depend on, measured at run time on the job's own ranks
 * (shim/machine.c) or read from a file. Times in seconds. */
struct machine_model {
    double alpha_intra; /* one message between two ranks of a node */
    double beta_intra;  /* per byte between two ranks of a node */
    double alpha_inter; /* one message between two nodes, every rank sending one */
    double alpha_lone;  /* one message between two nodes while the other ranks
                           wait (a tree's level, a flat tree's root) */
    double beta_inter;  /* per byte through a node's network link, one rank of
                           the node sending (s ranks sending at once: s times) */
    double overhead;    /* per message beyond the first that one rank sends or
                           receives in a round where every rank does (a window
                           of a direct exchange) */
    double overhead_post; /* per message that one rank posts (its receive and its
                             send) before it waits: a window of more messages
                             than a latency hides takes this long to leave
                             (0: not measured) */
    double overhead_lone; /* per message beyond the first that one rank sends to
                             or receives from ranks of other nodes while most
                             ranks wait (a flat tree's root) */
    double gamma;       /* per byte reduced (MPI_SUM of doubles) */
    double eager_inter; /* bytes: messages up to this size go between nodes
                           without waiting for their receive (eagerly);
                           0: none known */
    double handshake;   /* seconds a message between nodes above eager_inter
                           waits for its receive (a rendezvous's round trip) */
    double eager_waits; /* 1: an eager message's bytes leave only once its
                           receive is posted (SMPI 3.32); 0: at once, the
                           receiver buffering them (Open MPI, MPICH) */
    double group_nodes; /* nodes behind one switch: aligned runs of this many
                           consecutive nodes, a power of two; 0: one group */
    double alpha_group; /* seconds more per message between nodes of two groups */
    /* Rounds between nodes 2^i apart (i < distances), every node sending
       at once: a torus's farther nodes are more links away, and their
       messages share links; a fat tree's cross its spine. distances 0:
       not measured, and alpha_inter, alpha_group and beta_inter stand. */
    double alpha_exchange[MODEL_DISTANCES]; /* s: node n swaps with node n xor 2^i: the
                                               round's slowest message */
    double alpha_shift[MODEL_DISTANCES];    /* s: node n sends to node n + 2^i (mod
                                               nodes): the round's slowest message */
    double beta_distance[MODEL_DISTANCES];  /* per byte of the swap, in units of
                                               beta_inter (the nearest's, 1) */
    int distances;
    double distance_nodes; /* the nodes they were measured over: they price the
                              calls that span as many (0: every call) */
    /* A parent's eager messages to children on other nodes, sent one after
       another without waiting (a tree's level): where they share its link
       at once, the child sent to first waits for the others' bytes too.
       fan_nodes 0: not measured, and each child waits only for those sent
       before it. */
    double fan_nodes; /* the children (nodes 1, 2, 4, ... away) they were measured on */
    double fan_share; /* each child beyond the first adds this many of one
                         message's byte times to the last one's arrival (1: one
                         link; less: messages on several links at once) */
    double fan_first; /* of that added time, the share the child sent to first waits
                         for too (0: the messages leave one after another; 1:
                         they share the link and arrive together) */
    int ranks_per_core; /* the node_shape's: 1 unless oversubscribed */
    int valid;          /* 0: no model (every cost is then unknown) */
};

/* A call as the costs see it. */
struct cost_call {
    enum coll_id coll;
    int p;        /* ranks of the communicator */
    int nodes;    /* nodes they span (1: a single node) */
    int ppn;      /* ranks on the most loaded node (k) */
    int block;    /* 1: ranks in blocks per node (rank r on node r / k) */
    int equal;    /* 1: every node has k ranks */
    double bytes; /* the selection bytes (select/key.c): the whole vector of a
                     reduction and a bcast, all p blocks of an allgather, a
                     reduce_scatter_block and an alltoall (n) */
    int64_t count; /* elements of a reduction's vector (its n / type size) */
    int seg;       /* segment size of a segmented algorithm (0: its default) */
    int outstanding; /* requests in flight of a windowed one (0: its default) */
};

/* No prediction: the algorithm cannot run the call, or has no model. */
#define COST_UNKNOWN (-1.0)

/* ---- the rounds a cost is written in ---- */

/* 1 when a message from rank r to rank r + distance (mod p) can leave the
 * node: ranks in blocks of k cross where distance mod p >= k or the block
 * boundary falls between them; interleaved ranks, or several nodes of
 * unknown order: always. */
int model_crosses(const struct cost_call *c, int distance);

/* A round in which every rank sends `bytes` to the rank `distance` after
 * it (a ring step, a shift of Bruck's or of a dissemination barrier): it
 * crosses the network when model_crosses, with min(distance, k) ranks of
 * each node sending across at once. */
double model_shift(const struct cost_call *c, const struct machine_model *m, double bytes,
                   int distance);

/* A round in which rank r swaps `bytes` with rank r xor distance
 * (recursive doubling and halving): inside the node when k is a multiple
 * of 2 distance in block order, else across, with min(distance, k) ranks
 * of each node sending at once. */
double model_exchange(const struct cost_call *c, const struct machine_model *m, double bytes,
                      int distance);

/* A round in which one rank of each pair r, r xor distance sends `bytes`
 * to the other (a gather's retracing of recursive halving): an
 * exchange's latency and senders, its bytes at the nearest distance's
 * per-byte time, as one message a pair does not meet the other
 * direction's on a shared path. */
double model_send(const struct cost_call *c, const struct machine_model *m, double bytes,
                  int distance);

/* A round of a tree: a few ranks send `bytes` to ranks `distance` away
 * while the others wait (alpha_lone); at most one rank of each node sends
 * across (distance >= k in block order),
 * and one sender sends `messages` such messages at once (a k-nomial tree's
 * radix - 1, a flat tree's p - 1), each beyond the first at the cost of
 * the per-message overhead of such a root (overhead_lone across). */
double model_tree(const struct cost_call *c, const struct machine_model *m, double bytes,
                  int distance, int messages);

/* Whether a parent's eager messages of `bytes` to its children on other
 * nodes are priced as measured at once (m->fan_nodes): below the eager
 * limit, where its sends complete without waiting for their receives. */
int model_fans(const struct machine_model *m, double bytes);

/* Where model_fans: the time from a parent's first send until its child
 * `order` (0: the first sent) of its `children` on other nodes, each
 * `distance` ranks away as in model_tree, has its message of `bytes`;
 * a child on the parent's own node, its message alone. */
double model_fan_arrival(const struct cost_call *c, const struct machine_model *m, double bytes,
                         int distance, int children, int order);

/* Where model_fans: a k-nomial tree of radix `radix` whose parents send
 * every level of their children's messages at once, the top level (the
 * largest subtrees) first; a child of weight w (rel + j w) is priced at
 * model_tree's distance `spread` w. A parent is done when its slowest
 * child's subtree is: T(l) = max over its children, at level i from the
 * top, of their arrival (model_fan_arrival) + T(l - 1 - i). Only the
 * root's top level is cut short by p. */
double model_fan_tree(const struct cost_call *c, const struct machine_model *m, int radix,
                      int spread);

/* A round in which every rank sends `messages` messages of `bytes` at
 * once, to ranks up to `distance` after it (a window of a direct
 * exchange): on several nodes all k ranks of a node send across. */
double model_burst(const struct cost_call *c, const struct machine_model *m, double bytes,
                   int messages, int distance);

/* A binomial tree that gathers (or scatters) the p blocks of c->bytes:
 * at distance d a subtree of min(d, p - d) blocks moves in one message. */
double model_binomial_blocks(const struct cost_call *c, const struct machine_model *m);
/* The root and every other rank swap one block of c->bytes / p at once:
 * the root's link carries p - 1 blocks. */
double model_flat_blocks(const struct cost_call *c, const struct machine_model *m);

/* Reducing `bytes` into a buffer. */
double model_reduce(const struct machine_model *m, double bytes);
/* Copying `bytes` inside a rank (a rotation, packing, a hand-off between
 * the steps of a composed algorithm): one pass over memory, taken at the
 * reduction's speed, which is also one (gamma bounds it from above). It
 * also breaks the tie between an algorithm and the same messages sent
 * with more copying. */
double model_copy(const struct machine_model *m, double bytes);

/* The segments of `elements` elements of the call's vector cut into
 * segments of c->seg bytes (0: `seg` bytes; both 0: one segment), made
 * larger where there would be more than max_segments (0: no bound). */
double model_segments(const struct cost_call *c, int64_t elements, double seg,
                      int max_segments);

/* The segment size of a call of a segmented algorithm: c->seg, else the
 * algorithm's default `seg`. */
double model_segment_bytes(const struct cost_call *c, double seg);

/* What a pipeline's further segment adds once the pipe is full, in a
 * round that costs `round` (its reductions aside) and in which a rank
 * sends or receives `messages` segments of `seg` bytes, between nodes if
 * `across`, and the busiest link carries `carried` times one segment's
 * bytes at the nearest node's per-byte time: the round itself, unless the MPI sends such segments eagerly between nodes
 * (seg <= eager_inter), where a segment's latency passes while the one
 * before it is on the link, so only the link's bytes and a per-message
 * overhead remain (Traff's pipelined trees, in steady state). Where eager
 * bytes wait for their receive (eager_waits), a rank that keeps `slots`
 * segments' receives posted takes in at most `slots` segments a round,
 * with its posting (the receives and its send) and receiving: on SMPI's
 * Ethernet a tree reduction's segment of 32 KiB took 37 us with 2
 * slots, where its bytes take 23 and its latency 35. */
double model_pipeline_step(const struct machine_model *m, double round, double seg,
                           int messages, int across, double carried, int slots);

/* The window's part of model_pipeline_step: where eager bytes wait for
 * their receive (eager_waits) and the segments go eagerly between nodes,
 * the round, with its posting and receiving, over `slots`; 0 elsewhere. */
double model_pipeline_window(const struct machine_model *m, double round, double seg,
                             int messages, int across, int slots);

/* A chain pipelined in segments of c->seg bytes (0: `seg`): p - 1 hops
 * to fill it, then a hop a further segment (model_pipeline_step, a rank
 * keeping `slots` receives posted); `reduces`: each hop also folds the
 * segment in. */
double model_chain_pipeline(const struct cost_call *c, const struct machine_model *m,
                            double seg, int reduces, int slots);

/* How a binary tree numbers its ranks: heap order (rank r's children 2r + 1
 * and 2r + 2) or preorder, balanced (a subtree of z ranks: its left child's
 * z/2 next to it, then its right child's z - 1 - z/2). */
enum model_tree_order { MODEL_HEAP_ORDER, MODEL_PREORDER };

/* A binary tree pipelined in segments of c->seg bytes (0: `seg`):
 * floor(lg p) levels to fill, level j's edges 2^j to 2^(j+1) - 1 ranks
 * long, a parent's two segments at once (one where every parent on the
 * deepest level has a single child, as at p = 2^k), then a round a further
 * segment, a round a parent's two segments to or from its children at
 * once, paced by the widest edges (about p/2 apart), whose bytes share the
 * links as a round of messages that far does (every edge carries a
 * segment at once), or by the link of the node that most edges cross
 * where a node holds several ranks; `reduces`: each round also folds the
 * two segments in; a rank keeps `slots` segments' receives posted
 * (model_pipeline_step). A single segment up a preorder tree waits at
 * each level for one message where the right subtree is shallower; where
 * the window sets the pace (model_pipeline_window), each segment spends
 * `slots` rounds a level. */
double model_binary_pipeline(const struct cost_call *c, const struct machine_model *m,
                             double seg, enum model_tree_order order, int reduces, int slots);

/* Off powers of two, the fold of the extra ranks into their neighbours:
 * `in` bytes sent 1 away and reduced, `back` bytes handed back 1 away at
 * the end; 0 at a power of two. */
double model_fold(const struct cost_call *c, const struct machine_model *m, double in,
                  double back);
/* A doubling round among the 2^floor(lg p) ranks left after the fold:
 * partners `distance` apart in rank order, 2 distance apart where both
 * stand for a folded pair (the slower of the two off powers of two). */
double model_folded_exchange(const struct cost_call *c, const struct machine_model *m,
                             double bytes, int distance);
/* The most bytes a range of `blocks` aligned virtual blocks of `block`
 * bytes holds when the first `folded` virtual blocks stand for two. */
double model_folded_bytes(int blocks, int folded, double block);

/* ---- composed algorithms ---- */

/* The call `c` restricted to one node (p = k ranks) and to one rank per
 * node (p = nodes), for the cost of an algorithm's steps. */
struct cost_call model_node_level(const struct cost_call *c);
struct cost_call model_leader_level(const struct cost_call *c);

/* The cost function of registry row `row`: its own, or for a collective
 * whose algorithms are another's on per-rank counts (allgatherv,
 * reduce_scatter, alltoallv) that one's of the same name; NULL: none. */
coll_cost_fn model_of(int row);

/* One step of a node-aware algorithm: collective `coll` inside every node
 * (leaders 0) or among one rank of each node (leaders 1), on `bytes`
 * selection bytes; MODEL_CALL_BYTES: the call's bytes and count. */
struct model_step {
    int leaders;
    enum coll_id coll;
    double bytes;
};
#define MODEL_CALL_BYTES (-1.0)
/* The steps one after the other, each at what runs it (model_best_step);
 * COST_UNKNOWN if any step's is. */
double model_steps(const struct cost_call *c, const struct machine_model *m,
                   const struct model_step *steps, int count);

/* What the step of a composed algorithm is predicted to take: the cost
 * of the row that the selection runs it by (model_step_choice), at its
 * window; where none is handed, or that row has no model, the cheapest
 * of any modelled algorithm of c->coll that runs as a step (no node-aware
 * or vendor row). COST_UNKNOWN if none. */
double model_best_step(const struct cost_call *c, const struct machine_model *m);

/* The selection's choice for a step's key (its registry row and
 * parameters), as select_step would run it, or -1: handed down by the
 * selection (select/model.c), so that a composed algorithm is priced at
 * the steps it runs. Inside a node the built-in table chooses, which may
 * not be the cheapest: at 64 x 4 on SMPI's fat tree, `@node` bcast ran
 * binomial inside each host where the model priced the 4-nomial tree,
 * and took 1.04-1.06x the 4-nomial tree over all ranks, priced alike. */
typedef int (*model_step_choice)(const struct coll_key *key, struct coll_params *params);
void model_set_step_choice(model_step_choice choose);

/* Row `row`'s predicted cost for key on call c, or COST_UNKNOWN (another
 * collective's row, no model, or it cannot run key). */
double model_row_cost(int row, const struct coll_key *key, const struct cost_call *c,
                      const struct machine_model *m);
/* The registry row of collective key->coll that runs key and is predicted
 * cheapest on call c, or -1; its cost in *cost (if not NULL), else
 * COST_UNKNOWN, and its parameters in *params (if not NULL): the window
 * of a windowed row (ALG_TAKES_WINDOW) is the cheapest of its default,
 * 2, 4, 8, ... and p - 1 (model_cheapest_window). steps_only: leave out
 * the node-aware rows, as for a step. */
int model_cheapest(const struct coll_key *key, const struct cost_call *c,
                   const struct machine_model *m, int steps_only, double *cost,
                   struct coll_params *params);
/* Row `row`'s predicted cost at its cheapest window (model_row_cost for a
 * row that takes none), the window in *outstanding (0: the default). */
double model_cheapest_window(int row, const struct coll_key *key, const struct cost_call *c,
                             const struct machine_model *m, int *outstanding);

/* ceil(log_radix x) for x >= 1; 0 for x <= 1. */
int model_log(int radix, int x);
/* The largest power of two <= x (x >= 1). */
int model_pow2_floor(int x);

#endif
