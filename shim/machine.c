/* machine.c - the machine model (algorithms/model.h): measured on the
 * job's own ranks in MPI_Init, or read from the file COLLSHIM_MACHINE
 * names, and handed to the selection (select/model.c).
 *
 * The measurement runs only when the job spans two nodes or more (inside
 * one node the tables choose: doc/model.md); out of the box, on nodes of
 * several ranks, it stops after the intra phase where those ranks wait
 * for CPUs (CPU_WAIT_ALPHA). Every rank takes part at
 * once, so that what is measured is what a collective's rounds see:
 * - inside the nodes, ranks 2i and 2i+1 of each node swap 8 bytes and
 *   64 KiB (alpha_intra, beta_intra);
 * - across, the ranks of node 2j swap with the same-numbered ranks of node
 *   2j+1, 8 bytes and 16 KiB; s ranks of a node sending at once share its
 *   link, so each measured per-byte time is divided by s (beta_inter);
 *   then 8 messages of 8 bytes each way at once (the overhead per
 *   message beyond the first; the time to post one, overhead_post);
 * - world rank 0 and its partner swap 8 bytes while the other ranks probe
 *   or wait in the agreement (alpha_lone: a tree's level, where most ranks
 *   wait);
 *   then rank 0 swaps 8 bytes with the first ranks of nodes 1, 2, 4, ...
 *   at once (overhead_lone: a flat tree's root, per node beyond the
 *   first), and times a round trip to each of them in turn, in rounds,
 *   where that takes under LEVEL_BUDGET: where from some distance on every
 *   message takes GROUP_JUMP times the one to node 1 or more, the nodes
 *   stand in groups of that many behind a switch (group_nodes,
 *   alpha_group: a fat tree's leaf);
 * - between the paired nodes (but rank 0's, where there are others), the
 *   largest of 4, 16 and 32 KiB that leaves before its receive is posted
 *   (eager_inter: probe_eager);
 * - each rank reduces 16 KiB of doubles (gamma);
 * - once agreed, where it is cheap (distance_levels), the first rank of
 *   each node, at node distances 1, 2, 4, ... in turn, every node at
 *   once, swaps 8 bytes and 128 KiB with the first rank of the node that
 *   far, and sends 8 bytes to the node that far on (alpha_exchange,
 *   alpha_shift, beta_distance: a round's farthest message and the links
 *   its messages share);
 * - then, where cheap (fan_children), world rank 0 sends 16 KiB to the
 *   first ranks of nodes 1, 2, 4, ... one after another, and each answers
 *   once its message is in (fan_nodes, fan_share, fan_first: a tree's
 *   parent's messages at once).
 * Each swap is timed alone and a rank keeps the median of its swaps; one
 * allgather then gives every rank every rank's values, and each field is
 * their median, the same on every rank, so all ranks choose alike. A
 * warm-up swap first opens the connections (the pair's of 16 KiB, which
 * also opens TCP's window for the timed one). */
#include "shim/shim.h"
#include "algorithms/model.h"
#include "algorithms/compose/node.h"
#include "select/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MACHINE_TAG 19791
#define SMALL_BYTES 8
#define INTRA_BYTES (64 * 1024)
#define INTER_BYTES (16 * 1024)
#define REDUCE_DOUBLES 2048
#define BURST 8 /* messages in flight at once for the overhead */
#define FAN 8   /* nodes world rank 0 reaches at once for overhead_lone, at most */
#define LEVELS 31 /* node distances 1, 2, 4, ... world rank 0 times round trips at */
#define GROUP_JUMP 1.5 /* a message between groups of nodes takes this many times one inside */
#define LEVEL_ROUNDS 2 /* rank 0's rounds of echoes at each node distance: the fastest counts */
#define LEVEL_BUDGET 1e-3 /* seconds the echoes may take at most, by the lone swap */
#define BETA_SHARE 0.1 /* a swap's bytes take at least this share of its latency */
#define REFINE_BYTES (64 * 1024) /* beta_inter's second try: swaps of this and 4 times it */
#define HALF (4 * REFINE_BYTES) /* buf: what a rank sends, then from HALF on, what it receives */
#define DISTANCE_BYTES (128 * 1024) /* the swap at each node distance (beta_distance) */
#define SHARE_NOISE 1.1 /* a distance's per-byte time within this of the nearest's is the same */

/* A rendezvous's round trip, in latencies: the request to send and the
 * answer that the receive is posted, before the bytes (Open MPI's and
 * MPICH's protocols). SMPI 3.32 starts a matched message's transfer at
 * once: swaps of 48 and 64 KiB between two hosts of
 * bench/platforms/ethernet-64x16.xml took 85.6 and 88.1 us, where its
 * eager limit is 32 KiB and 16 KiB more cost 5.7 us below it. */
#ifdef COLLSHIM_SMPI
#define RENDEZVOUS_LATENCIES 0
#else
#define RENDEZVOUS_LATENCIES 2
#endif

/* Whether an eager message's bytes wait for their receive (eager_waits).
 * SMPI 3.32 with smpi/async-small-thresh 0 (bench/platforms/) completes
 * the send at once but moves the bytes once the receive is posted: on
 * its Ethernet a tree reduction's 32 KiB segments took 37 us each, two
 * receives posted ahead, where their bytes take 23. Open MPI's and
 * MPICH's eager protocols send the bytes at once. */
#ifdef COLLSHIM_SMPI
#define EAGER_WAITS 1
#else
#define EAGER_WAITS 0
#endif

/* A flat tree's messages in one partner of a fan of swaps: the root
 * sends one and receives one, one after the other (an MPI process sends
 * and receives on one CPU). SMPI 3.32 sends and receives at once: on
 * bench/platforms/fattree-64x16.xml each partner of a fan of 6 cost 0.08
 * us more, each message of a flat bcast or reduce of 8 bytes on its 64
 * hosts 0.09-0.1 us. */
#ifdef COLLSHIM_SMPI
#define FAN_MESSAGES_PER_PARTNER 1
#else
#define FAN_MESSAGES_PER_PARTNER 2
#endif

static struct machine_model machine;
static double startup_seconds; /* measuring and agreeing, at MPI_Init */
static int beta_refined; /* 1: beta_inter is refine_beta's */
static const char *machine_origin = "none";
static const char *why_none = "the job runs on one node"; /* when there is no model */

/* The model's fields, in files and in the report: one table. */
static const struct {
    const char *name;
    size_t offset;
    const char *meaning;
    int optional;       /* 1: a file may leave it out (0) */
    int whole;          /* 1: a count (bytes, nodes), reported whole; 0: seconds, a ratio */
    double most;        /* the largest value a file may give (0: no bound) */
} machine_fields[] = {
    {"alpha_intra", offsetof(struct machine_model, alpha_intra), "s per message inside a node", 0,
     0, 0},
    {"beta_intra", offsetof(struct machine_model, beta_intra), "s per byte inside a node", 0, 0, 0},
    {"alpha_inter", offsetof(struct machine_model, alpha_inter), "s per message between nodes", 0,
     0, 0},
    {"alpha_lone", offsetof(struct machine_model, alpha_lone),
     "s per message between nodes while the other ranks wait", 0, 0, 0},
    {"beta_inter", offsetof(struct machine_model, beta_inter),
     "s per byte through a node's link, one sender", 0, 0, 0},
    {"overhead", offsetof(struct machine_model, overhead),
     "s per extra message of a rank in a round", 0, 0, 0},
    {"overhead_lone", offsetof(struct machine_model, overhead_lone),
     "s per extra message of a root reaching other nodes while the others wait", 0, 0, 0},
    {"gamma", offsetof(struct machine_model, gamma), "s per byte reduced (sum of doubles)", 0, 0, 0},
    {"eager_inter", offsetof(struct machine_model, eager_inter),
     "bytes: messages up to this size go eagerly between nodes (0: none known)", 1, 1, 0},
    {"handshake", offsetof(struct machine_model, handshake),
     "s a message between nodes above eager_inter waits for its receive", 1, 0, 0},
    {"eager_waits", offsetof(struct machine_model, eager_waits),
     "1: an eager message's bytes leave once its receive is posted; 0: at once", 1, 1, 1},
    {"group_nodes", offsetof(struct machine_model, group_nodes),
     "nodes behind one switch: aligned runs of consecutive nodes (0: one group)", 1, 1, 0},
    {"alpha_group", offsetof(struct machine_model, alpha_group),
     "s more per message between nodes of two groups", 1, 0, 0},
    {"distance_nodes", offsetof(struct machine_model, distance_nodes),
     "nodes the figures by distance were measured over (0: they price every call)", 1, 1, 0},
    {"fan_nodes", offsetof(struct machine_model, fan_nodes),
     "children a parent's eager messages were timed to at once (0: not measured)", 1, 1, 0},
    {"fan_share", offsetof(struct machine_model, fan_share),
     "byte times of one message each child beyond the first adds to the last", 1, 0, 0},
    {"fan_first", offsetof(struct machine_model, fan_first),
     "share of that time the child sent to first waits for too (0: one after another)", 1, 0,
     1},
    {"overhead_post", offsetof(struct machine_model, overhead_post),
     "s to post one message's receive and send, before waiting (0: not measured)", 1, 0, 0},
};
#define MACHINE_FIELDS (int)(sizeof machine_fields / sizeof machine_fields[0])

static double *field(struct machine_model *m, int i)
{
    return (double *)((char *)m + machine_fields[i].offset);
}

/* ---- the measurement ---- */

#define MAX_REPS 8

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values (sorted in place): n log n, for the swaps of one
 * rank and for the values of every rank alike. */
static double median_of(double *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* The seconds of each of reps rounds (at most MAX_REPS) of sending
 * `bytes` to rank `to` while receiving as many from rank `from`, into
 * times: a swap where to == from. */
static void round_times(int to, int from, char *buf, int bytes, int reps, double *times)
{
    for (int i = 0; i < reps && i < MAX_REPS; i++) {
        double start = PMPI_Wtime();
        vendor.sendrecv(buf, bytes, MPI_BYTE, to, MACHINE_TAG, buf + HALF, bytes, MPI_BYTE, from,
                        MACHINE_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        times[i] = PMPI_Wtime() - start;
    }
}

/* Median seconds of one swap of `bytes` with partner, over reps (at most
 * MAX_REPS): a rank descheduled during one swap (8 ranks on 2 cores) does
 * not move it. */
static double swap_time(int partner, char *buf, int bytes, int reps)
{
    double times[MAX_REPS];
    reps = reps < MAX_REPS ? reps : MAX_REPS;
    round_times(partner, partner, buf, bytes, reps, times);
    return median_of(times, reps);
}

/* Seconds of swapping one small message with each of count partners (at
 * most BURST; a partner may repeat), all in flight at once; *posting
 * (unless NULL), the seconds of posting them, before the wait. */
static double fan_time(const int *partners, int count, char *buf, double *posting)
{
    MPI_Request requests[2 * BURST];
    double start = PMPI_Wtime();
    for (int i = 0; i < count; i++) {
        PMPI_Irecv(buf + HALF + i * SMALL_BYTES, SMALL_BYTES, MPI_BYTE, partners[i],
                   MACHINE_TAG, MPI_COMM_WORLD, &requests[i]);
        PMPI_Isend(buf + i * SMALL_BYTES, SMALL_BYTES, MPI_BYTE, partners[i], MACHINE_TAG,
                   MPI_COMM_WORLD, &requests[count + i]);
    }
    if (posting)
        *posting = PMPI_Wtime() - start;
    vendor.waitall(2 * count, requests, MPI_STATUSES_IGNORE);
    return PMPI_Wtime() - start;
}

/* BURST small messages each way with one partner, all in flight at once;
 * *post, the seconds of posting one of them. */
static double burst_time(int partner, char *buf, double *post)
{
    int partners[BURST];
    for (int i = 0; i < BURST; i++)
        partners[i] = partner;
    double time = fan_time(partners, BURST, buf, post);
    *post /= BURST;
    return time;
}

/* The per-byte time of two swaps: `large` seconds for large_bytes against
 * `small` for small_bytes (0 where the larger was not the slower). */
static double per_byte(double small, int small_bytes, double large, int large_bytes)
{
    return large > small ? (large - small) / (large_bytes - small_bytes) : 0;
}

/* Between this rank and partner: alpha and per-byte time, out[0..1],
 * after one swap of `bytes` that opens the connection. */
static void measure_pair(int partner, char *buf, int bytes, int reps, double out[2])
{
    swap_time(partner, buf, bytes, 1);
    double small = swap_time(partner, buf, SMALL_BYTES, reps);
    double large = swap_time(partner, buf, bytes, reps > 2 ? reps / 2 : 1);
    out[0] = small;
    out[1] = per_byte(small, SMALL_BYTES, large, bytes);
}

/* The eager probe's messages, smallest first, up to reduce's 32 KiB
 * pipeline segments. Not 64 KiB: no MPI here sends it eagerly, and a
 * send that cannot complete is waited for its whole time (3.6 ms of
 * simulated time under SMPI; under Open MPI on the virtual cluster,
 * waiting as long as all the messages take to arrive, 3.7-7.7 ms). */
static const int eager_sizes[] = {4096, 16384, 32768};
#define EAGER_SIZES (int)(sizeof eager_sizes / sizeof eager_sizes[0])

/* The probe's verdict from which of its sends completed (done[i]): the
 * largest size whose send completed with every smaller one's, or 0. */
static int eager_verdict(const int *done)
{
    int limit = 0;
    for (int i = 0; i < EAGER_SIZES && done[i]; i++)
        limit = eager_sizes[i];
    return limit;
}

/* The eager probe's messages in flight: completed by probe_finish after
 * the agreement, so that a rendezvous's transfer does not hold up the
 * measurement. */
struct probe {
    MPI_Request requests[EAGER_SIZES];
    int active;
};

/* Which of the probe's sends (requests) complete, into done: each in
 * turn is given a message's time, `alpha` and its bytes at `beta`, from
 * the completion of the one before it (they leave in order), and once
 * one has not completed in its time the larger ones are not waited for:
 * an eager limit holds for every smaller size. One more test follows, in
 * case this rank was descheduled. */
static void eager_completions(MPI_Request *requests, int *done, double alpha, double beta)
{
    double since = PMPI_Wtime();
    int next = 0, expired = 0, finished[EAGER_SIZES], count;
    while (next < EAGER_SIZES && !expired) {
        double now = PMPI_Wtime();
        expired = now - since > alpha + eager_sizes[next] * beta;
        if (!vendor.testsome(EAGER_SIZES, requests, &count, finished, MPI_STATUSES_IGNORE) &&
            count != MPI_UNDEFINED)
            for (int k = 0; k < count; k++)
                done[finished[k]] = 1, since = now;
        while (next < EAGER_SIZES && done[next])
            next++, expired = 0;
    }
}

/* The largest of eager_sizes that reaches partner eagerly, without
 * waiting for its receive (or 0), on both ranks, from this rank's alpha
 * and beta to it. The lower rank sends one message of each size at once,
 * waits for them (eager_completions), and tells the other which
 * completed; only then does the other post the receives. A rendezvous
 * cannot complete before its receive is posted, so it is never taken for
 * eager; an eager send slower than its time is taken for a rendezvous,
 * whose messages are priced a round trip more and a round each in a
 * pipeline. */
static double probe_eager(int partner, int rank, char *buf, double alpha, double beta,
                          struct probe *probe)
{
    int done[EAGER_SIZES] = {0}, limit = 0;
    probe->active = 1;
    if (rank < partner) {
        for (int i = 0; i < EAGER_SIZES; i++) /* concurrent sends may share a buffer */
            PMPI_Isend(buf, eager_sizes[i], MPI_BYTE, partner, MACHINE_TAG + 1 + i,
                       MPI_COMM_WORLD, &probe->requests[i]);
        eager_completions(probe->requests, done, alpha, beta);
        limit = eager_verdict(done);
        vendor.send(&limit, 1, MPI_INT, partner, MACHINE_TAG + EAGER_SIZES + 1, MPI_COMM_WORLD);
    } else {
        size_t offset = HALF + INTRA_BYTES; /* clear of what later swaps receive */
        vendor.recv(&limit, 1, MPI_INT, partner, MACHINE_TAG + EAGER_SIZES + 1, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE);
        for (int i = 0; i < EAGER_SIZES; offset += (size_t)eager_sizes[i], i++)
            PMPI_Irecv(buf + offset, eager_sizes[i], MPI_BYTE, partner, MACHINE_TAG + 1 + i,
                       MPI_COMM_WORLD, &probe->requests[i]);
    }
    return limit;
}

/* After the agreement: the probe's sends and receives complete. */
static void probe_finish(struct probe *probe)
{
    if (probe->active)
        vendor.waitall(EAGER_SIZES, probe->requests, MPI_STATUSES_IGNORE);
    probe->active = 0;
}

static double measure_gamma(char *buf)
{
    double best = 0;
    for (int i = 0; i < 3; i++) {
        double start = PMPI_Wtime();
        PMPI_Reduce_local(buf, buf + HALF, REDUCE_DOUBLES, MPI_DOUBLE, MPI_SUM);
        double t = PMPI_Wtime() - start;
        best = i == 0 || t < best ? t : best;
    }
    return best / (REDUCE_DOUBLES * sizeof(double));
}

/* This rank's partners: inside its node (or -1), and on the paired node
 * (or -1), with how many ranks of its node send across at once. */
struct partners {
    int intra, inter, senders;
    int shared_nodes; /* 1: some node has two ranks or more (an intra phase) */
    int lone;         /* world rank 0 and its partner on the paired node: each
                         other's partner for the lone swap; -1 elsewhere */
    int level[LEVELS], levels; /* world rank 0: the first ranks of nodes 1, 2,
                                  4, ... (at least 3 nodes); 0 elsewhere */
    int fans;           /* world rank 0: the first FAN of them, its fan */
    int level_index;    /* those first ranks: i, of node 2^i; -1 elsewhere */
    int probe;          /* 1: this pair probes the eager limit (probe_eager) */
};

/* The rank numbered `index` on node n of the layout, or -1. */
static int rank_at(const struct node_layout *L, int n, int index)
{
    return index < node_members(L, n) ? L->members[L->node_start[n] + index] : -1;
}

/* Whether the measurement pairs more ranks than world rank 0 and its
 * partner (nodes 0 and 1 both exist here): nodes 2 and 3 pair their
 * first ranks, or nodes 0 and 1 each have a second rank. */
static int other_pairs(const struct node_layout *L)
{
    return L->shape.nodes >= 4 || (rank_at(L, 0, 1) >= 0 && rank_at(L, 1, 1) >= 0);
}

/* This rank's partners. Every pair probes the eager limit but world rank
 * 0's, whose probe (a wait, a verdict, a rendezvous's completion) would
 * hold up the lone swap and the fan that follow on its path, unless it is
 * the only pair. */
static struct partners find_partners(const struct node_layout *L, int rank)
{
    struct partners who = {.intra = -1, .inter = -1, .shared_nodes = L->shape.ppn > 1,
                           .lone = -1, .levels = 0, .fans = 0, .level_index = -1};
    int level[LEVELS], levels = 0; /* the first ranks of nodes 1, 2, 4, ...:
                                      rank 0's partners in the vendor's
                                      recursive doubling */
    for (long long n = 1; n < L->shape.nodes && levels < LEVELS; n *= 2)
        level[levels++] = rank_at(L, (int)n, 0);
    int node = L->node_of[rank], mine = L->index_in_node[rank], pair = node ^ 1;
    who.intra = rank_at(L, node, mine ^ 1);
    if (pair < L->shape.nodes) {
        who.inter = rank_at(L, pair, mine);
        who.senders = L->node_size[node] < L->node_size[pair] ? L->node_size[node]
                                                               : L->node_size[pair];
    }
    if (rank == 0 || (pair == 0 && mine == 0))
        who.lone = who.inter;
    who.probe = who.inter >= 0 && (who.lone < 0 || !other_pairs(L));
    for (int i = 0; levels >= 2 && i < levels; i++) {
        if (rank == 0)
            who.level[who.levels++] = level[i];
        else if (level[i] == rank)
            who.level_index = i;
    }
    who.fans = who.levels < FAN ? who.levels : FAN;
    return who;
}

/* A one-way message's time to partner: half a round trip that partner
 * answers (echo), so that a partner that is ahead cannot have sent its
 * half already, as it can in a swap. */
static double echo_time(int partner, char *buf)
{
    double start = PMPI_Wtime();
    vendor.send(buf, SMALL_BYTES, MPI_BYTE, partner, MACHINE_TAG, MPI_COMM_WORLD);
    vendor.recv(buf + HALF, SMALL_BYTES, MPI_BYTE, partner, MACHINE_TAG, MPI_COMM_WORLD,
                MPI_STATUS_IGNORE);
    return (PMPI_Wtime() - start) / 2;
}

static void echo(int root, char *buf)
{
    vendor.recv(buf + HALF, SMALL_BYTES, MPI_BYTE, root, MACHINE_TAG, MPI_COMM_WORLD,
                MPI_STATUS_IGNORE);
    vendor.send(buf, SMALL_BYTES, MPI_BYTE, root, MACHINE_TAG, MPI_COMM_WORLD);
}

/* The rounds of echoes world rank 0 times at each node distance: LEVEL_ROUNDS,
 * or none where they would take over LEVEL_BUDGET by its lone swap (on the
 * virtual cluster, 8 nodes, 2.4 ms of 250 us messages): a switch's hop
 * (0.1-1 us) is lost in such latencies' noise, and there single rounds of
 * swaps found groups behind its one bridge in one launch of six. */
static int level_rounds(int levels, double alpha_lone)
{
    return levels * LEVEL_ROUNDS * 2 * alpha_lone <= LEVEL_BUDGET ? LEVEL_ROUNDS : 0;
}

/* World rank 0's echoes with the first ranks of nodes 1, 2, 4, ... into
 * latency[i] (node 2^i): `rounds` rounds of one echo with each in turn,
 * the fastest of each node's, so that neither a noisy moment nor a
 * partner descheduled once moves one distance against another. */
static void measure_levels(const struct partners *who, char *buf, int rounds, double *latency)
{
    for (int round = 0; round < rounds; round++)
        for (int i = 0; i < who->levels; i++) {
            double t = echo_time(who->level[i], buf);
            latency[i] = round == 0 || t < latency[i] ? t : latency[i];
        }
}

/* Groups of nodes from world rank 0's one-way times at node distances 1,
 * 2, 4, ... (latency[i] at 2^i, levels of them: measure_levels): where
 * from some distance on every message takes GROUP_JUMP times the one to
 * node 1 or more, and every nearer one less, the nodes stand in groups of
 * that distance, and a message between two groups takes alpha_group more
 * (the median of the farther times less the median of the nearer). A fat
 * tree's leaf switch: on SMPI's bench/platforms/fattree-64x16.xml, 8
 * hosts a leaf and the spine between. Not a torus's hops, which rise and
 * fall with the distance (1, 2, 1, 2, 1, 2 links on SMPI's 4 x 4 x 4,
 * where groups of 32 ran allreduce of 2 KiB by recursive doubling at
 * 1.07x Rabenseifner). Elsewhere group_nodes is 0. */
static void find_groups(const double *latency, int levels, struct machine_model *mine)
{
    double near[LEVELS], far[LEVELS];
    int first = levels, step = 1;
    while (first > 1 && latency[first - 1] >= GROUP_JUMP * latency[0])
        first--;
    for (int i = 1; i < first; i++)
        step &= latency[i] < GROUP_JUMP * latency[0];
    mine->group_nodes = 0, mine->alpha_group = 0;
    if (first == levels || !step)
        return;
    memcpy(near, latency, (size_t)first * sizeof *near);
    memcpy(far, latency + first, (size_t)(levels - first) * sizeof *far);
    mine->group_nodes = (double)(1LL << first);
    mine->alpha_group = median_of(far, levels - first) - median_of(near, first);
}

/* A first rank of node 2^i (level_index i) with world rank 0: the
 * warm-up swap, whose message from rank 0 says how many rounds of echoes
 * follow; the fan's timed swap (i < FAN); then the echoes. */
static void serve_root(int level_index, char *buf)
{
    swap_time(0, buf, SMALL_BYTES, 1);
    int rounds;
    memcpy(&rounds, buf + HALF, sizeof rounds);
    if (level_index < FAN)
        swap_time(0, buf, SMALL_BYTES, 1);
    for (int round = 0; round < rounds; round++)
        echo(0, buf);
}

/* World rank 0's warm-up swaps with its levels' first ranks (the fan at
 * once, beyond it one by one), each message saying the rounds of echoes
 * to come: they open the connections. */
static void warm_up_levels(const struct partners *who, char *buf, int rounds)
{
    for (int i = 0; i < who->fans; i++)
        memcpy(buf + i * SMALL_BYTES, &rounds, sizeof rounds);
    fan_time(who->level, who->fans, buf, NULL);
    memcpy(buf, &rounds, sizeof rounds);
    for (int i = FAN; i < who->levels; i++)
        swap_time(who->level[i], buf, SMALL_BYTES, 1);
}

/* World rank 0 as the root of trees (while the others wait in the
 * agreement): the warm-up; one timed fan; then the echoes at each node
 * distance (measure_levels), hence the groups. Each partner of a fan
 * beyond the first costs (fan - its slowest swap) / (fans - 1), a message
 * each way, and a flat tree's message goes one way
 * (FAN_MESSAGES_PER_PARTNER). The slowest swap is the lone one, and more
 * between groups; a partner descheduled in the fan adds its wait, which
 * the agreement caps at the busy overhead (lone_at_most). */
static void measure_root(const struct partners *who, char *buf, struct machine_model *mine)
{
    if (who->level_index >= 0) {
        serve_root(who->level_index, buf);
        return;
    }
    if (who->levels < 2)
        return;
    double latency[LEVELS];
    int rounds = level_rounds(who->levels, mine->alpha_lone);
    warm_up_levels(who, buf, rounds);
    double fan = fan_time(who->level, who->fans, buf, NULL);
    measure_levels(who, buf, rounds, latency);
    if (rounds)
        find_groups(latency, who->levels, mine);
    int far = mine->group_nodes > 0 && (double)(1LL << (who->fans - 1)) >= mine->group_nodes;
    double slowest = mine->alpha_lone + (far ? mine->alpha_group : 0);
    mine->overhead_lone =
        fan > slowest ? (fan - slowest) / (who->fans - 1) / FAN_MESSAGES_PER_PARTNER : 0;
}

/* This rank's own measurements into mine; a field it does not measure
 * stays negative. */
static void measure_intra(const struct partners *who, char *buf, struct machine_model *mine)
{
    double pair[2];
    if (who->intra >= 0) {
        measure_pair(who->intra, buf, INTRA_BYTES, 8, pair);
        mine->alpha_intra = pair[0], mine->beta_intra = pair[1];
    }
    if (who->shared_nodes) /* the intra phase's traffic ends before the inter one's */
        vendor.barrier(MPI_COMM_WORLD);
}

/* The same, across nodes: the paired nodes' swaps, burst and probe;
 * world rank 0's lone swap and fan (while the other ranks probe or wait
 * in the agreement); and gamma. */
static void measure_across(const struct partners *who, int rank, char *buf,
                           struct machine_model *mine, struct probe *probe)
{
    double pair[2];
    if (who->inter >= 0) {
        measure_pair(who->inter, buf, INTER_BYTES, 3, pair);
        mine->alpha_inter = pair[0], mine->beta_inter = pair[1] / who->senders;
        double burst = burst_time(who->inter, buf, &mine->overhead_post);
        mine->overhead = burst > pair[0] ? (burst - pair[0]) / (BURST - 1) : 0;
    }
    if (who->probe) {
        mine->eager_inter = probe_eager(who->inter, rank, buf, pair[0], pair[1], probe);
    }
    if (who->lone >= 0) /* the inter phase opened its connection */
        mine->alpha_lone = swap_time(who->lone, buf, SMALL_BYTES, 2);
    measure_root(who, buf, mine);
    mine->gamma = measure_gamma(buf);
}

/* Field i of the model: the median over the ranks that measured it (all
 * values of rank r at all[r * MACHINE_FIELDS + i]), or -1. The median, not
 * the mean: one rank descheduled in its swaps does not move the model.
 * Every rank holds the same values and chooses alike. */
static double median_over_ranks(const double *all, int size, int stride, int i,
                                double *scratch)
{
    int n = 0;
    for (int r = 0; r < size; r++)
        if (all[(size_t)r * stride + i] >= 0)
            scratch[n++] = all[(size_t)r * stride + i];
    return n ? median_of(scratch, n) : -1;
}

/* A lone message's cost (`lone`: a tree's, while most ranks wait) from
 * the same while every rank sends (`busy`): no more than it, and it where
 * not measured. Waiting ranks do not use the network; where a lone swap
 * measured slower (MPICH on the virtual cluster: 263 us against 129 us),
 * the waiting ranks were polling on the same cores, and pricing trees by
 * it chose recursive doubling where a flat tree won by 1.6x. */
static double lone_at_most(double lone, double busy)
{
    return lone >= 0 && lone < busy ? lone : busy;
}

/* The model from every rank's measurements: where no rank measured a
 * field, the nearest one stands in (no intra pair: the inter values; no
 * lone pair: alpha_inter; no fan: overhead), and a lone cost is at most
 * its busy one. */
static void agree(const double *all, int size, double *scratch)
{
    struct machine_model agreed = {0};
    for (int i = 0; i < MACHINE_FIELDS; i++)
        *field(&agreed, i) = median_over_ranks(all, size, MACHINE_FIELDS, i, scratch);
    if (agreed.alpha_inter < 0)
        return;
    machine = agreed;
    machine.alpha_intra = agreed.alpha_intra >= 0 ? agreed.alpha_intra : agreed.alpha_inter;
    machine.beta_intra = agreed.beta_intra >= 0 ? agreed.beta_intra : agreed.beta_inter;
    machine.alpha_lone = lone_at_most(agreed.alpha_lone, agreed.alpha_inter);
    machine.overhead_lone = lone_at_most(agreed.overhead_lone, agreed.overhead);
    machine.handshake = RENDEZVOUS_LATENCIES * agreed.alpha_inter;
    machine.eager_waits = EAGER_WAITS;
    machine.group_nodes = agreed.group_nodes > 0 ? agreed.group_nodes : 0;
    machine.alpha_group = machine.group_nodes > 0 ? agreed.alpha_group : 0;
    machine.distance_nodes = 0; /* measured after (measure_distances, measure_fans) */
    machine.fan_nodes = machine.fan_share = machine.fan_first = 0;
    machine.overhead_post = agreed.overhead_post > 0 ? agreed.overhead_post : 0;
    machine.valid = 1;
}

/* Above this, an 8-byte swap inside a node means the node's ranks wait
 * for a CPU between messages (shared memory takes 0.2-2 us; at 4 x 2 on
 * the virtual cluster, 8 ranks on 2 cores, 125 us): the measurement then
 * says more about the scheduler than about the network, and the model
 * chose worse than the built-in rules there (results/model.md). */
#define CPU_WAIT_ALPHA 10e-6
static char why_waiting[128];

/* Whether the ranks of the nodes wait for CPUs: the median over ranks of
 * their alpha_intra (all: size + size doubles of scratch), the same on
 * every rank. */
static int nodes_wait_for_cpus(double alpha_intra, double *all, int rank, int size, int *err)
{
    all[rank] = alpha_intra;
    *err = vendor.allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_DOUBLE,
                            MPI_COMM_WORLD);
    double agreed = *err ? -1 : median_over_ranks(all, size, 1, 0, all + size);
    if (agreed <= CPU_WAIT_ALPHA)
        return 0;
    snprintf(why_waiting, sizeof why_waiting,
             "a node's ranks wait for CPUs: alpha_intra %.0f us, above %.0f; "
             "COLLSHIM_MODEL=1 measures it there too", agreed * 1e6, CPU_WAIT_ALPHA * 1e6);
    why_none = why_waiting;
    return 1;
}

/* Whether the agreed beta_inter rests on too few bytes: the 16 KiB swap's
 * bytes took under BETA_SHARE of a swap's latency. Its per-byte time is
 * then the difference of two swaps that the latency's noise can swamp: at
 * 8 x 1 on the virtual cluster, 0-2 ns a byte on a link of 8 in about
 * one launch in fifteen, and in one sweep auto ran flat trees at 1 MiB, up
 * to 8.6x the best. Replaying five sweeps' choices, a beta_inter of
 * 0.5-1 ns raised the mean regret from 1.10 to 1.16-1.20 and 0 to 1.65,
 * while 3-4 ns did no harm: a tenth of alpha (1.2-2 ns there) separates
 * the two. */
static int beta_unresolved(const struct machine_model *m)
{
    return m->beta_inter * INTER_BYTES < BETA_SHARE * m->alpha_inter;
}

/* Where beta_unresolved, every pair swaps REFINE_BYTES and 4 times as many
 * once each, and the ranks agree on beta_inter again from the difference
 * (all: size doubles, and as many of scratch): both sizes go by the same
 * protocol (above the eager limits seen, 64 KiB with Open MPI's header),
 * so a rendezvous's handshake cancels, and their bytes take 12 times the
 * 16 KiB swap's. Every rank decides alike, from the agreed model; where no
 * node has two ranks, beta_intra follows. */
static int refine_beta(const struct partners *who, char *buf, double *all, int rank, int size)
{
    if (!beta_unresolved(&machine))
        return MPI_SUCCESS;
    all[rank] = -1;
    if (who->inter >= 0) {
        double smaller = swap_time(who->inter, buf, REFINE_BYTES, 1);
        double larger = swap_time(who->inter, buf, 4 * REFINE_BYTES, 1);
        all[rank] = per_byte(smaller, REFINE_BYTES, larger, 4 * REFINE_BYTES) / who->senders;
    }
    int err = vendor.allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_DOUBLE,
                               MPI_COMM_WORLD);
    if (err)
        return err;
    machine.beta_inter = median_over_ranks(all, size, 1, 0, all + size);
    if (!who->shared_nodes)
        machine.beta_intra = machine.beta_inter;
    beta_refined = 1;
    return MPI_SUCCESS;
}

/* ---- rounds by node distance (alpha_exchange, alpha_shift, beta_distance) ---- */

#define DISTANCE_REPS 3 /* timed small rounds at each distance: the fastest counts */
#define PER_LEVEL 3     /* a rank's figures at each distance: the swap's latency, the
                           large swap's time, the shift's latency */

/* The node distances 1, 2, 4, ... below the job's nodes that the ranks
 * time rounds at, or 0 where they do not: fewer than 4 nodes; a swap's
 * DISTANCE_BYTES take less than its latency, so latency's noise would
 * swamp them; or the rounds would take over LEVEL_BUDGET by the agreed
 * model (on the virtual cluster, 8 nodes at 1 Gbit/s, a 128 KiB swap
 * takes about 1 ms; where a message takes 1-2 us, as on SMPI's fat tree
 * and torus, 64 nodes take 0.2-0.7 ms). Every rank decides alike. */
static int distance_levels(const struct node_layout *L)
{
    int levels = model_log(2, L->shape.nodes);
    double bytes = DISTANCE_BYTES * machine.beta_inter;
    double level = (3 + 2 * DISTANCE_REPS) * machine.alpha_inter + machine.handshake + bytes;
    if (levels < 2 || bytes < machine.alpha_inter || levels * level > LEVEL_BUDGET)
        return 0;
    return levels < MODEL_DISTANCES ? levels : MODEL_DISTANCES;
}

/* The fastest of DISTANCE_REPS rounds of sending SMALL_BYTES to rank
 * `to` and receiving them from rank `from`, after one that opens the
 * connections and meets the neighbours: a swap where to == from. */
static double round_time(int to, int from, char *buf)
{
    double times[1 + DISTANCE_REPS], fastest = -1;
    round_times(to, from, buf, SMALL_BYTES, 1 + DISTANCE_REPS, times);
    for (int i = 1; i <= DISTANCE_REPS; i++)
        fastest = fastest < 0 || times[i] < fastest ? times[i] : fastest;
    return fastest;
}

/* The first rank of each node, at each node distance 2^i in turn, every
 * node at once: swaps SMALL_BYTES and then DISTANCE_BYTES with the first
 * rank of node n xor 2^i, as a recursive doubling's rounds do, and sends
 * SMALL_BYTES to that of node n + 2^i (mod nodes) while receiving from
 * n - 2^i, as a ring's or a dissemination's do. figures[PER_LEVEL * i
 * ...]: the swap's time, the large swap's, the shift's; -1 where it has
 * no such partner, and on the other ranks, which wait. */
static void time_distances(const struct node_layout *L, int rank, char *buf, int levels,
                           double *figures)
{
    int node = L->node_of[rank], nodes = L->shape.nodes;
    for (int i = 0; i < levels * PER_LEVEL; i++)
        figures[i] = -1;
    if (L->index_in_node[rank] != 0)
        return;
    for (int i = 0, d = 1; i < levels; i++, d *= 2) {
        double *level = figures + PER_LEVEL * i;
        if ((node ^ d) < nodes) {
            int partner = rank_at(L, node ^ d, 0);
            level[0] = round_time(partner, partner, buf);
            level[1] = swap_time(partner, buf, DISTANCE_BYTES, 1);
        }
        level[2] = round_time(rank_at(L, (node + d) % nodes, 0),
                              rank_at(L, (node - d + nodes) % nodes, 0), buf);
    }
}

/* The largest of figure i over the ranks that measured it (stride
 * figures a rank), or -1: a round costs its slowest message. */
static double slowest_over_ranks(const double *all, int size, int stride, int i)
{
    double slowest = -1;
    for (int r = 0; r < size; r++)
        slowest = all[(size_t)r * stride + i] > slowest ? all[(size_t)r * stride + i] : slowest;
    return slowest;
}

/* The latency part of a DISTANCE_BYTES swap at level i in the agreed
 * model: its small swap's and, above the eager limit, a rendezvous's
 * handshake. */
static double swap_latency(int level)
{
    int rendezvous = machine.eager_inter > 0 && DISTANCE_BYTES > machine.eager_inter;
    return machine.alpha_exchange[level] + (rendezvous ? machine.handshake : 0);
}

/* The model's rounds by distance from every rank's figures (all: size
 * rows of PER_LEVEL * levels, then a scratch column): a small round's
 * latency is its slowest rank's, and a large swap's bytes, their latency
 * taken off, over the nearest distance's, the median over ranks, are its
 * per-byte factor (within SHARE_NOISE of 1: 1). None where the nearest's
 * bytes took no time; `nodes`: the job's, which they were measured over. */
static void agree_distances(const double *all, int size, int levels, int nodes,
                            double *scratch)
{
    int stride = PER_LEVEL * levels;
    for (int i = 0; i < levels; i++) {
        machine.alpha_exchange[i] = slowest_over_ranks(all, size, stride, PER_LEVEL * i);
        machine.alpha_shift[i] = slowest_over_ranks(all, size, stride, PER_LEVEL * i + 2);
    }
    double nearest = median_over_ranks(all, size, stride, 1, scratch) - swap_latency(0);
    for (int i = 0; i < levels && nearest > 0; i++) {
        double bytes =
            median_over_ranks(all, size, stride, PER_LEVEL * i + 1, scratch) - swap_latency(i);
        double share = bytes / nearest;
        machine.beta_distance[i] = share < SHARE_NOISE ? 1 : share;
    }
    machine.distances = nearest > 0 ? levels : 0;
    machine.distance_nodes = nearest > 0 ? nodes : 0;
}

/* Where distance_levels, every node's first rank times its rounds, and
 * every rank agrees on them. */
static int measure_distances(const struct node_layout *L, int rank, int size, char *buf)
{
    int levels = distance_levels(L), stride = PER_LEVEL * levels;
    if (!levels)
        return MPI_SUCCESS;
    double *all = malloc((size_t)size * (stride + 1) * sizeof *all); /* and a scratch column */
    if (!all)
        return MPI_ERR_NO_MEM;
    time_distances(L, rank, buf, levels, all + (size_t)rank * stride);
    int err = vendor.allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, stride, MPI_DOUBLE,
                               MPI_COMM_WORLD);
    if (!err)
        agree_distances(all, size, levels, L->shape.nodes, all + (size_t)size * stride);
    free(all);
    return err;
}

/* ---- a parent's messages at once (fan_nodes, fan_share, fan_first) ---- */

#define FAN_BYTES (16 * 1024) /* each child's message: eager wherever the model is asked */
#define FAN_REPS 3            /* timed rounds of each: the fastest counts */

/* The children of the root's fan: the first ranks of nodes 1, 2, 4, ...
 * (at most FAN), as a binomial tree's root has; or 0 where it is not
 * timed: fewer than 3 nodes, FAN_BYTES above the agreed eager limit, their
 * bytes shorter than a message's latency, or the rounds over LEVEL_BUDGET
 * (on the virtual cluster, 8 nodes at 1 Gbit/s, 3 children: 2.6 ms). */
static int fan_children(const struct node_layout *L, int *children)
{
    int count = 0;
    for (int node = 1; node < L->shape.nodes && count < FAN; node *= 2)
        children[count++] = rank_at(L, node, 0);
    double bytes = FAN_BYTES * machine.beta_inter, message = machine.alpha_lone + bytes;
    double rounds = (1 + FAN_REPS) * ((count + 1) * bytes + 4 * machine.alpha_lone);
    if (count < 2 || machine.eager_inter < FAN_BYTES || bytes < machine.alpha_inter ||
        rounds + message > LEVEL_BUDGET)
        return 0;
    return count;
}

/* The root's round: FAN_BYTES to each of its children, one send after
 * another as a binomial tree's parent does, the farthest (its largest
 * subtree) first, each child answering SMALL_BYTES once its message is
 * in: the seconds to the answer of the child sent to first and to the
 * last answer (times[0..1]). */
static void fan_round(const int *children, int count, char *buf, double times[2])
{
    MPI_Request answers[FAN];
    double start = PMPI_Wtime();
    for (int i = 0; i < count; i++)
        PMPI_Irecv(buf + HALF + i * SMALL_BYTES, SMALL_BYTES, MPI_BYTE, children[i], MACHINE_TAG,
                   MPI_COMM_WORLD, &answers[i]);
    for (int i = count - 1; i >= 0; i--)
        vendor.send(buf, FAN_BYTES, MPI_BYTE, children[i], MACHINE_TAG, MPI_COMM_WORLD);
    for (int i = 0; i < count; i++) {
        int which;
        vendor.waitany(count, answers, &which, MPI_STATUS_IGNORE);
        times[1] = PMPI_Wtime() - start;
        if (which == count - 1)
            times[0] = times[1];
    }
}

static void fan_answer(int root, char *buf)
{
    vendor.recv(buf + HALF, FAN_BYTES, MPI_BYTE, root, MACHINE_TAG, MPI_COMM_WORLD,
                MPI_STATUS_IGNORE);
    vendor.send(buf, SMALL_BYTES, MPI_BYTE, root, MACHINE_TAG, MPI_COMM_WORLD);
}

/* The root's figures from its rounds, the fastest of each after one
 * untimed: one child alone (`lone`: the farthest, so that what the others
 * add is their bytes, not a farther child's latency), then all at once.
 * figures: fan_nodes, fan_share, fan_first, as in the model. */
static void time_fan(const int *children, int count, char *buf, double figures[3])
{
    double lone = -1, first = -1, last = -1, times[2];
    for (int round = 0; round <= FAN_REPS; round++) {
        fan_round(children + count - 1, 1, buf, times);
        lone = round > 0 && (lone < 0 || times[0] < lone) ? times[0] : lone;
        fan_round(children, count, buf, times);
        if (round > 0 && (last < 0 || times[1] < last))
            first = times[0], last = times[1];
    }
    double bytes = FAN_BYTES * machine.beta_inter; /* one message's, as the costs price it */
    double added = last > lone ? last - lone : 0;
    figures[0] = count;
    figures[1] = added / ((count - 1) * bytes);
    figures[2] = added > 0 && first > lone ? (first - lone) / added : 0;
    figures[2] = figures[2] < 1 ? figures[2] : 1;
}

/* Where fan_children, the root times its fan and every rank takes its
 * figures (the root's: one parent's messages, as a tree's). */
static int measure_fans(const struct node_layout *L, int rank, char *buf)
{
    int children[FAN], count = fan_children(L, children), root = rank_at(L, 0, 0);
    double figures[3] = {0, 0, 0};
    if (!count)
        return MPI_SUCCESS;
    int child = 0;
    while (child < count && children[child] != rank)
        child++;
    if (rank == root)
        time_fan(children, count, buf, figures);
    for (int round = 0; child < count && round <= FAN_REPS; round++) {
        if (child == count - 1) /* the lone round's child */
            fan_answer(root, buf);
        fan_answer(root, buf);
    }
    int err = vendor.bcast(figures, 3, MPI_DOUBLE, root, MPI_COMM_WORLD);
    if (!err)
        machine.fan_nodes = figures[0], machine.fan_share = figures[1],
        machine.fan_first = figures[2];
    return err;
}

/* This rank's measurements across nodes, every rank's gathered in all
 * (size rows of MACHINE_FIELDS, then a scratch column), agreed into the
 * model. */
static int measure_and_agree(const struct partners *who, char *buf, struct machine_model *mine,
                             double *all, int rank, int size)
{
    struct probe probe = {.active = 0};
    measure_across(who, rank, buf, mine, &probe);
    for (int i = 0; i < MACHINE_FIELDS; i++)
        all[(size_t)rank * MACHINE_FIELDS + i] = *field(mine, i);
    int err = vendor.allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, MACHINE_FIELDS,
                               MPI_DOUBLE, MPI_COMM_WORLD);
    probe_finish(&probe);
    if (!err)
        agree(all, size, all + (size_t)size * MACHINE_FIELDS);
    if (!err && machine.valid)
        err = refine_beta(who, buf, all, rank, size);
    return err;
}

/* The model measured and agreed on (machine.valid), unless check_cpus
 * and the nodes' ranks wait for CPUs, where it stops after the intra
 * phase. */
static int measure(const struct node_layout *L, int rank, int size, int check_cpus)
{
    struct partners who = find_partners(L, rank);
    struct machine_model mine = {0};
    char *buf = calloc(2, HALF); /* pages touched only as far as the swaps reach */
    double *all = malloc((size_t)size * (MACHINE_FIELDS + 1) * sizeof *all); /* and a scratch column */
    int err = MPI_ERR_NO_MEM;
    if (buf && all) {
        for (int i = 0; i < MACHINE_FIELDS; i++)
            *field(&mine, i) = -1;
        measure_intra(&who, buf, &mine);
        err = MPI_SUCCESS;
        int waiting = check_cpus && nodes_wait_for_cpus(mine.alpha_intra, all, rank, size, &err);
        if (!err && !waiting)
            err = measure_and_agree(&who, buf, &mine, all, rank, size);
        if (!err && machine.valid)
            err = measure_distances(L, rank, size, buf);
        if (!err && machine.valid)
            err = measure_fans(L, rank, buf);
    }
    free(buf);
    free(all);
    return err;
}

/* ---- the file ---- */

/* The model's figures by node distance (distances of each), in files and
 * in the report: one table. A file gives all of them or none. */
static const struct {
    const char *name;
    size_t offset;
    double least; /* the smallest value a file may give */
    const char *meaning;
} distance_fields[] = {
    {"alpha_exchange", offsetof(struct machine_model, alpha_exchange), 0,
     "s: nodes 1, 2, 4, ... apart swap, every node at once: the slowest"},
    {"alpha_shift", offsetof(struct machine_model, alpha_shift), 0,
     "s: each node sends to the node 1, 2, 4, ... on, every node at once: the slowest"},
    {"beta_distance", offsetof(struct machine_model, beta_distance), 1,
     "per byte between nodes 1, 2, 4, ... apart, every node at once, in beta_inter's"},
};
#define DISTANCE_FIELDS (int)(sizeof distance_fields / sizeof distance_fields[0])

static double *distance_field(struct machine_model *m, int f)
{
    return (double *)((char *)m + distance_fields[f].offset);
}

/* The values after distance field f's name on a line of a file into m,
 * their count in *count; -1 where one is below the field's least, or
 * there are more than MODEL_DISTANCES, or something else follows. */
static int read_distances(const char *values, int f, struct machine_model *m, int *count)
{
    char *end;
    *count = 0;
    for (double value = strtod(values, &end); end != values; value = strtod(values, &end)) {
        if (value < distance_fields[f].least || *count == MODEL_DISTANCES)
            return -1;
        distance_field(m, f)[(*count)++] = value;
        values = end;
    }
    while (*values == ' ' || *values == '\t')
        values++;
    return *values == '\n' || *values == '#' || *values == '\0' ? 0 : -1;
}

/* Distance field f's values in `format`, `separator` between them, after
 * `before`. */
static size_t print_distances(char *buf, size_t len, int f, const char *before,
                              const char *separator, const char *format)
{
    size_t used = 0;
    for (int i = 0; i < machine.distances && used < len; i++) {
        used += (size_t)snprintf(buf + used, len - used, "%s", i ? separator : before);
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, format,
                                     distance_field(&machine, f)[i]);
    }
    return used;
}

/* A line of a file that names a distance field: its values into m
 * (counts[f]), 1; 0 where it names none; -1 with why where its values
 * are wrong. */
static int read_distance_line(const char *line, struct machine_model *m, int *counts,
                              char *why, size_t len)
{
    char name[64];
    int skip = 0;
    if (sscanf(line, "%63s %n", name, &skip) != 1)
        return 0;
    for (int f = 0; f < DISTANCE_FIELDS; f++)
        if (!strcmp(name, distance_fields[f].name)) {
            if (!read_distances(line + skip, f, m, &counts[f]))
                return 1;
            snprintf(why, len, "%s takes up to %d numbers of at least %g", name,
                     MODEL_DISTANCES, distance_fields[f].least);
            return -1;
        }
    return 0;
}

/* Whether a file gave every distance field with as many values, or none
 * (counts: each field's, -1 where absent); m->distances is that many. */
static int distances_agree(const int *counts, struct machine_model *m, char *why, size_t len)
{
    m->distances = counts[0] > 0 ? counts[0] : 0;
    for (int f = 1; f < DISTANCE_FIELDS; f++)
        if (counts[f] != counts[0]) {
            snprintf(why, len, "%s and %s give different numbers of distances",
                     distance_fields[0].name, distance_fields[f].name);
            return 0;
        }
    return 1;
}

int machine_file_read(const char *path, struct machine_model *m, char *why, size_t len)
{
    FILE *f = fopen(path, "r");
    char line[512], name[64];
    int seen = 0, counts[DISTANCE_FIELDS];
    for (int f = 0; f < DISTANCE_FIELDS; f++)
        counts[f] = -1;
    double value;
    if (!f)
        return snprintf(why, len, "cannot read it"), -1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        int i = 0, distance_line = read_distance_line(line, m, counts, why, len);
        if (distance_line < 0)
            break;
        if (distance_line)
            continue;
        if (sscanf(line, "%63s %lf", name, &value) != 2 || value < 0) {
            snprintf(why, len, "\"%.40s\" is not a name and a value", line);
            break;
        }
        while (i < MACHINE_FIELDS && strcmp(machine_fields[i].name, name))
            i++;
        if (i == MACHINE_FIELDS) {
            snprintf(why, len, "%.40s is not a field of the model", name);
            break;
        }
        if (machine_fields[i].most > 0 && value > machine_fields[i].most) {
            snprintf(why, len, "%s %g is above %g", name, value, machine_fields[i].most);
            break;
        }
        *field(m, i) = value;
        seen |= 1 << i;
    }
    fclose(f);
    if (!why[0])
        distances_agree(counts, m, why, len);
    for (int i = 0; i < MACHINE_FIELDS && !why[0]; i++)
        if (!(seen & 1 << i) && !machine_fields[i].optional)
            snprintf(why, len, "it lacks %s", machine_fields[i].name);
    return why[0] ? -1 : 0;
}

static void machine_write(const char *path, int size)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "collshim: cannot write the machine model to %s\n", path);
        return;
    }
    fprintf(f, "# collshim machine model (doc/model.md), measured on %d ranks in %.2f ms\n", size,
            startup_seconds * 1e3);
    for (int i = 0; i < MACHINE_FIELDS; i++)
        fprintf(f, "%-12s %.6e  # %s\n", machine_fields[i].name, *field(&machine, i),
                machine_fields[i].meaning);
    for (int i = 0; i < DISTANCE_FIELDS && machine.distances > 0; i++) {
        char values[MODEL_DISTANCES * 16];
        print_distances(values, sizeof values, i, "", " ", "%.6e");
        fprintf(f, "%s %s  # %s\n", distance_fields[i].name, values, distance_fields[i].meaning);
    }
    fclose(f);
}

/* Rank 0 reads the file; every rank gets its model (1) or learns there is
 * none (0). */
static int load_shared(const char *path, int rank)
{
    struct { struct machine_model m; int ok; } got = {{0}, 0};
    char why[128] = "";
    if (rank == 0) {
        got.ok = machine_file_read(path, &got.m, why, sizeof why) == 0;
        if (!got.ok && strcmp(why, "cannot read it"))
            fprintf(stderr, "collshim: COLLSHIM_MACHINE=%s: %s; the model is measured\n", path, why);
    }
    if (vendor.bcast(&got, (int)sizeof got, MPI_BYTE, 0, MPI_COMM_WORLD) || !got.ok)
        return 0;
    machine = got.m;
    machine.valid = 1;
    return 1;
}

/* COLLSHIM_MODEL: 0 none; 1 wherever calls span nodes; unset or "auto"
 * where they span nodes and no node has more ranks than cores. On an
 * oversubscribed node the ranks' swaps wait for a CPU (alpha_intra 190 ms
 * at 2 x 4 on 2 cores), and there the built-in rules, measured under
 * oversubscription, beat the model (results/model.md). */
enum model_mode { MODEL_OFF, MODEL_AUTO, MODEL_EVERYWHERE };
static enum model_mode model_mode = MODEL_AUTO;

static enum model_mode mode_of(const char *value, int rank)
{
    if (!value || !strcmp(value, "auto"))
        return MODEL_AUTO;
    if (!strcmp(value, "0") || !strcmp(value, "1"))
        return value[0] == '0' ? MODEL_OFF : MODEL_EVERYWHERE;
    if (rank == 0)
        fprintf(stderr, "collshim: COLLSHIM_MODEL=%.40s is not 0, 1 or auto; auto is used\n",
                value);
    return MODEL_AUTO;
}

/* Whether the model measures and chooses for calls with several ranks
 * per node: under COLLSHIM_MODEL=1, and under auto where no node is
 * oversubscribed and, once measured or read, a node's ranks do not wait
 * for CPUs. */
static int model_for_shared_nodes(void)
{
    return model_mode == MODEL_EVERYWHERE ||
           (model_mode == MODEL_AUTO && layout_ranks_per_core() == 1 &&
            machine.alpha_intra <= CPU_WAIT_ALPHA);
}

/* 2: the job spans nodes with one rank on each; 1: nodes with several;
 * 0: one node (or no layout). */
static int job_spread(const struct node_layout *L)
{
    return !L || L->shape.nodes < 2 ? 0 : L->shape.ppn > 1 ? 1 : 2;
}

int machine_init(int rank, int size)
{
    const char *path = settings.machine;
    double start = PMPI_Wtime();
    struct node_layout *world = NULL;
    int err = MPI_SUCCESS, spread;
    model_mode = mode_of(settings.model, rank);
    if (model_mode == MODEL_OFF) {
        why_none = "COLLSHIM_MODEL=0";
        return MPI_SUCCESS;
    }
    world = layout_world_build(rank, size);
    spread = job_spread(world);
    /* On oversubscribed nodes of several ranks the model chooses only
     * under COLLSHIM_MODEL=1, but a file asked for is measured and
     * written anyway: its calls with one rank per node (node leaders) use
     * it. */
    if (path && load_shared(path, rank))
        machine_origin = path;
    else if (spread == 1 && !model_for_shared_nodes() && !path)
        why_none = "several ranks per node, more than cores; COLLSHIM_MODEL=1 measures it there too";
    else if (spread) {
        /* several ranks per node, out of the box: not where they wait for CPUs */
        int check_cpus = spread == 1 && model_mode == MODEL_AUTO && !path;
        err = measure(world, rank, size, check_cpus);
        startup_seconds = PMPI_Wtime() - start;
        machine_origin = "measured in MPI_Init";
        if (!err && machine.valid && path && rank == 0)
            machine_write(path, size);
    }
    free(world);
    machine.ranks_per_core = layout_ranks_per_core();
    if (machine.valid)
        select_model_set(&machine, model_for_shared_nodes());
    return err;
}

int machine_describe(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (!machine.valid)
        return -1;
    for (int i = 0; i < MACHINE_FIELDS && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used,
                                 machine_fields[i].whole ? "%s%s %.0f" : "%s%s %.3g",
                                 i ? " " : "", machine_fields[i].name, *field(&machine, i));
    for (int i = 0; i < DISTANCE_FIELDS && machine.distances > 0 && used < len; i++) {
        used += (size_t)snprintf(buf + used, len - used, " %s", distance_fields[i].name);
        used += used < len ? print_distances(buf + used, len - used, i, " ", ",", "%.3g") : 0;
    }
    if (used < len)
        used += (size_t)snprintf(buf + used, len - used, " (%s", machine_origin);
    if (used < len && startup_seconds > 0)
        used += (size_t)snprintf(buf + used, len - used, ", start-up cost %.3f ms",
                                 startup_seconds * 1e3);
    if (used < len && beta_refined)
        used += (size_t)snprintf(buf + used, len - used, ", beta_inter from %d and %d KiB swaps",
                                 REFINE_BYTES / 1024, 4 * REFINE_BYTES / 1024);
    if (used < len)
        snprintf(buf + used, len - used, ")");
    return 0;
}

void machine_report(FILE *f)
{
    char line[1024];
    if (machine_describe(line, sizeof line))
        fprintf(f, "# machine model: none (%s): the tables choose every call\n", why_none);
    else
        fprintf(f, "# machine model: %s\n", line);
}
