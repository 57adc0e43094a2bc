/* tables.c - the four tuning tables, in precedence order: COLLSHIM_TUNE
 * (replaced at run time by collshim_tune()), COLLSHIM_TUNING_FILE, the
 * built-in rules measured to beat the machine model, the built-in
 * defaults (select.h, enum select_source). A source with an error is said
 * once (world rank 0) and ignored. */
#include "select/select.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static struct tune_table *tune_env; /* COLLSHIM_TUNE or collshim_tune() */
static struct tune_table tune_file, tune_measured, tune_builtin;
static const struct tune_table *tables[SELECT_TABLES]; /* NULL: none */
static unsigned long generation;

unsigned long select_tables_generation(void)
{
    return __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
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

void select_tables_enter(const struct tune_table *out[SELECT_TABLES])
{
    __atomic_add_fetch(&walkers, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < SELECT_TABLES; i++)
        out[i] = __atomic_load_n(&tables[i], __ATOMIC_SEQ_CST);
}

void select_tables_leave(void) { __atomic_sub_fetch(&walkers, 1, __ATOMIC_SEQ_CST); }

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
    struct tune_table *old = tune_env;
    tune_env = t;
    __atomic_store_n(&tables[SELECT_TUNE], t, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&generation, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&walkers, __ATOMIC_SEQ_CST))
        sched_yield();
    table_release(old);
    pthread_mutex_unlock(&replacing);
}

void select_tables_load(const char *tune, const char *file, int world_rank)
{
    struct tune_table *env = tune && *tune ? calloc(1, sizeof *env) : NULL;
    if (env && load_source(env, tune, "COLLSHIM_TUNE", 0, world_rank)) {
        free(env);
        env = NULL;
    }
    replace_env_table(env);
    if (file && *file && !load_source(&tune_file, file, file, 1, world_rank))
        tables[SELECT_FILE] = &tune_file;
    if (!load_source(&tune_measured, tune_builtin_measured, "built-in", 0, world_rank))
        tables[SELECT_MEASURED] = &tune_measured;
    if (!load_source(&tune_builtin, tune_builtin_table, "built-in", 0, world_rank))
        tables[SELECT_BUILTIN] = &tune_builtin;
    __atomic_fetch_add(&generation, 1, __ATOMIC_SEQ_CST);
}

int select_tables_set_tune(const char *rules, char *err, size_t errlen)
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

void select_tables_free(void)
{
    replace_env_table(NULL);
    tables[SELECT_FILE] = tables[SELECT_MEASURED] = tables[SELECT_BUILTIN] = NULL;
    __atomic_fetch_add(&generation, 1, __ATOMIC_RELEASE);
    tune_free(&tune_file);
    tune_free(&tune_measured);
    tune_free(&tune_builtin);
}
