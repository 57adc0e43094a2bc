/* export_mpich.c - a table as MPICH 4's collective-selection JSON files
 * (doc/export.md).
 *
 * MPICH chooses in two levels, each from a JSON tree it holds built in and
 * replaces with a file's: the device level (ch4,
 * MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE) picks a composition, for
 * bcast, reduce, allreduce and barrier either node-aware or the whole
 * communicator through the network module; the generic level
 * (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE) picks the algorithm,
 * MPIR_Allreduce_intra_recursive_doubling and the like. A tree is an
 * ordered chain of tests per object (comm_size<=N, avg_msg_size<N,
 * is_commutative=yes, ...), the first that holds is entered, and a chain
 * of numeric tests ends with an =any member.
 *
 * The files written are MPICH's own built-in trees, read from the
 * installed library, with the intracommunicator branch of each collective
 * the table covers replaced: per communicator size and byte range, where
 * the table chooses an algorithm MPICH also has, that algorithm (behind
 * the tests MPICH's own tree puts before it: built-in op, power-of-two
 * size, ...) on the whole communicator; elsewhere MPICH's built-in branch,
 * unchanged. Facts of MPICH 4.0.2: the names and tests from its built-in
 * trees and csel_container.c; the compositions from ch4_coll_impl.h. */
#define _GNU_SOURCE
#include "bench/export.h"
#include "bench/json_tree.h"
#include "algorithms/registry.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* How MPICH sizes a call against collshim's selection bytes. */
enum mpich_size {
    MPICH_SIZE_AVG,   /* avg_msg_size: the same bytes (count x type size) */
    MPICH_SIZE_TOTAL, /* total_msg_size: the same bytes (all blocks) */
    MPICH_SIZE_NONE,  /* collshim's bytes are 0: the choice at 0 holds */
    MPICH_SIZE_OTHER, /* no test matches collshim's bytes (gather, scatter: elements; scan) */
};

static const struct mpich_collective {
    enum coll_id coll;
    enum mpich_size size;
    const char *whole_comm; /* the device level's composition that runs the generic
                               algorithm on the whole communicator (NULL: it has
                               only that one, and the built-in device tree stays) */
} mpich_collectives[] = {
    {COLL_barrier, MPICH_SIZE_NONE, "MPIDI_Barrier_intra_composition_beta"},
    {COLL_bcast, MPICH_SIZE_AVG, "MPIDI_Bcast_intra_composition_gamma"},
    {COLL_gather, MPICH_SIZE_OTHER, NULL},
    {COLL_gatherv, MPICH_SIZE_NONE, NULL},
    {COLL_scatter, MPICH_SIZE_OTHER, NULL},
    {COLL_scatterv, MPICH_SIZE_NONE, NULL},
    {COLL_allgather, MPICH_SIZE_TOTAL, NULL},
    {COLL_allgatherv, MPICH_SIZE_TOTAL, NULL},
    {COLL_alltoall, MPICH_SIZE_TOTAL, NULL},
    {COLL_alltoallv, MPICH_SIZE_NONE, NULL},
    {COLL_alltoallw, MPICH_SIZE_NONE, NULL},
    {COLL_reduce, MPICH_SIZE_AVG, "MPIDI_Reduce_intra_composition_gamma"},
    {COLL_allreduce, MPICH_SIZE_AVG, "MPIDI_Allreduce_intra_composition_beta"},
    {COLL_reduce_scatter, MPICH_SIZE_TOTAL, NULL},
    {COLL_reduce_scatter_block, MPICH_SIZE_TOTAL, NULL},
    {COLL_scan, MPICH_SIZE_OTHER, NULL},
    {COLL_exscan, MPICH_SIZE_OTHER, NULL},
};
#define MPICH_COLLECTIVES (int)(sizeof mpich_collectives / sizeof mpich_collectives[0])

/* The tests MPICH's algorithm needs to hold, as its built-in tree puts
 * them before it; where one fails, MPICH's built-in branch chooses. */
enum mpich_guard {
    GUARD_COMMUTATIVE = 1 << 0,  /* is_commutative=yes */
    GUARD_BUILTIN_OP = 1 << 1,   /* is_op_built_in=yes */
    GUARD_COUNT_POF2 = 1 << 2,   /* count at least the largest power of two <= p */
    GUARD_POW2 = 1 << 3,         /* comm_size=pow2 */
    GUARD_NOT_IN_PLACE = 1 << 4, /* is_sendbuf_inplace=no */
    GUARD_IN_PLACE = 1 << 5,     /* is_sendbuf_inplace=yes */
};

static const struct mpich_algorithm {
    enum coll_id coll;
    const char *name, *mpich;
    unsigned guards;
} mpich_algorithms[] = {
    {COLL_barrier, "dissemination", "MPIR_Barrier_intra_dissemination", 0},
    {COLL_bcast, "binomial", "MPIR_Bcast_intra_binomial", 0},
    {COLL_bcast, "scatter_rdb_allgather", "MPIR_Bcast_intra_scatter_recursive_doubling_allgather",
     GUARD_POW2},
    {COLL_bcast, "scatter_allgather", "MPIR_Bcast_intra_scatter_ring_allgather", 0},
    {COLL_gather, "binomial", "MPIR_Gather_intra_binomial", 0},
    {COLL_gatherv, "linear", "MPIR_Gatherv_allcomm_linear", 0},
    {COLL_scatter, "binomial", "MPIR_Scatter_intra_binomial", 0},
    {COLL_scatterv, "linear", "MPIR_Scatterv_allcomm_linear", 0},
    {COLL_allgather, "bruck", "MPIR_Allgather_intra_brucks", 0},
    {COLL_allgather, "recursive_doubling", "MPIR_Allgather_intra_recursive_doubling", GUARD_POW2},
    {COLL_allgather, "ring", "MPIR_Allgather_intra_ring", 0},
    {COLL_allgatherv, "bruck", "MPIR_Allgatherv_intra_brucks", 0},
    {COLL_allgatherv, "recursive_doubling", "MPIR_Allgatherv_intra_recursive_doubling", GUARD_POW2},
    {COLL_allgatherv, "ring", "MPIR_Allgatherv_intra_ring", 0},
    {COLL_alltoall, "bruck", "MPIR_Alltoall_intra_brucks", GUARD_NOT_IN_PLACE},
    {COLL_alltoall, "pairwise", "MPIR_Alltoall_intra_pairwise", GUARD_NOT_IN_PLACE},
    {COLL_alltoall, "scattered", "MPIR_Alltoall_intra_scattered", GUARD_NOT_IN_PLACE},
    {COLL_alltoall, "inplace", "MPIR_Alltoall_intra_pairwise_sendrecv_replace", GUARD_IN_PLACE},
    {COLL_alltoallv, "scattered", "MPIR_Alltoallv_intra_scattered", GUARD_NOT_IN_PLACE},
    {COLL_alltoallv, "inplace", "MPIR_Alltoallv_intra_pairwise_sendrecv_replace", GUARD_IN_PLACE},
    {COLL_alltoallw, "scattered", "MPIR_Alltoallw_intra_scattered", GUARD_NOT_IN_PLACE},
    {COLL_alltoallw, "inplace", "MPIR_Alltoallw_intra_pairwise_sendrecv_replace", GUARD_IN_PLACE},
    {COLL_reduce, "binomial", "MPIR_Reduce_intra_binomial", 0},
    {COLL_reduce, "rabenseifner", "MPIR_Reduce_intra_reduce_scatter_gather",
     GUARD_BUILTIN_OP | GUARD_COUNT_POF2},
    {COLL_allreduce, "recursive_doubling", "MPIR_Allreduce_intra_recursive_doubling", 0},
    {COLL_allreduce, "rabenseifner", "MPIR_Allreduce_intra_reduce_scatter_allgather",
     GUARD_BUILTIN_OP | GUARD_COUNT_POF2},
    {COLL_reduce_scatter, "recursive_halving", "MPIR_Reduce_scatter_intra_recursive_halving",
     GUARD_COMMUTATIVE},
    {COLL_reduce_scatter, "pairwise", "MPIR_Reduce_scatter_intra_pairwise", GUARD_COMMUTATIVE},
    {COLL_reduce_scatter, "recursive_doubling", "MPIR_Reduce_scatter_intra_recursive_doubling", 0},
    {COLL_reduce_scatter_block, "recursive_halving",
     "MPIR_Reduce_scatter_block_intra_recursive_halving", GUARD_COMMUTATIVE},
    {COLL_reduce_scatter_block, "pairwise", "MPIR_Reduce_scatter_block_intra_pairwise",
     GUARD_COMMUTATIVE},
    {COLL_reduce_scatter_block, "recursive_doubling",
     "MPIR_Reduce_scatter_block_intra_recursive_doubling", 0},
    {COLL_scan, "recursive_doubling", "MPIR_Scan_intra_recursive_doubling", 0},
    {COLL_exscan, "recursive_doubling", "MPIR_Exscan_intra_recursive_doubling", 0},
};
#define MPICH_ALGORITHMS (int)(sizeof mpich_algorithms / sizeof mpich_algorithms[0])

/* The guards as JSON tests: the test that lets the algorithm run and the
 * one that does not, in the order MPICH wants them (=any last). */
static const struct {
    unsigned guard;
    const char *pass, *fail;
    int fail_first;
} guard_tests[] = {
    {GUARD_IN_PLACE, "is_sendbuf_inplace=yes", "is_sendbuf_inplace=no", 0},
    {GUARD_NOT_IN_PLACE, "is_sendbuf_inplace=no", "is_sendbuf_inplace=yes", 0},
    {GUARD_COMMUTATIVE, "is_commutative=yes", "is_commutative=no", 0},
    {GUARD_BUILTIN_OP, "is_op_built_in=yes", "is_op_built_in=no", 0},
    {GUARD_POW2, "comm_size=pow2", "comm_size=any", 0},
    {GUARD_COUNT_POF2, "count=any", "count<pow2", 1},
};

enum mpich_level { LEVEL_GENERIC, LEVEL_DEVICE, LEVELS };

/* One collective being written at one level. */
struct mpich_writer {
    struct json_arena *arena;
    const struct mpich_collective *c;
    enum mpich_level level;
    struct json_object *builtin_intra; /* MPICH's own intracommunicator branch */
    struct export_notes *notes;
    unsigned char *said;               /* per algorithm: its note is written */
    int said_size;                     /* the size note is written */
    int np_lo, np_hi;                  /* the communicator sizes being written (0: and more) */
};

static struct json_object *leaf_object(struct mpich_writer *w, const char *key)
{
    struct json_object *leaf = json_object_new(w->arena), *o = json_object_new(w->arena);
    json_add(w->arena, o, key, leaf);
    return o;
}

static const struct mpich_algorithm *mpich_equivalent(const struct export_range *r)
{
    const struct algorithm *a = &registry_table[r->alg];
    for (int i = 0; i < MPICH_ALGORITHMS; i++)
        if (mpich_algorithms[i].coll == a->coll && !strcmp(mpich_algorithms[i].name, a->name))
            return &mpich_algorithms[i];
    return NULL;
}

/* inner where the guard's test holds, MPICH's branch where not. */
static struct json_object *guarded(struct mpich_writer *w, int g, struct json_object *inner)
{
    struct json_object *o = json_object_new(w->arena);
    if (guard_tests[g].fail_first)
        json_add(w->arena, o, guard_tests[g].fail, w->builtin_intra);
    json_add(w->arena, o, guard_tests[g].pass, inner);
    if (!guard_tests[g].fail_first)
        json_add(w->arena, o, guard_tests[g].fail, w->builtin_intra);
    return o;
}

/* What runs in one byte range: MPICH's equivalent algorithm (generic
 * level) or the whole-communicator composition (device level) behind its
 * guards, or MPICH's own branch. */
static struct json_object *range_leaf(struct mpich_writer *w, const struct export_range *r,
                                     uint64_t hi)
{
    const struct mpich_algorithm *e = mpich_equivalent(r);
    const struct algorithm *a = &registry_table[r->alg];
    char key[160];
    if (w->level == LEVEL_GENERIC)
        export_list(w->notes, w->c->coll, w->np_lo, w->np_hi, r->lo, hi, r,
                    e ? e->mpich : "MPICH's own choice");
    if (!e) {
        if (!registry_is_vendor(a) && w->level == LEVEL_GENERIC && !w->said[r->alg]++)
            export_note(w->notes, "%s @%s: MPICH 4.0 has no such algorithm; its own choice "
                        "runs there", coll_name(a->coll), a->name);
        return w->builtin_intra;
    }
    snprintf(key, sizeof key, "%s=%s", w->level == LEVEL_GENERIC ? "algorithm" : "composition",
             w->level == LEVEL_GENERIC ? e->mpich : w->c->whole_comm);
    struct json_object *o = leaf_object(w, key);
    for (int g = (int)(sizeof guard_tests / sizeof guard_tests[0]) - 1; g >= 0; g--)
        if (e->guards & guard_tests[g].guard)
            o = guarded(w, g, o);
    return o;
}

/* The byte ranges at one communicator size, as a chain of size tests. */
static struct json_object *size_chain(struct mpich_writer *w, const struct export_choices *ch)
{
    const char *test = w->c->size == MPICH_SIZE_AVG ? "avg_msg_size" : "total_msg_size";
    if (w->c->size == MPICH_SIZE_NONE || ch->n == 1)
        return range_leaf(w, &ch->range[0], 0);
    if (w->c->size == MPICH_SIZE_OTHER) {
        if (!w->said_size++ && w->level == LEVEL_GENERIC)
            export_note(w->notes, "%s: MPICH's size tests do not measure it in bytes; only a "
                        "choice that holds at every size can be said, and the table's does not",
                        coll_name(w->c->coll));
        return w->builtin_intra;
    }
    struct json_object *o = json_object_new(w->arena);
    char key[96];
    for (int i = 0; i < ch->n; i++) {
        if (i + 1 < ch->n)
            snprintf(key, sizeof key, "%s<%llu", test, (unsigned long long)ch->range[i + 1].lo);
        else
            snprintf(key, sizeof key, "%s=any", test);
        json_add(w->arena, o, key,
                 range_leaf(w, &ch->range[i], i + 1 < ch->n ? ch->range[i + 1].lo : 0));
    }
    return o;
}

static int same_choices(const struct export_choices *a, const struct export_choices *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->range[i].lo != b->range[i].lo || a->range[i].alg != b->range[i].alg ||
            a->range[i].params.seg != b->range[i].params.seg)
            return 0;
    return 1;
}

/* The intracommunicator branch: a chain of communicator sizes, neighbours
 * that choose alike merged, the last one for every larger size. */
static struct json_object *intra_branch(struct mpich_writer *w, const struct export_collective *e)
{
    struct json_object *o = json_object_new(w->arena);
    char key[64];
    w->np_lo = 1;
    for (int i = 0; i < e->n; i++) {
        if (i + 1 < e->n && same_choices(&e->choices[i], &e->choices[i + 1]))
            continue;
        w->np_hi = i + 1 < e->n ? e->choices[i].np : 0;
        if (i + 1 < e->n)
            snprintf(key, sizeof key, "comm_size<=%d", e->choices[i].np);
        else
            snprintf(key, sizeof key, "comm_size=any");
        json_add(w->arena, o, key, size_chain(w, &e->choices[i]));
        w->np_lo = e->choices[i].np + 1;
    }
    return o;
}

/* ---- MPICH's built-in trees ---- */

/* "comm_size<N" as "comm_size<=N-1": MPICH 4.0.2 reads a strict size test
 * inside a message-size branch as <=, and the built-in branches are put
 * inside the exported message-size tests. */
static void strict_sizes_inclusive(struct json_arena *arena, struct json_object *o)
{
    for (int i = 0; o && i < o->n; i++) {
        int n;
        char end, repl[48];
        if (sscanf(o->members[i].key, "comm_size<%d%c", &n, &end) == 1) {
            snprintf(repl, sizeof repl, "comm_size<=%d", n - 1);
            char *key = json_key(arena, repl);
            if (key)
                o->members[i].key = key;
        }
        strict_sizes_inclusive(arena, o->members[i].value);
    }
}

/* The MPI library this program runs on: the one defining MPI_Type_size,
 * a call collshim does not intercept. */
static const char *running_library(void)
{
    Dl_info info;
    void *symbol = dlsym(RTLD_DEFAULT, "MPI_Type_size");
    return symbol && dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : NULL;
}

static char *read_whole(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long size;
    if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
        !(buf = malloc((size_t)size + 1)) || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        snprintf(err, errlen, "%s: cannot read it: %s", path, strerror(errno ? errno : EIO));
        free(buf);
        buf = NULL;
    } else {
        buf[size] = '\0';
        *len = (size_t)size;
    }
    if (f)
        fclose(f);
    return buf;
}

/* The built-in trees held as strings in the library: the generic one names
 * algorithm=MPIR_, the device one composition=MPIDI_ (the shared-memory
 * one, MPIDI_POSIX, is left alone). */
static int builtin_trees(struct json_arena *arena, const char *library,
                         struct json_object *trees[LEVELS], char *err, size_t errlen)
{
    static const char start[] = "{\"collective=";
    size_t len = 0;
    char *bytes = read_whole(library, &len, err, errlen);
    trees[LEVEL_GENERIC] = trees[LEVEL_DEVICE] = NULL;
    for (char *p = bytes; p && (p = memmem(p, len - (size_t)(p - bytes), start, sizeof start - 1));
         p += strlen(p)) {
        int level = strstr(p, "algorithm=MPIR_") ? LEVEL_GENERIC
                    : strstr(p, "composition=MPIDI_") && !strstr(p, "MPIDI_POSIX") ? LEVEL_DEVICE
                                                                                     : -1;
        if (level >= 0 && !trees[level])
            trees[level] = json_parse(arena, p, err, errlen);
    }
    free(bytes);
    if (bytes && (!trees[LEVEL_GENERIC] || !trees[LEVEL_DEVICE]))
        snprintf(err, errlen, "%s: no built-in collective-selection trees of MPICH 4 in it",
                 library);
    if (!trees[LEVEL_GENERIC] || !trees[LEVEL_DEVICE])
        return -1;
    strict_sizes_inclusive(arena, trees[LEVEL_GENERIC]);
    strict_sizes_inclusive(arena, trees[LEVEL_DEVICE]);
    return 0;
}

/* ---- the files ---- */

static const struct mpich_collective *mpich_collective_of(const char *key)
{
    const char *name = strchr(key, '=');
    int coll = name ? coll_from_name(name + 1, strlen(name + 1)) : -1;
    for (int i = 0; coll >= 0 && i < MPICH_COLLECTIVES; i++)
        if ((int)mpich_collectives[i].coll == coll)
            return &mpich_collectives[i];
    return NULL;
}

/* The collective's object with its intracommunicator branch replaced. */
static struct json_object *replaced_collective(struct mpich_writer *w,
                                               const struct json_object *builtin,
                                               const struct export_collective *e)
{
    struct json_object *o = json_object_new(w->arena);
    w->builtin_intra = json_get(builtin, "comm_type=intra");
    if (!w->builtin_intra)
        return (struct json_object *)builtin;
    json_add(w->arena, o, "comm_type=intra", intra_branch(w, e));
    for (int i = 0; i < builtin->n; i++)
        if (strcmp(builtin->members[i].key, "comm_type=intra"))
            json_add(w->arena, o, builtin->members[i].key, builtin->members[i].value);
    return o;
}

/* One level's tree: the built-in one, the covered collectives replaced. */
static struct json_object *level_tree(struct json_arena *arena, const struct tune_table *table,
                                      const struct export_options *o, enum mpich_level level,
                                      const struct json_object *builtin,
                                      struct export_notes *notes, unsigned char *said,
                                      char *err, size_t errlen)
{
    struct json_object *tree = json_object_new(arena);
    for (int i = 0; i < builtin->n; i++) {
        const struct mpich_collective *c = mpich_collective_of(builtin->members[i].key);
        struct json_object *value = builtin->members[i].value;
        struct export_collective e;
        int covered = c && export_has_rules(table, c->coll) &&
                      (level == LEVEL_GENERIC || c->whole_comm);
        if (covered && export_evaluate(table, c->coll, o, &e)) {
            snprintf(err, errlen, "%s: more byte ranges than %d at one size", coll_name(c->coll),
                     EXPORT_MAX_RANGES);
            return NULL;
        }
        if (covered) {
            struct mpich_writer w = {arena, c, level, NULL, notes, said, 0, 1, 0};
            value = replaced_collective(&w, value, &e);
            export_collective_free(&e);
        }
        json_add(arena, tree, builtin->members[i].key, value);
    }
    return tree;
}

void export_mpich_device_path(const char *path, char *out, size_t len)
{
    size_t n = strlen(path);
    if (n > 5 && !strcmp(path + n - 5, ".json"))
        snprintf(out, len, "%.*s-ch4.json", (int)(n - 5), path);
    else
        snprintf(out, len, "%s-ch4", path);
}

static int write_tree(const char *path, const struct json_object *tree, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    json_print(f, tree, 0);
    fputc('\n', f);
    if (fclose(f)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int export_mpich(const struct tune_table *table, const struct export_options *o,
                 const char *path, struct export_notes *notes, char *err, size_t errlen)
{
    struct json_arena arena = {0};
    struct json_object *builtin[LEVELS], *tree[LEVELS] = {NULL, NULL};
    const char *library = o->vendor_library ? o->vendor_library : running_library();
    unsigned char said[COLLSHIM_MAX_ALGORITHMS] = {0};
    char paths[LEVELS][4096];
    int rc = -1;
    snprintf(paths[LEVEL_GENERIC], sizeof paths[0], "%s", path);
    export_mpich_device_path(path, paths[LEVEL_DEVICE], sizeof paths[0]);
    if (!library)
        snprintf(err, errlen, "cannot tell which MPICH library to read: name it (--mpich-library)");
    else if (builtin_trees(&arena, library, builtin, err, errlen) == 0) {
        rc = 0;
        for (int l = 0; l < LEVELS && rc == 0; l++) {
            tree[l] = level_tree(&arena, table, o, (enum mpich_level)l, builtin[l], notes, said,
                                 err, errlen);
            rc = !tree[l] || arena.failed ? -1 : write_tree(paths[l], tree[l], err, errlen);
        }
        if (arena.failed && rc == 0)
            snprintf(err, errlen, "out of memory"), rc = -1;
    }
    json_arena_free(&arena);
    return rc;
}
