/* export.h - a collshim table in another MPI library's own terms
 * (doc/export.md): what the table chooses, per collective, communicator
 * size and byte range, and the writers of Open MPI's coll/tuned rules file
 * (export_openmpi.c) and MPICH's collective-selection JSON (export_mpich.c).
 *
 * A table is read as collshim reads it (tuning/), and asked, for every
 * communicator size from 1 up to one past the largest its rules name, which
 * algorithm it chooses at each byte bound of its rules: the answer is what
 * collshim would run, restrictions included, on a communicator of the given
 * shape (ranks per node) with a commutative predefined op on 4-byte
 * elements, not in place. What no rule of the table covers is the vendor's
 * own choice. */
#ifndef COLLSHIM_EXPORT_H
#define COLLSHIM_EXPORT_H

#include "tuning/tuning.h"

#include <stdio.h>

#define EXPORT_MAX_RANGES 128
#define EXPORT_MAX_NP 4096

/* From byte lo on (to the next range's lo), the table chooses alg. */
struct export_range {
    uint64_t lo;
    int alg;                  /* registry index; the vendor's where no rule covers */
    struct coll_params params;
};

/* What the table chooses for one collective at one communicator size. */
struct export_choices {
    int np;
    int n;
    struct export_range range[EXPORT_MAX_RANGES];
};

/* One collective over the communicator sizes 1..n; choices[n - 1] stands
 * for every size from n on. */
struct export_collective {
    enum coll_id coll;
    int n;
    struct export_choices *choices;
};

struct export_options {
    int ppn;                  /* ranks per node of the communicators (1) */
    const char *vendor_library; /* MPICH: the library whose built-in trees to
                                   keep (NULL: the one this program runs on) */
};

/* What the table chooses for coll (calloc'd choices; export_collective_free). */
int export_evaluate(const struct tune_table *table, enum coll_id coll,
                    const struct export_options *o, struct export_collective *out);
void export_collective_free(struct export_collective *c);

/* 1 where the table has a rule for coll's blocking intracommunicator calls. */
int export_has_rules(const struct tune_table *table, enum coll_id coll);

/* What a writer could not say, one line each; and, where list is not
 * NULL, every range it wrote: "COLL NP_LO-NP_HI LO-HI ALGORITHM -> VENDOR'S". */
struct export_notes {
    FILE *out, *list;
    int count;
};
void export_note(struct export_notes *notes, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* One line of the list: ranks np_lo..np_hi (0: and more), bytes lo..hi
 * (0: and more), collshim's algorithm and what the vendor's file names. */
void export_list(struct export_notes *notes, enum coll_id coll, int np_lo, int np_hi,
                 uint64_t lo, uint64_t hi, const struct export_range *r, const char *vendor);

/* The writers: the table as the vendor's file(s) at path; 0 on success,
 * else a message in err. */
int export_openmpi(const struct tune_table *table, const struct export_options *o,
                   const char *path, struct export_notes *notes, char *err, size_t errlen);
int export_mpich(const struct tune_table *table, const struct export_options *o,
                 const char *path, struct export_notes *notes, char *err, size_t errlen);
/* The device-level file export_mpich writes beside path: -ch4 before its
 * .json (or after it, without one). */
void export_mpich_device_path(const char *path, char *out, size_t len);

#endif
