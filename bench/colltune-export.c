/* colltune-export.c - a collshim table (colltune's, a learned one, any in
 * the grammar of doc/tuning.md) written in the MPI library's own terms, so
 * that the library alone, without collshim preloaded, runs the table's
 * choices where it has the same algorithms (doc/export.md).
 *
 *   colltune-export [--format openmpi|mpich] [--ppn K] [--mpich-library PATH]
 *                   TABLE OUTPUT
 *
 * Needs no launcher and starts no MPI: it reads TABLE, asks it what it
 * chooses, writes OUTPUT (MPICH: OUTPUT and its device-level companion),
 * and says, one line each, what the library cannot be told. */
#include "bench/export.h"
#include "collshim.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: colltune-export [options] TABLE OUTPUT\n"
    "  -f, --format F         openmpi (coll/tuned dynamic rules file) or mpich (collective-\n"
    "                         selection JSON; also writes OUTPUT-ch4.json); default: the MPI\n"
    "                         this build is for\n"
    "  -p, --ppn K            ranks per node of the jobs the file is for (default 1): a\n"
    "                         table's node-aware rules and restrictions read it\n"
    "  -L, --mpich-library P  the MPICH library whose built-in selection to start from\n"
    "                         (default: the one this program runs on)\n"
    "  -l, --list             print every range written: collshim's algorithm and the\n"
    "                         library's\n"
    "  -h, --help\n"
    "TABLE is a collshim tuning table (colltune -o, COLLSHIM_LEARN_OUT, doc/tuning.md).\n";

struct options {
    const char *format, *table, *output, *library;
    int ppn, list;
};

static int parse(int argc, char **argv, struct options *o)
{
    static const struct option longs[] = {{"format", 1, 0, 'f'}, {"ppn", 1, 0, 'p'},
                                          {"mpich-library", 1, 0, 'L'}, {"list", 0, 0, 'l'},
                                          {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    int ch;
    *o = (struct options){collshim_flavour(), NULL, NULL, NULL, 1, 0};
    while ((ch = getopt_long(argc, argv, "f:p:L:lh", longs, NULL)) != -1) {
        switch (ch) {
        case 'f': o->format = optarg; break;
        case 'p': o->ppn = atoi(optarg); break;
        case 'L': o->library = optarg; break;
        case 'l': o->list = 1; break;
        case 'h': fputs(usage, stdout); exit(0);
        default: return -1;
        }
    }
    if (optind + 2 != argc) {
        fprintf(stderr, "colltune-export: expected a table and an output path\n");
        return -1;
    }
    o->table = argv[optind];
    o->output = argv[optind + 1];
    if (o->ppn < 1 || o->ppn > EXPORT_MAX_NP) {
        fprintf(stderr, "colltune-export: --ppn: expected 1 to %d ranks per node\n", EXPORT_MAX_NP);
        return -1;
    }
    if (strcmp(o->format, "openmpi") && strcmp(o->format, "mpich")) {
        fprintf(stderr, "colltune-export: no file format for %s: the formats are openmpi and "
                        "mpich\n", o->format);
        return -1;
    }
    return 0;
}

/* How a user hands the written file(s) to the library. */
static void say_use(const struct options *o, const char *path)
{
    char device[PATH_MAX + 8];
    if (!strcmp(o->format, "openmpi")) {
        printf("use it: mpirun --mca coll_tuned_use_dynamic_rules 1 "
               "--mca coll_tuned_dynamic_rules_filename %s ...\n", path);
        return;
    }
    export_mpich_device_path(path, device, sizeof device);
    printf("use it: mpiexec -genv MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE %s "
           "-genv MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE %s ...\n", path, device);
}

int main(int argc, char **argv)
{
    struct options o;
    struct tune_table table;
    char *said = NULL, err[4096], path[PATH_MAX];
    size_t said_len = 0;
    FILE *said_file = open_memstream(&said, &said_len);
    struct export_notes notes = {said_file ? said_file : stdout, NULL, 0};
    if (parse(argc, argv, &o)) {
        fputs(usage, stderr);
        return 2;
    }
    if (tune_parse_file(o.table, &table, err, sizeof err)) {
        fprintf(stderr, "colltune-export: %s\n", err);
        return 1;
    }
    /* MPICH reads the files by absolute path and crashes on one it cannot
     * open: the use line names the written file absolutely. */
    struct export_options eo = {o.ppn, o.library};
    if (o.list) {
        notes.list = stdout;
        printf("what the file says, range by range (collective, ranks, bytes, collshim's "
               "choice -> the library's):\n");
    }
    int rc = !strcmp(o.format, "openmpi")
                 ? export_openmpi(&table, &eo, o.output, &notes, err, sizeof err)
                 : export_mpich(&table, &eo, o.output, &notes, err, sizeof err);
    tune_free(&table);
    if (said_file)
        fclose(said_file);
    if (rc) {
        fprintf(stderr, "colltune-export: %s\n", err);
        free(said);
        return 1;
    }
    printf("colltune-export: %s for %s, %d rank%s per node; what it cannot say:\n%s", o.table,
           o.format, o.ppn, o.ppn == 1 ? "" : "s", said ? said : "");
    free(said);
    if (notes.count == 0)
        printf("  (nothing: every choice is said)\n");
    say_use(&o, realpath(o.output, path) ? path : o.output);
    return 0;
}
