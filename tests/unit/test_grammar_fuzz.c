/* test_grammar_fuzz.c - the parser fed many random and mutated tables
 * (fixed seed, so a failure repeats): valid tables with bytes flipped,
 * pieces cut, spliced or truncated, huge numbers, NUL and control bytes,
 * long lines. Whatever the input, the parser must return either a table
 * whose every rule is well formed and reads back the same, or an error whose
 * line and column lie inside the input, in printable text that fits the
 * caller's buffer. Each input sits in a buffer of exactly its size, so that
 * valgrind or ASan see any read past it. */
#include "tests/unit/unit.h"
#include "tuning/tuning.h"
#include "algorithms/registry.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_SEED 0x5eed2024u
#define FUZZ_INPUTS 20000

static uint64_t rng_state;

static uint64_t rng(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static size_t below(size_t n) { return n ? (size_t)(rng() % n) : 0; }

static const char *const seeds[] = {
    "# header\nallreduce  np=2-7   0-2k      @recursive_doubling\n"
    "allreduce  np=2-7   2k-inf    @rabenseifner\nallreduce           1m-inf    @ring   seg=256k\n"
    "bcast                         @binomial\n",
    "allreduce @vendor 0-1k; bcast np=4 @vendor;;  ;reduce @vendor outstanding=8",
    "gatherv np=9-inf @linear_throttled outstanding=16\r\nscatter 0-1g @binomial # c\n",
    "alltoall np=1 1-4294967296 @pairwise\nbarrier @dissemination\nbcast 64k-inf @pipeline seg=16k",
};

static const char *const pieces[] = {
    "99999999999999999999", "18446744073709551615", "18446744073709551616", "17179869184g",
    "18014398509481984k", "2147483647", "2147483648", "4294967296", "0", "-", "inf", "np=",
    "seg=", "outstanding=", "@", "@vendor", "@ring", "allreduce", "bcast", ";", "\n", "#",
    " ", "\t", "\r", "k", "g", "=", "\x1b[31m", "\\", "\xff", "np=1-inf", "0-inf",
};

struct text {
    char *bytes; /* len bytes and a NUL, in a buffer of exactly len + 1 */
    size_t len;
};

static void set_text(struct text *t, const char *bytes, size_t len)
{
    char *copy = malloc(len + 1);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, bytes, len);
    copy[len] = '\0';
    free(t->bytes);
    t->bytes = copy;
    t->len = len;
}

/* Replace [at, at + cut) by the n bytes of piece. */
static void splice(struct text *t, size_t at, size_t cut, const char *piece, size_t n)
{
    size_t len = t->len - cut + n;
    char *next = malloc(len + 1);
    ck_assert_ptr_nonnull(next);
    memcpy(next, t->bytes, at);
    memcpy(next + at, piece, n);
    memcpy(next + at + n, t->bytes + at + cut, t->len - at - cut);
    next[len] = '\0';
    free(t->bytes);
    t->bytes = next;
    t->len = len;
}

/* A line of `len` bytes: one piece repeated, or digits. */
static void insert_long_line(struct text *t, size_t at)
{
    size_t len = 1000 + below(70000);
    const char *piece = rng() & 1 ? pieces[below(sizeof pieces / sizeof *pieces)] : "9";
    size_t plen = strlen(piece);
    char *line = malloc(len);
    ck_assert_ptr_nonnull(line);
    for (size_t i = 0; i < len; i++)
        line[i] = piece[i % plen];
    splice(t, at, 0, line, len);
    free(line);
}

static void mutate_once(struct text *t)
{
    size_t at = below(t->len + 1), cut = below(t->len - at + 1) % 16;
    const char *piece = pieces[below(sizeof pieces / sizeof *pieces)];
    char byte = (char)rng();
    switch (below(8)) {
    case 0: if (t->len) t->bytes[below(t->len)] = byte; break;           /* any byte, NUL too */
    case 1: if (t->len) t->bytes[below(t->len)] ^= (char)(1u << below(8)); break;
    case 2: splice(t, at, cut, "", 0); break;                             /* cut a piece */
    case 3: set_text(t, t->bytes, at); break;                             /* truncate */
    case 4: splice(t, at, 0, piece, strlen(piece)); break;                /* grammar pieces */
    case 5: splice(t, at, cut, "\0", 1); break;                           /* a NUL byte */
    case 6: if (below(8) == 0) insert_long_line(t, at); break;            /* a long line */
    default: {                                                            /* another table */
        const char *s = seeds[below(sizeof seeds / sizeof *seeds)];
        size_t from = below(strlen(s)), n = below(strlen(s) - from + 1);
        splice(t, at, cut, s + from, n);
    }
    }
}

/* Random bytes, mostly from the grammar's alphabet. */
static void random_text(struct text *t)
{
    static const char alphabet[] = "abcdegilnoprstuvw_0123456789kmg-=@;#\n \t";
    size_t len = below(200);
    char *bytes = malloc(len + 1);
    ck_assert_ptr_nonnull(bytes);
    for (size_t i = 0; i < len; i++)
        bytes[i] = rng() % 8 ? alphabet[below(sizeof alphabet - 1)] : (char)rng();
    set_text(t, bytes, len);
    free(bytes);
}

/* Where line `line`, column `col` of the input is, or SIZE_MAX if the
 * pair names no place in it (the column may be one past the line's end). */
static size_t place(const struct text *t, long line, long col)
{
    size_t start = 0;
    for (long l = 1; l < line; l++) {
        const char *nl = memchr(t->bytes + start, '\n', t->len - start);
        if (!nl)
            return SIZE_MAX;
        start = (size_t)(nl - t->bytes) + 1;
    }
    const char *nl = memchr(t->bytes + start, '\n', t->len - start);
    size_t end = nl ? (size_t)(nl - t->bytes) : t->len;
    return line >= 1 && col >= 1 && start + (size_t)(col - 1) <= end ? start + (size_t)(col - 1) : SIZE_MAX;
}

/* Errors the inputs must provoke at least once each, or they test too little. */
static const char *const kinds[] = {"out of range", "a NUL byte", "unknown algorithm",
                                    "unknown collective", "unknown parameter", "expected",
                                    "\\x", "empty byte range"};
static int kind_seen[sizeof kinds / sizeof *kinds];

static void check_error(const struct text *in, const struct tune_table *t, const char *err)
{
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        kind_seen[k] += strstr(err, kinds[k]) != NULL;
    long line, col;
    int used = 0;
    unit_expect(t->n == 0 && t->rules == NULL, "an error left %d rules", t->n);
    unit_expect(sscanf(err, "fuzz:%ld:%ld: %n", &line, &col, &used) == 2 && used > 0,
                "no line and column in '%s'", err);
    unit_expect(place(in, line, col) != SIZE_MAX, "%ld:%ld lies outside the input: '%s'", line, col, err);
    unit_expect(unit_printable(err), "unprintable bytes in '%s'", err);
    unit_expect(strlen(err + used) > 0, "no explanation in '%s'", err);
}

static void check_rule(const struct text *in, const struct tune_rule *r)
{
    char line[512], err[512];
    struct tune_table again;
    unit_expect(r->coll >= 0 && r->coll < COLL_COUNT, "collective %d", (int)r->coll);
    unit_expect(r->alg >= 0 && r->alg < registry_count && registry_table[r->alg].coll == r->coll,
                "algorithm %d", r->alg);
    unit_expect(1 <= r->np_lo && r->np_lo <= r->np_hi && r->np_hi <= TUNE_NP_INF, "np %d-%d",
                r->np_lo, r->np_hi);
    unit_expect(r->bytes_lo < r->bytes_hi, "bytes %llu-%llu", (unsigned long long)r->bytes_lo,
                (unsigned long long)r->bytes_hi);
    unit_expect(r->params.outstanding >= 0 && r->params.outstanding <= 1000000, "outstanding %d",
                r->params.outstanding);
    unit_expect(place(in, r->line, 1) != SIZE_MAX, "rule line %d outside the input", r->line);
    tune_format_rule(r, line, sizeof line);
    unit_expect(tune_parse(line, "again", &again, err, sizeof err) == 0 && again.n == 1, "'%s': %s", line, err);
    unit_expect(again.rules[0].coll == r->coll && again.rules[0].alg == r->alg &&
                    again.rules[0].np_lo == r->np_lo && again.rules[0].np_hi == r->np_hi &&
                    again.rules[0].bytes_lo == r->bytes_lo && again.rules[0].bytes_hi == r->bytes_hi &&
                    again.rules[0].params.seg == r->params.seg &&
                    again.rules[0].params.outstanding == r->params.outstanding,
                "'%s' reads back differently", line);
    tune_free(&again);
}

/* One input: either a well-formed table or an error inside the input; the
 * same answer, cut to size, in small error buffers. Returns the parser's. */
static int check_input(const struct text *in)
{
    static char err[4096];
    struct tune_table t;
    int rc = tune_parse_text(in->bytes, in->len, "fuzz", &t, err, sizeof err);
    unit_expect(rc == 0 || rc == -1, "returned %d", rc);
    if (rc == 0) {
        unit_expect(memchr(in->bytes, '\0', in->len) == NULL, "a NUL byte was accepted");
        for (int i = 0; i < t.n; i++)
            check_rule(in, &t.rules[i]);
    } else {
        check_error(in, &t, err);
    }
    tune_free(&t);
    size_t small = 1 + below(48);
    char *cut = malloc(small);
    ck_assert_ptr_nonnull(cut);
    unit_expect(tune_parse_text(in->bytes, in->len, "fuzz", &t, cut, small) == rc, "another answer");
    unit_expect(rc == 0 || (strlen(cut) < small && strncmp(cut, err, strlen(cut)) == 0),
                "'%s' is not the start of '%s'", cut, err);
    free(cut);
    tune_free(&t);
    return rc;
}

START_TEST(mutated_tables_give_a_table_or_an_error_inside_the_input)
{
    struct text in = {NULL, 0};
    int errors = 0, tables = 0;
    rng_state = FUZZ_SEED;
    memset(kind_seen, 0, sizeof kind_seen);
    for (int i = 0; i < FUZZ_INPUTS; i++) {
        if (i % 4 == 3) {
            random_text(&in);
        } else {
            const char *s = i % 8 == 0 ? tune_builtin_table : seeds[below(sizeof seeds / sizeof *seeds)];
            set_text(&in, s, strlen(s));
            for (size_t k = 1 + below(4); k > 0; k--)
                mutate_once(&in);
        }
        if (check_input(&in))
            errors++;
        else
            tables++;
    }
    free(in.bytes);
    /* Both outcomes must be common, or the inputs test too little. */
    ck_assert_int_gt(tables, FUZZ_INPUTS / 20);
    ck_assert_int_gt(errors, FUZZ_INPUTS / 4);
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        ck_assert_msg(kind_seen[k] > 0, "no input gave '%s'", kinds[k]);
}
END_TEST

Suite *grammar_fuzz_suite(void)
{
    Suite *s = suite_create("grammar_fuzz");
    TCase *tc = tcase_create("fuzz");
    tcase_set_timeout(tc, 600); /* seconds under valgrind; well under one without */
    tcase_add_test(tc, mutated_tables_give_a_table_or_an_error_inside_the_input);
    suite_add_tcase(s, tc);
    return s;
}
