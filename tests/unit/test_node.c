/* test_node.c - node layouts (compose/node.h) from testing specs and node
 * numbers, and the nodes= / ppn= fields of the grammar and the selector. */
#include "tests/unit/unit.h"
#include "algorithms/compose/node.h"
#include "algorithms/registry.h"
#include "tuning/tuning.h"

#include <stdlib.h>
#include <string.h>

static struct tune_table t;
static char err[1024];

static void teardown(void) { tune_free(&t); }

static void expect_ids(const char *spec, int size, const int *want)
{
    int ids[16];
    ck_assert_msg(node_ids_parse(spec, size, ids) == 0, "'%s' size %d rejected", spec, size);
    for (int i = 0; i < size; i++)
        ck_assert_msg(ids[i] == want[i], "'%s': rank %d on node %d, want %d", spec, i, ids[i],
                      want[i]);
}

START_TEST(specs_name_each_ranks_node)
{
    int ids[16];
    expect_ids("block:2", 5, (const int[]){0, 0, 0, 1, 1});
    expect_ids("block:4", 8, (const int[]){0, 0, 1, 1, 2, 2, 3, 3});
    expect_ids("rr:2", 5, (const int[]){0, 1, 0, 1, 0});
    expect_ids("0,0,1,1,1", 5, (const int[]){0, 0, 1, 1, 1});
    expect_ids("2,0,2", 3, (const int[]){2, 0, 2});
    const char *bad[] = {"", "block:0", "block:6", "rr:x", "rr:", "0,0,1", "0,0,1,1,1,1",
                         "0,,1,1,1", "0,0,1,1,5", "-1,0,0,0,0", "0,0,1,1,1,", "cyclic:2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(node_ids_parse(bad[i], 5, ids) == -1, "'%s' accepted", bad[i]);
}
END_TEST

static struct node_layout *layout_of(const char *spec, int size, int rank, const int *peers)
{
    int ids[16];
    ck_assert_int_eq(node_ids_parse(spec, size, ids), 0);
    struct node_layout *L = node_layout_build(ids, size, rank, peers);
    ck_assert_ptr_nonnull(L);
    return L;
}

START_TEST(block_layout_with_unequal_nodes)
{
    struct node_layout *L = layout_of("0,0,0,1,1", 5, 4, NULL);
    ck_assert_int_eq(L->shape.nodes, 2);
    ck_assert_int_eq(L->shape.ppn, 3);
    ck_assert(!L->shape.equal);
    ck_assert(L->shape.block);
    ck_assert_int_eq(L->my_node, 1);
    ck_assert_int_eq(L->my_index, 1);
    ck_assert_ptr_null(L->slice_peers);
    struct sub_group node = node_group_mine(L), leaders = node_group_leaders(L);
    ck_assert_int_eq(node.size, 2);
    ck_assert_int_eq(node.rank, 1);
    ck_assert_int_eq(node.peers[0], 3);
    ck_assert_int_eq(node.peers[1], 4);
    ck_assert_int_eq(node.shape.nodes, 1);
    ck_assert_int_eq(node.shape.ppn, 2);
    ck_assert_int_eq(leaders.size, 2);
    ck_assert_int_eq(leaders.peers[0], 0);
    ck_assert_int_eq(leaders.peers[1], 3);
    ck_assert_int_eq(leaders.shape.nodes, 2);
    ck_assert_int_eq(leaders.shape.ppn, 1);
    free(L);
}
END_TEST

/* Round robin over shadow ranks 10..15: nodes numbered by first rank, peers
 * translated, the slice of index 1 holds each node's second member. */
START_TEST(round_robin_layout_through_peers)
{
    const int peers[] = {10, 11, 12, 13, 14, 15};
    struct node_layout *L = layout_of("rr:3", 6, 4, peers);
    ck_assert_int_eq(L->shape.nodes, 3);
    ck_assert_int_eq(L->shape.ppn, 2);
    ck_assert(L->shape.equal);
    ck_assert(!L->shape.block);
    ck_assert_int_eq(L->my_node, 1);
    ck_assert_int_eq(L->my_index, 1);
    struct sub_group node = node_group_mine(L), slice = node_group_slice(L);
    ck_assert_int_eq(node.peers[0], 11);
    ck_assert_int_eq(node.peers[1], 14);
    ck_assert_int_eq(slice.size, 3);
    ck_assert_int_eq(slice.rank, 1);
    ck_assert_int_eq(slice.peers[0], 13);
    ck_assert_int_eq(slice.peers[1], 14);
    ck_assert_int_eq(slice.peers[2], 15);
    /* root 5 (node 2, index 1) represents its node; leaders elsewhere */
    struct sub_group reps = node_rooted_leaders(L, 5);
    ck_assert_int_eq(reps.peers[0], 10);
    ck_assert_int_eq(reps.peers[1], 11);
    ck_assert_int_eq(reps.peers[2], 15);
    ck_assert_int_eq(node_rep_index(L, 5), 0);
    ck_assert(!node_is_rep(L, 5));
    ck_assert(node_is_rep(L, 4));
    free(L);
}
END_TEST

START_TEST(nodes_and_ppn_fields_parse_and_print)
{
    ck_assert_int_eq(tune_parse("allreduce nodes=2-inf ppn=2-64 0-1k @node\n"
                                "bcast ppn=1 @binomial\nbarrier @dissemination", "t", &t, err,
                                sizeof err), 0);
    ck_assert_int_eq(t.rules[0].nodes_lo, 2);
    ck_assert_int_eq(t.rules[0].nodes_hi, TUNE_NP_INF);
    ck_assert_int_eq(t.rules[0].ppn_lo, 2);
    ck_assert_int_eq(t.rules[0].ppn_hi, 64);
    ck_assert_int_eq(t.rules[1].ppn_lo, 1);
    ck_assert_int_eq(t.rules[1].ppn_hi, 1);
    ck_assert_int_eq(t.rules[2].nodes_lo, 0);
    ck_assert_int_eq(t.rules[2].ppn_hi, TUNE_NP_INF);
    char line[256];
    tune_format_rule(&t.rules[0], line, sizeof line);
    ck_assert_msg(strstr(line, "nodes=2-inf ppn=2-64") != NULL, "%s", line);
    tune_format_rule(&t.rules[2], line, sizeof line);
    ck_assert_msg(strstr(line, "nodes") == NULL && strstr(line, "ppn") == NULL, "%s", line);
    tune_free(&t);
    ck_assert_int_eq(tune_parse("allreduce nodes=2 nodes=3 @node", "t", &t, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "nodes= given twice") != NULL, "%s", err);
    ck_assert_int_eq(tune_parse("allreduce ppn=4-2 @node", "t", &t, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "empty ppn range") != NULL, "%s", err);
    ck_assert_int_eq(tune_parse("allreduce ppn=0 @node", "t", &t, err, sizeof err), -1);
    ck_assert_int_eq(tune_parse("allreduce nodes=x @node", "t", &t, err, sizeof err), -1);
}
END_TEST

static const char *pick(struct coll_key k)
{
    const struct tune_table *tables[] = {&t};
    return registry_table[tune_select(tables, 1, &k).alg].name;
}

/* Rules select by nodes and ppn; node-aware algorithms walk on where the
 * layout forbids them: one node, one rank per node, unequal nodes for
 * slices, an interleaved layout for a non-commutative op. */
START_TEST(selection_by_nodes_and_ppn)
{
    ck_assert_int_eq(tune_parse("allreduce nodes=4-8 @rabenseifner\n"
                                "allreduce ppn=2-3 @node_slices\nallreduce @node\n"
                                "allreduce @ring\nallreduce @reduce_bcast", "t", &t, err,
                                sizeof err), 0);
    struct coll_key k = {.coll = COLL_allreduce, .np = 8, .bytes = 8, .count = 2,
                         .commutative = 1, .predefined_op = 1, .shape = {4, 2, 1, 1}};
    ck_assert_str_eq(pick(k), "rabenseifner");
    k.shape = node_shape_make(2, 4, 1, 1);
    ck_assert_str_eq(pick(k), "node");
    k.shape = node_shape_make(3, 3, 1, 0);
    k.np = 9;
    ck_assert_str_eq(pick(k), "node_slices");
    k.shape.equal = 0;
    ck_assert_str_eq(pick(k), "node");
    k.commutative = 0;
    ck_assert_str_eq(pick(k), "reduce_bcast"); /* interleaved, non-commutative; ring too */
    k.shape.block = 1;
    ck_assert_str_eq(pick(k), "node");
    k.shape = node_shape_make(1, 9, 1, 1);
    ck_assert_str_eq(pick(k), "reduce_bcast");
    k.shape = node_shape_make(9, 1, 1, 1);
    ck_assert_str_eq(pick(k), "reduce_bcast");
}
END_TEST

/* ranks_per_core= parses, prints back, and chooses only for oversubscribed
 * jobs; a rule without it chooses for every job. */
START_TEST(ranks_per_core_field)
{
    ck_assert_int_eq(tune_parse("bcast ranks_per_core=2-inf 512k-inf @binomial\n"
                                "bcast @pipeline", "t", &t, err, sizeof err), 0);
    ck_assert_int_eq(t.rules[0].ranks_per_core_lo, 2);
    ck_assert_int_eq(t.rules[0].ranks_per_core_hi, TUNE_NP_INF);
    ck_assert_int_eq(t.rules[1].ranks_per_core_lo, 0);
    char line[256];
    tune_format_rule(&t.rules[0], line, sizeof line);
    ck_assert_msg(strstr(line, "ranks_per_core=2-inf") != NULL, "%s", line);
    tune_format_rule(&t.rules[1], line, sizeof line);
    ck_assert_msg(strstr(line, "ranks_per_core") == NULL, "%s", line);
    struct coll_key k = {.coll = COLL_bcast, .np = 4, .bytes = 1 << 20, .count = 1 << 20,
                         .commutative = 1, .predefined_op = 1, .shape = {1, 4, 1, 1, 2, {0}}};
    ck_assert_str_eq(pick(k), "binomial");
    k.shape.ranks_per_core = 1;
    ck_assert_str_eq(pick(k), "pipeline");
    k.shape.ranks_per_core = 0; /* unknown (a step, an intercommunicator) */
    ck_assert_str_eq(pick(k), "pipeline");
    tune_free(&t);
    ck_assert_int_eq(tune_parse("bcast ranks_per_core=2 ranks_per_core=3 @binomial", "t", &t,
                                err, sizeof err), -1);
    ck_assert_msg(strstr(err, "ranks_per_core= given twice") != NULL, "%s", err);
    ck_assert_int_eq(tune_parse("bcast ranks_per_core=3-2 @binomial", "t", &t, err, sizeof err),
                     -1);
    ck_assert_int_eq(tune_parse("bcast ranks_per_core=2 @binomial", "t", &t, err, sizeof err), 0);
    ck_assert_int_eq(t.rules[0].inter, 0); /* not remote= */
}
END_TEST

Suite *node_suite(void)
{
    return unit_suite("node", "layout", teardown,
                      UNIT_TESTS(specs_name_each_ranks_node, block_layout_with_unequal_nodes,
                                 round_robin_layout_through_peers,
                                 nodes_and_ppn_fields_parse_and_print,
                                 selection_by_nodes_and_ppn, ranks_per_core_field));
}
