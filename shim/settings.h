/* settings.h - every COLLSHIM_* environment variable: one table
 * (settings.c) with its name, value, default, description and whether it
 * is a testing aid, read once when the shim sets up (after MPI_Init) into
 * `settings`. The README's table of settings and doc/testing.md's of
 * testing aids are printed from it (tests/settings.sh checks them). */
#ifndef COLLSHIM_SETTINGS_H
#define COLLSHIM_SETTINGS_H

#include <stddef.h>

struct settings {
    /* flags: 1 when the variable is set, not empty and not "0" */
    int disable, verbose, explain, list, lazy_contexts, progress_thread, learn, schedule_blocking,
        test_no_vendor_init;
    /* texts: NULL when unset or empty (report: also when "0") */
    const char *tune, *tuning_file, *report, *learn_charge, *learn_out, *nodes, *cores,
        *model, *machine, *test_delay, *test_nomem, *test_tag_ids;
};
extern struct settings settings;

enum setting_kind {
    SETTING_FLAG,        /* an int of struct settings */
    SETTING_TEXT,        /* a const char * of it */
    SETTING_TEXT_OR_OFF, /* a text, off when "0" */
};

struct setting {
    const char *name;
    enum setting_kind kind;
    size_t offset;           /* of its value in struct settings */
    const char *value;       /* what it takes */
    const char *fallback;    /* what holds when it is unset */
    const char *description; /* one line, for the tables of the docs */
    int testing;             /* a testing aid, not for production runs */
};
extern const struct setting settings_table[];
extern const int settings_count;

/* Read the environment into `settings`. */
void settings_read(void);

#endif
