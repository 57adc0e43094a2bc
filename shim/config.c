/* config.c - the environment: the shim's settings, the tables handed to
 * the selection (select/tables.c), COLLSHIM_LIST's listing. */
#include "shim/shim.h"
#include "shim/learn.h"
#include "algorithms/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shim_config shim_cfg;

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
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
    select_tables_load(tune, file, world_rank);
    select_configure(&(struct select_settings){.verbose = shim_cfg.verbose});
    learn_config(world_rank);
    if (shim_cfg.list && world_rank == 0)
        print_listing();
}

void config_free(void) { select_tables_free(); }
