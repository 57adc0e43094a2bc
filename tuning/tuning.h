/* tuning.h - the tuning table: grammar, parser and selector.
 *
 *   # comment
 *   allreduce  np=2-7   0-2k      @recursive_doubling
 *   allreduce           1m-inf    @ring   seg=256k
 *
 * A rule is a collective, optional np=LO[-HI] (inclusive; HI may be inf),
 * an optional byte range LO-HI (half-open [LO,HI), k/m/g = 2^10/2^20/2^30,
 * HI may be inf), @algorithm, and parameters seg=BYTES, outstanding=N.
 * Rules are separated by newlines or ';'. First match wins; a rule whose
 * algorithm cannot run this call is skipped. */
#ifndef COLLSHIM_TUNING_H
#define COLLSHIM_TUNING_H

#include "../algorithms/coll.h"

#define TUNE_NP_INF 0x7fffffff
#define TUNE_BYTES_INF UINT64_MAX

struct tune_rule {
    enum coll_id coll;
    int np_lo, np_hi;           /* inclusive */
    uint64_t bytes_lo, bytes_hi; /* [lo, hi) */
    int alg;                    /* registry index */
    struct coll_params params;
    int line;
};

struct tune_table {
    char source[256];           /* "COLLSHIM_TUNE", a path, "built-in" */
    struct tune_rule *rules;
    int n, cap;
};

/* Parse text into t (which it initialises). On error returns -1, leaves t
 * empty and writes "source:line:column: what was expected" into err. */
int tune_parse(const char *text, const char *source, struct tune_table *t,
               char *err, size_t errlen);
/* Read and parse a file; errors name the path. */
int tune_parse_file(const char *path, struct tune_table *t, char *err,
                    size_t errlen);
void tune_free(struct tune_table *t);

struct tune_choice {
    int alg;                    /* registry index */
    struct coll_params params;
    const struct tune_rule *rule; /* NULL: no rule matched, vendor */
    int table;                  /* index of the table that matched, or -1 */
};

/* The first rule of tables[0], then tables[1], ... that matches the key
 * and whose algorithm can run; the vendor if none does. */
struct tune_choice tune_select(const struct tune_table *const *tables,
                               int ntables, const struct coll_key *key);
/* The walk tune_select makes, one line per matching rule, as text: which
 * rule matched, and why it was skipped or taken. */
void tune_explain(const struct tune_table *const *tables, int ntables,
                  const struct coll_key *key, char *buf, size_t len);

/* Format bytes the way the grammar reads them (1024 -> "1k"). */
void tune_format_bytes(uint64_t bytes, char *buf, size_t len);
/* Write the table back in the grammar, one rule a line. */
void tune_format_rule(const struct tune_rule *r, char *buf, size_t len);

/* The built-in default table (tuning/defaults.c), in the same grammar. */
extern const char tune_builtin_table[];

#endif
