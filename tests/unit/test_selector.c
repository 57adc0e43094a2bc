/* test_selector.c - call properties in, algorithm and fallback chain out. */
#include "tests/unit/unit.h"
#include "tuning/tuning.h"
#include "algorithms/registry.h"

#include <string.h>

static struct tune_table env_t, file_t;
static char err[1024];

static struct coll_key key(enum coll_id c, int np, uint64_t bytes, int count, int commutative)
{
    struct coll_key k = {.coll = c, .np = np, .bytes = bytes, .count = count,
                         .commutative = commutative != 0, .predefined_op = 1};
    return k;
}

static const char *pick(const struct tune_table *a, const struct tune_table *b, struct coll_key k)
{
    const struct tune_table *tables[] = {a, b};
    return registry_table[tune_select(tables, 2, &k).alg].name;
}

static void teardown(void) { tune_free(&env_t); tune_free(&file_t); }

START_TEST(first_match_wins_and_ranges_are_half_open)
{
    ck_assert_int_eq(tune_parse("allreduce 0-1k @recursive_doubling\nallreduce @vendor", "t", &env_t, err, sizeof err), 0);
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 4, 1023, 255, 1)), "recursive_doubling");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 4, 1024, 256, 1)), "vendor");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_bcast, 4, 8, 8, 1)), "vendor"); /* no rule */
}
END_TEST

/* The selector walks each collective's own rules (a chain built by the
 * parser): interleaved collectives keep their order, and a table grown
 * past its first allocation (16 rules) keeps its chains. */
START_TEST(rules_of_interleaved_collectives_keep_their_order)
{
    char text[4096] = "";
    for (int i = 0; i < 20; i++)
        strcat(text, "bcast np=100-200 @linear\nallreduce np=100-200 @ring\n");
    strcat(text, "bcast np=2 @binomial\nallreduce np=2 @recursive_doubling\n"
                 "bcast @linear\nallreduce np=3 @ring\nallreduce @vendor\n");
    ck_assert_int_eq(tune_parse(text, "t", &env_t, err, sizeof err), 0);
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 2, 8, 2, 1)), "recursive_doubling");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 3, 8, 2, 1)), "ring");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 4, 8, 2, 1)), "vendor");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 150, 8, 2, 1)), "ring");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_bcast, 2, 8, 2, 1)), "binomial");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_bcast, 5, 8, 2, 1)), "linear");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_reduce, 5, 8, 2, 1)), "vendor"); /* no rule */
    tune_free(&env_t);
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_bcast, 2, 8, 2, 1)), "vendor"); /* freed: empty */
}
END_TEST

START_TEST(np_ranges_are_inclusive)
{
    ck_assert_int_eq(tune_parse("allreduce np=3-5 @recursive_doubling", "t", &env_t, err, sizeof err), 0);
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 2, 8, 2, 1)), "vendor");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 3, 8, 2, 1)), "recursive_doubling");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 5, 8, 2, 1)), "recursive_doubling");
    ck_assert_str_eq(pick(&env_t, NULL, key(COLL_allreduce, 6, 8, 2, 1)), "vendor");
}
END_TEST

START_TEST(environment_before_file)
{
    ck_assert_int_eq(tune_parse("allreduce @vendor", "env", &env_t, err, sizeof err), 0);
    ck_assert_int_eq(tune_parse("allreduce @recursive_doubling", "file", &file_t, err, sizeof err), 0);
    ck_assert_str_eq(pick(&env_t, &file_t, key(COLL_allreduce, 4, 8, 2, 1)), "vendor");
    ck_assert_str_eq(pick(NULL, &file_t, key(COLL_allreduce, 4, 8, 2, 1)), "recursive_doubling");
}
END_TEST

START_TEST(explain_shows_the_walk)
{
    char buf[1024];
    const struct tune_table *tables[] = {&env_t};
    ck_assert_int_eq(tune_parse("bcast @vendor\nallreduce 0-1k @recursive_doubling\nallreduce @vendor", "t", &env_t, err, sizeof err), 0);
    struct coll_key k = key(COLL_allreduce, 4, 8, 2, 1);
    tune_explain(tables, 1, &k, buf, sizeof buf);
    ck_assert_str_eq(buf, "t:2 @recursive_doubling: taken\n");
    k = key(COLL_allreduce, 4, 4096, 1024, 1);
    tune_explain(tables, 1, &k, buf, sizeof buf);
    ck_assert_str_eq(buf, "t:3 @vendor: taken\n");
}
END_TEST

/* A restricted algorithm that cannot run is skipped for the next rule. */
START_TEST(restrictions_walk_on)
{
    const struct algorithm fake = {.coll = COLL_allreduce, .name = "fake",
                                   .restrictions = ALG_NEEDS_COMMUTATIVE | ALG_NEEDS_POW2,
                                   .cost = "", .summary = ""};
    struct coll_key k = key(COLL_allreduce, 4, 8, 2, 1);
    const char *why = NULL;
    ck_assert_int_eq(registry_can_run(&fake, &k, &why), 1);
    k.np = 6;
    ck_assert_int_eq(registry_can_run(&fake, &k, &why), 0);
    ck_assert_str_eq(why, "needs a power-of-two communicator size");
    k.np = 4;
    k.commutative = 0;
    ck_assert_int_eq(registry_can_run(&fake, &k, &why), 0);
    ck_assert_str_eq(why, "needs a commutative op");
}
END_TEST

/* A step of a composed algorithm (key.sub) never runs the vendor, which
 * needs the caller's communicator: the walk goes on to the next rule. */
START_TEST(steps_skip_the_vendor)
{
    const struct tune_table *tables[] = {&env_t};
    ck_assert_msg(tune_parse("allreduce @vendor; allreduce @ring", "t", &env_t, err,
                             sizeof err) == 0, "%s", err);
    struct coll_key k = key(COLL_allreduce, 4, 4096, 1024, 1);
    ck_assert_str_eq(registry_table[tune_select(tables, 1, &k).alg].name, "vendor");
    k.sub = 1;
    ck_assert_str_eq(registry_table[tune_select(tables, 1, &k).alg].name, "ring");
}
END_TEST

/* Rules with `inter` or remote= match intercommunicator keys only, rules
 * without them intracommunicator keys only; np= is the smaller group,
 * remote= the larger; intra algorithms cannot run inter keys. */
START_TEST(inter_rules_match_inter_keys_only)
{
    const struct tune_table *tables[] = {&env_t};
    ck_assert_msg(tune_parse("allreduce @ring\n"
                             "allreduce inter remote=5-8 @inter_leaders\n"
                             "allreduce inter np=1 @vendor\n"
                             "allreduce inter @recursive_doubling\n"
                             "allreduce remote=1-4 0-1k @inter_leaders\n",
                             "test", &env_t, err, sizeof err) == 0, "%s", err);
    struct coll_key intra = {.coll = COLL_allreduce, .np = 4, .bytes = 8, .count = 2,
                             .commutative = 1, .predefined_op = 1};
    struct coll_key inter = intra;
    inter.inter = 1;
    inter.np = 2;
    inter.remote = 6;
    ck_assert_int_eq(tune_select(tables, 1, &intra).rule->line, 1);
    ck_assert_int_eq(tune_select(tables, 1, &inter).rule->line, 2);
    inter.np = 1;
    inter.remote = 3;
    ck_assert_int_eq(tune_select(tables, 1, &inter).rule->line, 3);
    inter.np = 2; /* line 4 names an intra algorithm: skipped */
    ck_assert_int_eq(tune_select(tables, 1, &inter).rule->line, 5);
    inter.bytes = 4096;
    ck_assert_ptr_null(tune_select(tables, 1, &inter).rule);
    /* an inter algorithm never runs an intra key */
    tune_free(&env_t);
    ck_assert(tune_parse("allreduce @inter_leaders\nallreduce @ring\n", "test", &env_t, err,
                         sizeof err) == 0);
    ck_assert_int_eq(tune_select(tables, 1, &intra).rule->line, 2);
}
END_TEST

/* The built-in table names no vendor rule and, whatever the call, picks a
 * native algorithm that can run it. */
START_TEST(builtin_table_always_has_a_native_algorithm)
{
    const uint64_t sizes[] = {0, 1, 8, 1000, 2048, 65536, 1 << 20, 1ull << 33};
    const struct tune_table *tables[] = {&env_t};
    ck_assert_msg(tune_parse(tune_builtin_table, "built-in", &env_t, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < env_t.n; i++)
        ck_assert_str_ne(registry_table[env_t.rules[i].alg].name, "vendor");
    for (int c = 0; c < COLL_COUNT; c++)
        for (int np = 1; np <= 70; np++)
            for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++)
                for (int props = 0; props < 128; props++) {
                    /* shapes: one node; np/2 nodes of 2 (block or not,
                     * equal or not); 2 nodes of about np/2 */
                    int shape = props >> 5, nodes = shape == 0 ? 1 : shape == 3 ? 2 : (np + 1) / 2;
                    struct coll_key k = {.coll = (enum coll_id)c, .np = np, .bytes = sizes[b],
                                         .count = (int)(sizes[b] / 4), .commutative = props & 1,
                                         .predefined_op = (props >> 1) & 1,
                                         .in_place = (props >> 2) & 1, .sub = (props >> 3) & 1,
                                         .shape = {nodes, (np + nodes - 1) / nodes,
                                                   np % nodes == 0, shape != 2},
                                         .inter = (props >> 4) & 1};
                    if (k.inter && (c == COLL_scan || c == COLL_exscan))
                        continue; /* not defined on intercommunicators */
                    if (k.inter) { /* never in place; the larger group; no node levels */
                        if (shape)
                            continue;
                        k.in_place = 0;
                        k.remote = np + np % 3;
                        k.shape = node_shape_make(0, 0, 0, 0);
                    }
                    struct tune_choice ch = tune_select(tables, 1, &k);
                    ck_assert_msg(strcmp(registry_table[ch.alg].name, "vendor") != 0 &&
                                      registry_can_run(&registry_table[ch.alg], &k, NULL),
                                  "%s np=%d bytes=%llu props=%d falls to the vendor",
                                  coll_name((enum coll_id)c), np, (unsigned long long)sizes[b], props);
                }
}
END_TEST

/* The built-in rules measured at p = 256 on SMPI's fat tree (results/scale.md),
 * on 16 nodes of 16 in blocks, against the p = 64 rules they bound. */
static const char *builtin_pick_on(enum coll_id c, int nodes, int ppn, uint64_t bytes)
{
    const struct tune_table *tables[] = {&env_t};
    struct coll_key k = key(c, nodes * ppn, bytes, (int)(bytes / 4), 1);
    k.shape = node_shape_make(nodes, ppn, 1, 1);
    return registry_table[tune_select(tables, 1, &k).alg].name;
}

static const char *builtin_pick(enum coll_id c, int np, uint64_t bytes)
{
    return builtin_pick_on(c, np / 16, 16, bytes);
}

/* The built-in table's choice for the leaders' step of @node at 1024
 * ranks: 64 ranks, one per node. */
static const char *leaders_pick(enum coll_id c, uint64_t bytes)
{
    const struct tune_table *tables[] = {&env_t};
    struct coll_key k = key(c, 64, bytes, -1, 1);
    k.shape = node_shape_make(64, 1, 1, 1);
    return registry_table[tune_select(tables, 1, &k).alg].name;
}

/* The built-in walk without the model: the measured rules (env_t), then
 * the table (file_t). */
static void parse_builtin_walk(void)
{
    ck_assert_msg(tune_parse(tune_builtin_measured, "built-in", &env_t, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(tune_parse(tune_builtin_table, "built-in", &file_t, err, sizeof err) == 0, "%s", err);
}

/* Its choice for a commutative call of `bytes` on nodes of ppn ranks in
 * blocks, ranks_per_core of them a core. */
static const char *builtin_walk_pick(enum coll_id c, int nodes, int ppn, int ranks_per_core,
                                     uint64_t bytes)
{
    struct coll_key k = key(c, nodes * ppn, bytes, (int)(bytes / 4), 1);
    k.shape = node_shape_make(nodes, ppn, 1, 1);
    k.shape.ranks_per_core = (unsigned char)ranks_per_core;
    return pick(&env_t, &file_t, k);
}

START_TEST(builtin_rules_at_256_ranks)
{
    ck_assert_msg(tune_parse(tune_builtin_table, "built-in", &env_t, err, sizeof err) == 0, "%s", err);
    /* allgather, 16 KiB blocks: the ring to 128 ranks, neighbor exchange beyond */
    ck_assert_str_eq(builtin_pick(COLL_allgather, 64, 64 * 65536), "ring");
    ck_assert_str_eq(builtin_pick(COLL_allgather, 256, 256 * 16384), "neighbor_exchange");
    /* alltoall: 32 B blocks node-aware at 256, scattered from 64 B; at 64
     * ranks the same 8k of key (128 B blocks) stays scattered */
    ck_assert_str_eq(builtin_pick(COLL_alltoall, 256, 256 * 32), "node");
    ck_assert_str_eq(builtin_pick(COLL_alltoall, 256, 256 * 64), "scattered");
    ck_assert_str_eq(builtin_pick(COLL_alltoall, 64, 64 * 128), "scattered");
}
END_TEST

/* bcast at 256 and 1024 ranks (results/scale.md): @node from 32k at 256, from
 * 64k at 1024; its leaders' step, 64 ranks one per node, runs binomial
 * from 128k and scatter + doubling allgather from 256k, and the k-nomial
 * tree below, as the 64-rank communicators of 4 nodes do. */
START_TEST(builtin_bcast_rules_at_1024_ranks)
{
    ck_assert_msg(tune_parse(tune_builtin_table, "built-in", &env_t, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(builtin_pick(COLL_bcast, 256, 16384), "knomial");
    ck_assert_str_eq(builtin_pick(COLL_bcast, 256, 32768), "node");
    ck_assert_str_eq(builtin_pick(COLL_bcast, 1024, 32768), "knomial");
    ck_assert_str_eq(builtin_pick(COLL_bcast, 1024, 65536), "node");
    const struct {
        uint64_t bytes;
        const char *alg;
    } at[] = {{65536, "knomial"}, {131072, "binomial"}, {262144, "scatter_rdb_allgather"},
              {16777216, "scatter_rdb_allgather"}};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        ck_assert_str_eq(leaders_pick(COLL_bcast, at[i].bytes), at[i].alg);
    ck_assert_str_eq(builtin_pick(COLL_bcast, 64, 262144), "knomial");
}
END_TEST

/* allgather at 1024 ranks (64 nodes of 16): @node to 1 KiB blocks (1m of
 * key; neighbor exchange at 256 still from 256k), and its leaders'
 * allgatherv, 64 ranks one per node, runs recursive doubling to 32k and
 * Bruck beyond (the ring's 63 steps lost 4.7x at 64 B blocks), as does an
 * allgather of one rank per node. */
START_TEST(builtin_allgather_rules_at_1024_ranks)
{
    ck_assert_msg(tune_parse(tune_builtin_table, "built-in", &env_t, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(builtin_pick(COLL_allgather, 1024, 1024 * 64), "node");
    ck_assert_str_eq(builtin_pick(COLL_allgather, 1024, 1024 * 1024), "node");
    ck_assert_str_eq(builtin_pick(COLL_allgather, 256, 256 * 1024), "neighbor_exchange");
    for (uint64_t bytes = 1024; bytes <= 1 << 24; bytes *= 4)
        ck_assert_str_eq(leaders_pick(COLL_allgatherv, bytes),
                         bytes < 32768 ? "recursive_doubling" : "bruck");
    /* allgather: Bruck before the ring of 33-128 ranks from 4m */
    for (uint64_t bytes = 65536; bytes <= 1 << 22; bytes *= 64)
        ck_assert_str_eq(leaders_pick(COLL_allgather, bytes), "bruck");
}
END_TEST

/* allgather of 8 ranks on several nodes of several ranks (the virtual
 * cluster, 4 x 2 and 2 x 4): @node at every size, 0.42-0.83x neighbor
 * exchange's time from 128 KiB blocks (tuning/defaults.c); one rank per
 * node keeps neighbor exchange there. */
START_TEST(builtin_allgather_on_nodes_of_several_ranks)
{
    ck_assert_msg(tune_parse(tune_builtin_table, "built-in", &env_t, err, sizeof err) == 0, "%s", err);
    for (uint64_t bytes = 1 << 20; bytes <= 1 << 23; bytes *= 2) {
        ck_assert_str_eq(builtin_pick_on(COLL_allgather, 4, 2, bytes), "node");
        ck_assert_str_eq(builtin_pick_on(COLL_allgather, 2, 4, bytes), "node");
        ck_assert_str_eq(builtin_pick_on(COLL_allgather, 8, 1, bytes), "neighbor_exchange");
    }
}
END_TEST

/* Oversubscribed (ranks_per_core 2): the measured rules run recursive
 * doubling's allgather on one node (MPICH, np 4 on 2 cores) and leave
 * several nodes to the table's @node (the virtual cluster at 2 x 4:
 * recursive doubling 2.0-4.2x the best arm, tuning/defaults.c). */
START_TEST(oversubscribed_allgather_is_recursive_doubling_on_one_node_only)
{
    parse_builtin_walk();
    ck_assert_str_eq(builtin_walk_pick(COLL_allgather, 1, 4, 2, 1 << 17), "recursive_doubling");
    ck_assert_str_eq(builtin_walk_pick(COLL_allgather, 2, 4, 2, 1 << 17), "node");
    ck_assert_str_eq(builtin_walk_pick(COLL_allgather, 4, 2, 2, 1 << 17), "node");
}
END_TEST

START_TEST(oversubscribed_reduce_scatter_block_takes_few_steps)
{
    parse_builtin_walk();
    ck_assert_str_eq(builtin_walk_pick(COLL_reduce_scatter_block, 2, 4, 2, 1 << 20), "node");
    ck_assert_str_eq(builtin_walk_pick(COLL_reduce_scatter_block, 2, 4, 2, 1 << 19), "node");
    ck_assert_str_eq(builtin_walk_pick(COLL_reduce_scatter_block, 2, 4, 2, 1 << 18),
                     "recursive_doubling");
    ck_assert_str_eq(builtin_walk_pick(COLL_reduce_scatter_block, 2, 4, 2, 1 << 16),
                     "recursive_doubling");
    ck_assert_str_eq(builtin_walk_pick(COLL_reduce_scatter_block, 2, 4, 2, 1 << 15), "node");
    ck_assert_str_eq(builtin_walk_pick(COLL_reduce_scatter_block, 4, 2, 1, 1 << 20), "ring");
    ck_assert_str_eq(builtin_walk_pick(COLL_reduce_scatter_block, 4, 2, 1, 1 << 17), "ring");
}
END_TEST

Suite *selector_suite(void)
{
    return unit_suite("selector", "select", teardown,
                      UNIT_TESTS(first_match_wins_and_ranges_are_half_open,
                                 np_ranges_are_inclusive,
                                 rules_of_interleaved_collectives_keep_their_order,
                                 environment_before_file, explain_shows_the_walk,
                                 restrictions_walk_on, steps_skip_the_vendor,
                                 builtin_table_always_has_a_native_algorithm,
                                 builtin_rules_at_256_ranks, builtin_bcast_rules_at_1024_ranks,
                                 builtin_allgather_rules_at_1024_ranks,
                                 builtin_allgather_on_nodes_of_several_ranks,
                                 oversubscribed_allgather_is_recursive_doubling_on_one_node_only,
                                 oversubscribed_reduce_scatter_block_takes_few_steps,
                                 inter_rules_match_inter_keys_only));
}
