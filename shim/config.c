/* config.c - at set-up: the settings read (settings.c) and handed to the
 * selection (the tables, select/tables.c), to learning and to the testing
 * aids; COLLSHIM_LIST's listing. */
#include "shim/shim.h"
#include "select/learn.h"
#include "algorithms/registry.h"

#include <stdio.h>

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

/* What learning reaches the MPI library and the clock through. */
static struct learn_io learn_io_of_vendor(void)
{
    struct learn_io io = {.allreduce = vendor.allreduce, .gather = vendor.gather,
                          .gatherv = vendor.gatherv,
                          .get_library_version = vendor.get_library_version,
                          .clock_offset = clock_offset_of};
    return io;
}

void config_load(int world_rank)
{
    static struct learn_io io;
    settings_read();
    select_tables_load(settings.tune, settings.tuning_file, world_rank);
    select_configure(&(struct select_settings){.verbose = settings.verbose || settings.explain,
                                              .explain = settings.explain});
    io = learn_io_of_vendor();
    learn_configure(&(struct learn_settings){.enabled = settings.learn,
                                             .out = settings.learn_out,
                                             .charge = settings.learn_charge,
                                             .test_nomem = settings.test_nomem,
                                             .verbose = settings.verbose},
                    &io, world_rank);
    test_delay_configure(settings.test_delay, world_rank);
    if (settings.list && world_rank == 0)
        print_listing();
}

void config_free(void) { select_tables_free(); }
