/* settings.c - the table of every COLLSHIM_* variable (settings.h). */
#include "shim/settings.h"

#include <stdlib.h>
#include <string.h>

struct settings settings;

#define FLAG(field) SETTING_FLAG, offsetof(struct settings, field)
#define TEXT(field) SETTING_TEXT, offsetof(struct settings, field)
#define TEXT_OR_OFF(field) SETTING_TEXT_OR_OFF, offsetof(struct settings, field)

const struct setting settings_table[] = {
    {"COLLSHIM_DISABLE", FLAG(disable), "1", "collshim runs the collectives",
     "forward every collective to the MPI library, untouched", 0},
    {"COLLSHIM_TUNE", TEXT(tune), "rules", "none",
     "tuning rules tried first ([doc/tuning.md](doc/tuning.md); `;` separates rules)", 0},
    {"COLLSHIM_TUNING_FILE", TEXT(tuning_file), "path", "none",
     "a table file (`colltune`, learning), tried after `COLLSHIM_TUNE`, before the built-in "
     "table", 0},
    {"COLLSHIM_MODEL", TEXT(model), "`0`, `1` or `auto`", "`auto`",
     "the machine model chooses where no table rule does: `auto` for calls across nodes "
     "where no node has more ranks than cores, `1` for all calls across nodes, `0` never "
     "([doc/model.md](doc/model.md))", 0},
    {"COLLSHIM_MACHINE", TEXT(machine), "path", "measured in `MPI_Init`",
     "read the machine model from this file; if it cannot be read, measure it and rank 0 "
     "writes it there", 0},
    {"COLLSHIM_LEARN", FLAG(learn), "1", "off",
     "learn the fastest algorithm on the program's own blocking calls "
     "([doc/learning.md](doc/learning.md))", 0},
    {"COLLSHIM_LEARN_OUT", TEXT(learn_out), "path", "none",
     "with `COLLSHIM_LEARN=1`: rank 0 writes the learned table there at `MPI_Finalize`", 0},
    {"COLLSHIM_LEARN_CHARGE", TEXT(learn_charge), "`own` or `last_entry`", "`own`",
     "with `COLLSHIM_LEARN=1`: a measured call costs the slowest rank's own time, or last "
     "entry to last exit on a common clock", 0},
    {"COLLSHIM_VERBOSE", FLAG(verbose), "1", "off",
     "rank 0 says, once each, which algorithm a (size, collective) ran and why a "
     "communicator goes to the vendor", 0},
    {"COLLSHIM_EXPLAIN", FLAG(explain), "1", "off",
     "`COLLSHIM_VERBOSE`, and under each line the rules of the tables that matched, each "
     "skipped (and why) or taken", 0},
    {"COLLSHIM_LIST", FLAG(list), "1", "off",
     "rank 0 lists every algorithm with its restrictions and cost, then the job goes on", 0},
    {"COLLSHIM_REPORT", TEXT_OR_OFF(report), "1, a directory or a file", "off",
     "at `MPI_Finalize`, rank 0 writes what ran and how long, merged over the ranks (1: "
     "`collshim-report-<date>-<pid>.txt` here)", 0},
    {"COLLSHIM_PROGRESS_THREAD", FLAG(progress_thread), "1", "off",
     "a thread advances nonblocking and persistent collectives (needs `MPI_THREAD_MULTIPLE`)",
     0},
    {"COLLSHIM_LAZY_CONTEXTS", FLAG(lazy_contexts), "1", "off",
     "a communicator gets its context at its first blocking collective, not at its creation",
     0},
    {"COLLSHIM_NODES", TEXT(nodes), "`block:K`, `rr:K` or `0,0,1,...`", "the machine's",
     "the node of each world rank, instead of the machine's ([node-aware.md](node-aware.md))",
     1},
    {"COLLSHIM_CORES", TEXT(cores), "N", "the CPUs the node's ranks may run on",
     "the cores of each node, where the machine's CPU affinity would say otherwise: the "
     "selection's `ranks_per_core` ([doc/tuning.md](doc/tuning.md))", 0},
    {"COLLSHIM_SCHEDULE_BLOCKING", FLAG(schedule_blocking), "1", "off",
     "blocking collectives run through the schedule engine, as a nonblocking call and its "
     "wait would", 1},
    {"COLLSHIM_TEST_DELAY", TEXT(test_delay), "`coll:alg:us[@runs],...`", "none",
     "each blocking run of that algorithm (`*`: all) first busy-waits `us` microseconds "
     "(after `runs` runs)", 1},
    {"COLLSHIM_TEST_NO_VENDOR_INIT", FLAG(test_no_vendor_init), "1", "off",
     "act as if the MPI library had no persistent collectives (as SimGrid SMPI 3.32)", 1},
    {"COLLSHIM_TEST_NOMEM", TEXT(test_nomem), "`ctx@RANK` or `class@RANK`", "none",
     "learning's allocations of a communicator's (a class's) state fail on that world rank",
     1},
    {"COLLSHIM_TEST_TAG_IDS", TEXT(test_tag_ids), "N", "as many as the tag bound allows",
     "only N communicators may hold a context at once (to reach the end of them cheaply)", 1},
};
const int settings_count = (int)(sizeof settings_table / sizeof settings_table[0]);

static void read_one(const struct setting *s)
{
    const char *v = getenv(s->name);
    int set = v && *v, off = set && !strcmp(v, "0");
    char *field = (char *)&settings + s->offset;
    if (s->kind == SETTING_FLAG)
        *(int *)field = set && !off;
    else
        *(const char **)field = set && !(off && s->kind == SETTING_TEXT_OR_OFF) ? v : NULL;
}

void settings_read(void)
{
    for (int i = 0; i < settings_count; i++)
        read_one(&settings_table[i]);
}
