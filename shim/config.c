/* config.c - the environment and the three tuning tables, in precedence
 * order: COLLSHIM_TUNE, COLLSHIM_TUNING_FILE, the built-in defaults. A
 * source with an error is reported once (rank 0) and ignored. */
#include "shim/shim.h"
#include "shim/learn.h"
#include "algorithms/registry.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shim_config shim_cfg;

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* Parse a source into t; 0, or -1 with the error said (rank 0) and the
 * source ignored. */
static int load_source(struct tune_table *t, const char *text, const char *source,
                       int from_file, int world_rank)
{
    char err[4096];
    int rc = from_file ? tune_parse_file(text, t, err, sizeof err)
                       : tune_parse(text, source, t, err, sizeof err);
    if (rc && world_rank == 0)
        fprintf(stderr, "collshim: %s; this source is ignored\n", err);
    return rc ? -1 : 0;
}

/* ---- the COLLSHIM_TUNE table, replaced while other threads walk it ----
 * A walk counts itself in `walkers` before it reads the table pointers and
 * uncounts itself after. A replacement publishes the new table, then waits
 * until no walk is counted before it frees the old one: a walk counted
 * after the publication reads the new pointer (sequentially consistent
 * atomics order the two), and one counted before holds the replacement
 * back. Walks are short (a table walk on a remembered-choice miss), and
 * replacements rare. */
static int walkers;
static pthread_mutex_t replacing = PTHREAD_MUTEX_INITIALIZER;

void config_tables_enter(const struct tune_table *tables[3])
{
    __atomic_add_fetch(&walkers, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 3; i++)
        tables[i] = __atomic_load_n(&shim_cfg.tables[i], __ATOMIC_SEQ_CST);
}

void config_tables_leave(void) { __atomic_sub_fetch(&walkers, 1, __ATOMIC_SEQ_CST); }

static void table_release(struct tune_table *t)
{
    if (t) {
        tune_free(t);
        free(t);
    }
}

/* Make t the COLLSHIM_TUNE table (NULL: none) and free the old one once no
 * walk can hold it. */
static void replace_env_table(struct tune_table *t)
{
    pthread_mutex_lock(&replacing);
    struct tune_table *old = shim_cfg.tune_env;
    shim_cfg.tune_env = t;
    __atomic_store_n(&shim_cfg.tables[0], t, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&shim_cfg.tables_generation, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&walkers, __ATOMIC_SEQ_CST))
        sched_yield();
    table_release(old);
    pthread_mutex_unlock(&replacing);
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
    struct tune_table *env = tune && *tune ? calloc(1, sizeof *env) : NULL;
    if (env && load_source(env, tune, "COLLSHIM_TUNE", 0, world_rank)) {
        free(env);
        env = NULL;
    }
    replace_env_table(env);
    if (file && *file && !load_source(&shim_cfg.tune_file, file, file, 1, world_rank))
        shim_cfg.tables[1] = &shim_cfg.tune_file;
    if (!load_source(&shim_cfg.tune_builtin, tune_builtin_table, "built-in", 0, world_rank))
        shim_cfg.tables[2] = &shim_cfg.tune_builtin;
    __atomic_fetch_add(&shim_cfg.tables_generation, 1, __ATOMIC_SEQ_CST);
    learn_config(world_rank);
    if (shim_cfg.list && world_rank == 0)
        print_listing();
}

int config_set_tune(const char *rules, char *err, size_t errlen)
{
    struct tune_table *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "collshim_tune: out of memory");
        return MPI_ERR_NO_MEM;
    }
    if (tune_parse(rules ? rules : "", "collshim_tune", t, err, errlen)) {
        free(t);
        return MPI_ERR_ARG;
    }
    replace_env_table(t);
    return MPI_SUCCESS;
}

void config_free(void)
{
    replace_env_table(NULL);
    __atomic_fetch_add(&shim_cfg.tables_generation, 1, __ATOMIC_RELEASE);
    tune_free(&shim_cfg.tune_file);
    tune_free(&shim_cfg.tune_builtin);
    memset(shim_cfg.tables, 0, sizeof shim_cfg.tables);
}
