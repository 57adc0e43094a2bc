/* tuning.h - the tuning table: grammar, parser and selector.
 *
 *   # comment
 *   allreduce  np=2-7   0-2k      @recursive_doubling
 *   allreduce           1m-inf    @ring   seg=256k
 *
 * A rule is a collective, optional np=LO[-HI] (inclusive; HI may be inf),
 * optional nodes=LO[-HI] and ppn=LO[-HI] (nodes of the communicator, ranks
 * on its most populated node; inclusive, like np=), optional
 * ranks_per_core=LO[-HI] (the job's ranks per core on its most loaded node,
 * rounded up: 2-inf names oversubscribed jobs),
 * an optional byte range LO-HI (half-open [LO,HI), k/m/g = 2^10/2^20/2^30,
 * HI may be inf), @algorithm, and parameters seg=BYTES, outstanding=N.
 * Rules are separated by newlines or ';'. First match wins; a rule whose
 * algorithm cannot run this call is skipped. A rule naming the nonblocking
 * collective (iallreduce) applies to MPI_Iallreduce and MPI_Allreduce_init
 * only; for those, each table's i-rules are tried before its blocking
 * rules, so `allreduce ...` rules also choose for nonblocking calls that
 * no i-rule of the table covers.
 *
 * Intercommunicators: a rule with the word `inter` (or remote=LO[-HI])
 * applies to intercommunicator calls only, and a rule without it to
 * intracommunicator calls only. Both groups of an intercommunicator must
 * choose the same algorithm, so their key is symmetric: np= matches the
 * size of the smaller group, remote= the size of the larger one. */
#ifndef COLLSHIM_TUNING_H
#define COLLSHIM_TUNING_H

#include "algorithms/coll.h"

#define TUNE_NP_INF 0x7fffffff
#define TUNE_BYTES_INF UINT64_MAX

struct tune_rule {
    enum coll_id coll;
    int nonblocking;            /* named ixxx: nonblocking and persistent calls only */
    int np_lo, np_hi;           /* inclusive */
    int nodes_lo, nodes_hi;     /* inclusive; 0-TUNE_NP_INF when not given */
    int ppn_lo, ppn_hi;         /* inclusive; 0-TUNE_NP_INF when not given */
    int ranks_per_core_lo, ranks_per_core_hi; /* inclusive; 0-TUNE_NP_INF when not given */
    int inter;                  /* intercommunicator calls only (else intra only) */
    int remote_lo, remote_hi;   /* inter: the larger group's size, inclusive */
    uint64_t bytes_lo, bytes_hi; /* [lo, hi) */
    int alg;                    /* registry index */
    struct coll_params params;
    int line;
    int next_same_coll;         /* index + 1 of the table's next rule of coll; 0: none */
};

struct tune_table {
    char source[256];           /* "COLLSHIM_TUNE", a path, "built-in" */
    struct tune_rule *rules;
    int n, cap;
    /* Each collective's rules in table order, as a chain through
     * next_same_coll (index + 1; 0: none), so that a call walks its own
     * collective's rules only: the built-in table has some 250 rules, and
     * a walk over all of them cost an 8-byte allreduce 0.07 us
     * (results/learning.md, "Dispatch cost once settled"). */
    int first_of_coll[COLL_COUNT], last_of_coll[COLL_COUNT];
};

/* Parse text into t (which it initialises). On error returns -1, leaves t
 * empty and writes "source:line:column: what was expected" into err. */
int tune_parse(const char *text, const char *source, struct tune_table *t,
               char *err, size_t errlen);
/* tune_parse of len bytes with text[len] == '\0'; a NUL byte inside is an
 * error at its line and column. */
int tune_parse_text(const char *text, size_t len, const char *source,
                    struct tune_table *t, char *err, size_t errlen);

/* The largest tuning file read (README: "Tuning tables"). */
#define TUNE_FILE_MAX_BYTES 1048576
/* Read a tuning file into a new NUL-terminated buffer (*len bytes before
 * the NUL; free it). Only a regular file of at most TUNE_FILE_MAX_BYTES;
 * anything else (directory, FIFO, device, socket, larger), a missing or
 * unreadable file: -1 and a message naming the path and why. Never blocks. */
int tune_read_file(const char *path, char **text, size_t *len, char *err,
                   size_t errlen);
/* Read and parse a file; errors name the path. */
int tune_parse_file(const char *path, struct tune_table *t, char *err,
                    size_t errlen);

/* Quote input in a message: at most max bytes of p[0..n), printable ASCII
 * as is, a backslash doubled, any other byte as \xHH, "..." if cut; always
 * NUL-terminated within outlen. Returns the length written. */
size_t tune_escape(const char *p, size_t n, size_t max, char *out, size_t outlen);

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

/* The built-in tables (tuning/defaults.c), in the same grammar: the rules
 * measured to beat the machine model, tried before it, and the default
 * table, tried after it. */
extern const char tune_builtin_measured[];
extern const char tune_builtin_table[];

#endif
