/* collmodel - the machine model's predictions, without running anything:
 * for a model file (COLLSHIM_MACHINE's format, as colltune --machine or
 * COLLSHIM_MACHINE writes it), a shape (nodes x ranks per node) and
 * selection bytes, every modelled algorithm's predicted time and the one
 * the model would choose (doc/model.md, "Predicting without a run").
 * bench/model-summary --set replays a sweep's choices through it. */
#include "algorithms/model.h"
#include "algorithms/registry.h"
#include "select/select.h"
#include "bench/util.h"
#include "shim/shim.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLLS 32

struct options {
    const char *machine, *out;
    int nodes, ppn;
    long long lo, hi;
    enum coll_id colls[MAX_COLLS];
    int ncolls;
};

static const char *const default_colls =
    "allreduce,bcast,reduce,allgather,reduce_scatter_block,alltoall,barrier";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: collmodel --machine FILE --nodes N [options]\n"
            "  -M, --machine FILE  the machine model (COLLSHIM_MACHINE's format)\n"
            "  -N, --nodes N       nodes the communicator spans (N >= 2)\n"
            "  -k, --ppn K         ranks per node, in blocks (default 1)\n"
            "  -c, --colls LIST    collectives (default %s)\n"
            "  -m, --sizes LO:HI   selection bytes, doubling (default 4:1m; barrier: 0)\n"
            "  -o, --out FILE      CSV here (default: stdout)\n"
            "Prints coll,np,nodes,ppn,key_bytes,alg,model_us,pick: every modelled\n"
            "algorithm that can run the call, pick 1 on the model's choice.\n"
            "Reductions are of 4-byte elements, as collbench's.\n",
            default_colls);
}

static int parse_colls(struct options *o, const char *list)
{
    o->ncolls = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        int coll = coll_from_name(p, len);
        if (coll < 0 || o->ncolls == MAX_COLLS) {
            fprintf(stderr, "collmodel: %.*s is not a collective\n", (int)len, p);
            return -1;
        }
        o->colls[o->ncolls++] = (enum coll_id)coll;
        p += len + (p[len] == ',');
    }
    return o->ncolls ? 0 : -1;
}

static int parse_sizes(struct options *o, const char *range)
{
    char lo[32];
    const char *colon = strchr(range, ':');
    size_t len = colon ? (size_t)(colon - range) : strlen(range);
    if (len >= sizeof lo)
        return -1;
    memcpy(lo, range, len);
    lo[len] = '\0';
    o->lo = bench_parse_bytes(lo);
    o->hi = colon ? bench_parse_bytes(colon + 1) : o->lo;
    return o->lo > 0 && o->hi >= o->lo ? 0 : -1;
}

static int parse_options(struct options *o, int argc, char **argv)
{
    static const struct option longs[] = {
        {"machine", 1, 0, 'M'}, {"nodes", 1, 0, 'N'}, {"ppn", 1, 0, 'k'}, {"colls", 1, 0, 'c'},
        {"sizes", 1, 0, 'm'},   {"out", 1, 0, 'o'},   {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    int opt, bad = parse_colls(o, default_colls);
    while (!bad && (opt = getopt_long(argc, argv, "M:N:k:c:m:o:h", longs, NULL)) != -1) {
        switch (opt) {
        case 'M': o->machine = optarg; break;
        case 'N': o->nodes = atoi(optarg); break;
        case 'k': o->ppn = atoi(optarg); break;
        case 'c': bad = parse_colls(o, optarg); break;
        case 'm': bad = parse_sizes(o, optarg); break;
        case 'o': o->out = optarg; break;
        case 'h': usage(stdout); exit(0);
        default: bad = 1;
        }
    }
    if (!bad && (!o->machine || o->nodes < 2 || o->ppn < 1 || optind < argc))
        bad = 1;
    if (bad)
        usage(stderr);
    return bad ? -1 : 0;
}

/* The key and the cost call of coll at bytes on the options' shape. */
static struct coll_key key_of(const struct options *o, enum coll_id coll, long long bytes)
{
    struct coll_key key = {.coll = coll, .np = o->nodes * o->ppn, .bytes = (uint64_t)bytes,
                           .count = coll_is(coll, COLL_REDUCES) ? bytes / 4 : bytes,
                           .commutative = 1, .predefined_op = 1};
    key.shape = node_shape_make(o->nodes, o->ppn, 1, 1);
    key.shape.ranks_per_core = 1;
    return key;
}

/* One row per algorithm that can run coll at bytes, the pick marked:
 * the selection's own model costs and choice (select/model.c), on the
 * model select_model_set was handed. A windowed algorithm is named with
 * the window it is priced at, as collbench names such an arm. */
static void predict(FILE *f, const struct options *o, enum coll_id coll, long long bytes)
{
    struct coll_key key = key_of(o, coll, bytes);
    struct tune_choice pick = {-1, {0, 0}, NULL, -1};
    select_model_choose(&key, &pick);
    for (int i = 0; i < registry_count; i++) {
        int window;
        double cost = select_model_cost(i, &key, &window);
        char named[32];
        if (cost >= 0)
            fprintf(f, "%s,%d,%d,%d,%lld,%s%s,%.3f,%d\n", coll_name(coll), key.np, o->nodes,
                    o->ppn, bytes, registry_table[i].name,
                    select_window_name(window, named, sizeof named), cost * 1e6, i == pick.alg);
    }
}

int main(int argc, char **argv)
{
    struct options o = {.ppn = 1, .lo = 4, .hi = 1 << 20};
    struct machine_model m = {0};
    char why[128] = "";
    if (parse_options(&o, argc, argv))
        return 2;
    if (machine_file_read(o.machine, &m, why, sizeof why)) {
        fprintf(stderr, "collmodel: %s: %s\n", o.machine, why);
        return 1;
    }
    m.valid = 1;
    m.ranks_per_core = 1;
    select_tables_load(NULL, NULL, 0); /* the built-in rules run a composed algorithm's steps */
    select_model_set(&m, 1);
    FILE *f = o.out ? fopen(o.out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "collmodel: cannot write %s\n", o.out);
        return 1;
    }
    fprintf(f, "coll,np,nodes,ppn,key_bytes,alg,model_us,pick\n");
    for (int i = 0; i < o.ncolls; i++) {
        if (o.colls[i] == COLL_barrier) {
            predict(f, &o, COLL_barrier, 0);
            continue;
        }
        for (long long bytes = o.lo; bytes <= o.hi; bytes *= 2)
            predict(f, &o, o.colls[i], bytes);
    }
    return f != stdout && fclose(f) ? 1 : 0;
}
