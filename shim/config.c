/* config.c - the environment and the three tuning tables, in precedence
 * order: COLLSHIM_TUNE, COLLSHIM_TUNING_FILE, the built-in defaults. A
 * source with an error is reported once (rank 0) and ignored. */
#include "shim.h"
#include "learn.h"
#include "../algorithms/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shim_config shim_cfg;

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static void load_source(struct tune_table *t, const char *text, const char *source,
                        int from_file, int slot, int world_rank)
{
    char err[4096];
    __atomic_fetch_add(&shim_cfg.tables_generation, 1, __ATOMIC_RELEASE);
    int rc = from_file ? tune_parse_file(text, t, err, sizeof err)
                       : tune_parse(text, source, t, err, sizeof err);
    if (rc) {
        if (world_rank == 0)
            fprintf(stderr, "collshim: %s; this source is ignored\n", err);
        shim_cfg.tables[slot] = NULL;
        return;
    }
    shim_cfg.tables[slot] = t;
}

static void print_listing(void)
{
    char restr[128];
    fprintf(stderr, "collshim: algorithms (name, restrictions, cost, summary)\n");
    for (int c = 0; c < COLL_COUNT; c++) {
        fprintf(stderr, "%s\n", coll_name((enum coll_id)c));
        for (int i = 0; i < registry_count; i++) {
            const struct algorithm *alg = &registry_table[i];
            if (alg->coll != (enum coll_id)c)
                continue;
            registry_restrictions_text(alg->restrictions, restr, sizeof restr);
            fprintf(stderr, "  %-22s restrictions: %s%s\n  %-22s %s\n  %-22s %s\n",
                    alg->name, restr, alg->restrictions & ALG_TAKES_SEG ? "; takes seg=" : "",
                    "", alg->cost, "", alg->summary);
        }
    }
}

void config_load(int world_rank)
{
    const char *tune = getenv("COLLSHIM_TUNE");
    const char *file = getenv("COLLSHIM_TUNING_FILE");
    shim_cfg.disabled = env_flag("COLLSHIM_DISABLE");
    shim_cfg.verbose = env_flag("COLLSHIM_VERBOSE");
    shim_cfg.schedule_blocking = env_flag("COLLSHIM_SCHEDULE_BLOCKING");
    shim_cfg.lazy_contexts = env_flag("COLLSHIM_LAZY_CONTEXTS");
    shim_cfg.list = env_flag("COLLSHIM_LIST");
    shim_cfg.test_no_vendor_init = env_flag("COLLSHIM_TEST_NO_VENDOR_INIT");
    shim_cfg.report = env_flag("COLLSHIM_REPORT") ? getenv("COLLSHIM_REPORT") : NULL;
    if (tune && *tune)
        load_source(&shim_cfg.tune_env, tune, "COLLSHIM_TUNE", 0, 0, world_rank);
    if (file && *file)
        load_source(&shim_cfg.tune_file, file, file, 1, 1, world_rank);
    load_source(&shim_cfg.tune_builtin, tune_builtin_table, "built-in", 0, 2, world_rank);
    learn_config(world_rank);
    if (shim_cfg.list && world_rank == 0)
        print_listing();
}

int config_set_tune(const char *rules, char *err, size_t errlen)
{
    struct tune_table t;
    if (tune_parse(rules ? rules : "", "collshim_tune", &t, err, errlen))
        return MPI_ERR_ARG;
    __atomic_fetch_add(&shim_cfg.tables_generation, 1, __ATOMIC_RELEASE);
    tune_free(&shim_cfg.tune_env);
    shim_cfg.tune_env = t;
    shim_cfg.tables[0] = &shim_cfg.tune_env;
    return MPI_SUCCESS;
}

void config_free(void)
{
    __atomic_fetch_add(&shim_cfg.tables_generation, 1, __ATOMIC_RELEASE);
    tune_free(&shim_cfg.tune_env);
    tune_free(&shim_cfg.tune_file);
    tune_free(&shim_cfg.tune_builtin);
    memset(shim_cfg.tables, 0, sizeof shim_cfg.tables);
}
