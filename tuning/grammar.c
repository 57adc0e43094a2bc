/* grammar.c - the one parser of tuning tables: built-in defaults, the file
 * of COLLSHIM_TUNING_FILE and the rules of COLLSHIM_TUNE. */
#include "tuning/tuning.h"
#include "algorithms/registry.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
    const char *text, *p;
    const char *line_start;
    long line;
    const char *source;         /* escaped, printable */
    char *err;
    size_t errlen;
};

/* One input byte as message text: itself, a doubled backslash or \xHH. */
static size_t escape_byte(unsigned char ch, char out[5])
{
    if (ch == '\\')
        return (size_t)snprintf(out, 5, "\\\\");
    if (ch >= 0x20 && ch <= 0x7e)
        return (size_t)snprintf(out, 5, "%c", ch);
    return (size_t)snprintf(out, 5, "\\x%02x", ch);
}

size_t tune_escape(const char *p, size_t n, size_t max, char *out, size_t outlen)
{
    size_t used = 0, i;
    if (!outlen)
        return 0;
    for (i = 0; i < n && i < max; i++) {
        char esc[5];
        size_t len = escape_byte((unsigned char)p[i], esc);
        if (used + len + 3 >= outlen) /* keep room for "..." and the NUL */
            break;
        memcpy(out + used, esc, len);
        used += len;
    }
    if (i < n && used + 3 < outlen) {
        memcpy(out + used, "...", 3);
        used += 3;
    }
    out[used] = '\0';
    return used;
}

static int fail(struct cursor *c, const char *at, const char *fmt, ...)
{
    va_list ap;
    if (!c->errlen)
        return -1;
    int n = snprintf(c->err, c->errlen, "%s:%ld:%ld: ", c->source, c->line,
                     (long)(at - c->line_start) + 1);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < c->errlen)
        vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }
static int is_rule_end(char ch) { return ch == '\0' || ch == '\n' || ch == ';' || ch == '#'; }

/* Advance over blanks; returns the length of the next token (0 at rule end). */
static size_t next_token(struct cursor *c)
{
    while (is_space(*c->p))
        c->p++;
    size_t n = 0;
    while (!is_rule_end(c->p[n]) && !is_space(c->p[n]))
        n++;
    return n;
}

/* Input quoted in a message: at most TOKEN_QUOTED bytes, unprintable ones
 * escaped. Two buffers, so that one message can quote two pieces. */
#define TOKEN_QUOTED 60
static const char *token_text(const char *p, size_t n)
{
    static __thread char buf[2][4 * TOKEN_QUOTED + 8];
    static __thread int next;
    char *out = buf[next];
    next ^= 1;
    tune_escape(p, n, TOKEN_QUOTED, out, sizeof buf[0]);
    return out;
}

/* What a number of each field may be, and its message. */
struct bound {
    uint64_t min, max;
    const char *range;
};
static const struct bound np_bound = {1, TUNE_NP_INF, "communicator sizes must lie in 1..2^31-1"};
static const struct bound bytes_bound = {0, UINT64_MAX, "byte counts must lie in 0..2^64-1"};
static const struct bound seg_bound = {1, SIZE_MAX, "seg must be at least 1 byte and at most 2^64-1"};
static const struct bound outstanding_bound = {1, 1000000, "outstanding must lie in 1..1000000"};

static int suffix_shift(char ch)
{
    switch (ch) {
    case 'k': case 'K': return 10;
    case 'm': case 'M': return 20;
    case 'g': case 'G': return 30;
    default: return 0;
    }
}

enum number { NUMBER_NONE, NUMBER_OK, NUMBER_OVERFLOW };

/* A size: digits with an optional k/m/g suffix. *used is its length
 * (digits and suffix), also when its value overflows 64 bits. */
static enum number parse_size(const char *p, size_t n, uint64_t *out, size_t *used)
{
    size_t i = 0;
    uint64_t v = 0;
    int overflow = 0;
    for (; i < n && isdigit((unsigned char)p[i]); i++) {
        unsigned digit = (unsigned)(p[i] - '0');
        if (v > (UINT64_MAX - digit) / 10)
            overflow = 1;
        else
            v = v * 10 + digit;
    }
    *used = i;
    if (i == 0)
        return NUMBER_NONE;
    int shift = i < n ? suffix_shift(p[i]) : 0;
    if (shift) {
        *used = i + 1;
        if (v > (UINT64_MAX >> shift))
            overflow = 1;
        else
            v <<= shift;
    }
    *out = v;
    return overflow ? NUMBER_OVERFLOW : NUMBER_OK;
}

/* A number that parse_size found at p, checked against its field's bound;
 * the message quotes `quote` (the number, or the whole parameter). */
static int check_bound(struct cursor *c, const char *p, enum number got, uint64_t v,
                       const struct bound *b, const char *quote, size_t quote_len)
{
    if (got == NUMBER_OVERFLOW || v < b->min || v > b->max)
        return fail(c, p, "'%s' is out of range: %s", token_text(quote, quote_len), b->range);
    return 0;
}

static int is_inf(const char *p, size_t n) { return n == 3 && !strncmp(p, "inf", 3); }

/* LO-HI, LO or LO-inf; hi_inf is the value of an inf upper bound. */
static int parse_range(struct cursor *c, const char *p, size_t n, uint64_t *lo,
                       uint64_t *hi, uint64_t hi_inf, int single_ok, const struct bound *b)
{
    size_t used;
    enum number got = parse_size(p, n, lo, &used);
    if (got == NUMBER_NONE)
        return fail(c, p, "expected a number, found '%s'", token_text(p, n));
    if (check_bound(c, p, got, *lo, b, p, used))
        return -1;
    if (used == n) {
        if (!single_ok)
            return fail(c, p + used, "expected '-' and an upper bound after '%s' (ranges are LO-HI, HI may be inf)",
                        token_text(p, n));
        *hi = *lo;
        return 0;
    }
    if (p[used] != '-')
        return fail(c, p + used, "expected '-', k, m or g, found '%s'", token_text(p + used, 1));
    const char *q = p + used + 1;
    size_t rest = n - used - 1, used2;
    if (is_inf(q, rest)) {
        *hi = hi_inf;
        return 0;
    }
    got = parse_size(q, rest, hi, &used2);
    if (got == NUMBER_NONE || used2 != rest)
        return fail(c, q + used2, "expected an upper bound (a number with k/m/g, or inf), found '%s'",
                    token_text(q, rest));
    return check_bound(c, q, got, *hi, b, q, used2);
}

/* np=, nodes=, ppn= or remote= (what names the field in messages): LO[-HI]. */
static int parse_count_range(struct cursor *c, const char *p, size_t n, const char *what,
                             int *lo_out, int *hi_out)
{
    uint64_t lo, hi;
    if (parse_range(c, p, n, &lo, &hi, TUNE_NP_INF, 1, &np_bound))
        return -1;
    if (hi < lo)
        return fail(c, p, "empty %s range %s: the upper bound is below the lower", what,
                    token_text(p, n));
    *lo_out = (int)lo;
    *hi_out = (int)hi;
    return 0;
}

/* Fields "name=LO-HI" of a rule's key, each at most once. */
static const struct {
    const char *name;
    size_t len;
} count_fields[] = {{"np=", 3}, {"nodes=", 6}, {"ppn=", 4}, {"remote=", 7},
                    {"ranks_per_core=", 15}};
#define FIELD_REMOTE 3
#define SEEN_INTER_WORD (1 << 5) /* bits 0-4: count_fields */

static int parse_count_field(struct cursor *c, const char *p, size_t n, struct tune_rule *r,
                             int field, int *seen)
{
    int *ranges[][2] = {{&r->np_lo, &r->np_hi}, {&r->nodes_lo, &r->nodes_hi},
                        {&r->ppn_lo, &r->ppn_hi}, {&r->remote_lo, &r->remote_hi},
                        {&r->ranks_per_core_lo, &r->ranks_per_core_hi}};
    size_t len = count_fields[field].len;
    char what[24];
    snprintf(what, sizeof what, "%.*s", (int)len - 1, count_fields[field].name);
    if ((*seen >> field) & 1)
        return fail(c, p, "%s= given twice in one rule", what);
    *seen |= 1 << field;
    if (field == FIELD_REMOTE)
        r->inter = 1; /* remote= names intercommunicator calls */
    return parse_count_range(c, p + len, n - len, what, ranges[field][0], ranges[field][1]);
}

static int parse_bytes(struct cursor *c, const char *p, size_t n, struct tune_rule *r)
{
    if (parse_range(c, p, n, &r->bytes_lo, &r->bytes_hi, TUNE_BYTES_INF, 0, &bytes_bound))
        return -1;
    if (r->bytes_hi <= r->bytes_lo)
        return fail(c, p, "empty byte range %s: ranges are half-open [LO,HI), HI must exceed LO",
                    token_text(p, n));
    return 0;
}

static int parse_algorithm(struct cursor *c, const char *p, size_t n, struct tune_rule *r)
{
    char names[1024];
    r->alg = registry_find(r->coll, p, n);
    if (r->alg >= 0)
        return 0;
    registry_names(r->coll, names, sizeof names);
    return fail(c, p, "unknown algorithm '%s' for %s; known: %s", token_text(p, n),
                coll_name(r->coll), names);
}

/* seg=BYTES or outstanding=N: the name first, then its number. */
static int parse_param(struct cursor *c, const char *p, size_t n, struct tune_rule *r)
{
    const char *eq = memchr(p, '=', n), *val = eq + 1;
    size_t klen = (size_t)(eq - p), vlen = n - klen - 1, used;
    int is_seg = klen == 3 && !strncmp(p, "seg", 3);
    uint64_t v;
    if (!is_seg && !(klen == 11 && !strncmp(p, "outstanding", 11)))
        return fail(c, p, "unknown parameter '%s'; known: np, nodes, ppn, ranks_per_core, remote, seg, outstanding",
                    token_text(p, klen));
    enum number got = parse_size(val, vlen, &v, &used);
    if (got == NUMBER_NONE || used != vlen)
        return fail(c, val + used, "expected a number (k/m/g allowed) after '%s=', found '%s'",
                    token_text(p, klen), token_text(val, vlen));
    if (check_bound(c, val, got, v, is_seg ? &seg_bound : &outstanding_bound, p, n))
        return -1;
    if (is_seg)
        r->params.seg = (size_t)v;
    else
        r->params.outstanding = (int)v;
    return 0;
}

static int parse_collective(struct cursor *c, const char *p, size_t n, struct tune_rule *r)
{
    int coll = coll_from_name(p, n);
    if (coll < 0 && n > 1 && p[0] == 'i' && (coll = coll_from_name(p + 1, n - 1)) >= 0)
        r->nonblocking = 1;
    if (coll >= 0) {
        r->coll = (enum coll_id)coll;
        return 0;
    }
    char known[512];
    size_t used = 0;
    for (int i = 0; i < COLL_COUNT && used < sizeof known; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                 coll_name((enum coll_id)i));
    return fail(c, p, "unknown collective '%s'; known: %s (and i before each, e.g. iallreduce, "
                      "for the nonblocking ones)", token_text(p, n), known);
}

/* Mark field bit seen; 1 when it was already. */
static int seen_before(int *seen, int bit)
{
    int was = *seen & bit;
    *seen |= bit;
    return was != 0;
}

/* One field of a rule after the collective. */
static int parse_field(struct cursor *c, const char *p, size_t n, struct tune_rule *r,
                       int *seen_counts, int *seen_bytes)
{
    for (int f = 0; f < (int)(sizeof count_fields / sizeof count_fields[0]); f++)
        if (n >= count_fields[f].len && !strncmp(p, count_fields[f].name, count_fields[f].len))
            return parse_count_field(c, p, n, r, f, seen_counts);
    if (n == 5 && !strncmp(p, "inter", 5)) {
        if (seen_before(seen_counts, SEEN_INTER_WORD))
            return fail(c, p, "inter given twice in one rule");
        r->inter = 1;
        return 0;
    }
    if (p[0] == '@') {
        if (r->alg >= 0)
            return fail(c, p, "a rule names one algorithm; found a second '%s'", token_text(p, n));
        if (n == 1)
            return fail(c, p + 1, "expected an algorithm name after '@'");
        return parse_algorithm(c, p + 1, n - 1, r);
    }
    if (isdigit((unsigned char)p[0])) {
        if ((*seen_bytes)++)
            return fail(c, p, "a rule has one byte range; found a second '%s'", token_text(p, n));
        return parse_bytes(c, p, n, r);
    }
    if (memchr(p, '=', n))
        return parse_param(c, p, n, r);
    return fail(c, p, "expected np=LO-HI, nodes=LO-HI, ppn=LO-HI, ranks_per_core=LO-HI, inter, remote=LO-HI, "
                      "a byte range LO-HI, @algorithm or a parameter, found '%s'",
                token_text(p, n));
}

static int add_rule(struct tune_table *t, const struct tune_rule *r)
{
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        struct tune_rule *grown = realloc(t->rules, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        t->rules = grown;
        t->cap = cap;
    }
    t->rules[t->n] = *r;
    t->rules[t->n].next_same_coll = 0;
    if (t->last_of_coll[r->coll])
        t->rules[t->last_of_coll[r->coll] - 1].next_same_coll = t->n + 1;
    else
        t->first_of_coll[r->coll] = t->n + 1;
    t->last_of_coll[r->coll] = ++t->n;
    return 0;
}

/* One rule starting at c->p (which sits on its first token). */
static int parse_rule(struct cursor *c, struct tune_table *t)
{
    struct tune_rule r = {.np_lo = 1, .np_hi = TUNE_NP_INF, .nodes_lo = 0,
                          .nodes_hi = TUNE_NP_INF, .ppn_lo = 0, .ppn_hi = TUNE_NP_INF,
                          .ranks_per_core_lo = 0, .ranks_per_core_hi = TUNE_NP_INF,
                          .remote_lo = 1, .remote_hi = TUNE_NP_INF, .bytes_lo = 0,
                          .bytes_hi = TUNE_BYTES_INF, .alg = -1,
                          .line = c->line < INT_MAX ? (int)c->line : INT_MAX};
    int seen_counts = 0, seen_bytes = 0;
    const char *start = c->p;
    size_t n = next_token(c);
    if (parse_collective(c, c->p, n, &r))
        return -1;
    c->p += n;
    while ((n = next_token(c)) > 0) {
        if (parse_field(c, c->p, n, &r, &seen_counts, &seen_bytes))
            return -1;
        c->p += n;
    }
    if (r.alg < 0)
        return fail(c, c->p, "expected @algorithm in the rule for %s", coll_name(r.coll));
    return add_rule(t, &r) ? fail(c, start, "out of memory") : 0;
}

/* Skip blanks, comments, rule separators and newlines. */
static void skip_separators(struct cursor *c)
{
    for (;;) {
        while (is_space(*c->p) || *c->p == ';')
            c->p++;
        if (*c->p == '#')
            while (*c->p && *c->p != '\n')
                c->p++;
        if (*c->p != '\n')
            return;
        c->p++;
        c->line++;
        c->line_start = c->p;
    }
}

/* Empty t named after source (escaped); a cursor at the start of text. */
static struct cursor start_table(struct tune_table *t, const char *text, const char *source,
                                 char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    tune_escape(source, strlen(source), sizeof t->source, t->source, sizeof t->source);
    if (errlen)
        err[0] = '\0';
    return (struct cursor){text, text, text, 1, t->source, err, errlen};
}

int tune_parse(const char *text, const char *source, struct tune_table *t,
               char *err, size_t errlen)
{
    struct cursor c = start_table(t, text, source, err, errlen);
    for (skip_separators(&c); *c.p; skip_separators(&c)) {
        if (parse_rule(&c, t)) {
            tune_free(t);
            return -1;
        }
    }
    return 0;
}

int tune_parse_text(const char *text, size_t len, const char *source,
                    struct tune_table *t, char *err, size_t errlen)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return tune_parse(text, source, t, err, errlen);
    struct cursor c = start_table(t, text, source, err, errlen);
    for (const char *q = text; q < nul; q++)
        if (*q == '\n')
            c.line++, c.line_start = q + 1;
    return fail(&c, nul, "a NUL byte: a tuning table is text");
}

void tune_free(struct tune_table *t)
{
    free(t->rules);
    t->rules = NULL;
    t->n = t->cap = 0;
    memset(t->first_of_coll, 0, sizeof t->first_of_coll);
    memset(t->last_of_coll, 0, sizeof t->last_of_coll);
}

void tune_format_bytes(uint64_t b, char *buf, size_t len)
{
    if (b == TUNE_BYTES_INF)
        snprintf(buf, len, "inf");
    else if (b && b % (1u << 30) == 0)
        snprintf(buf, len, "%llug", (unsigned long long)(b >> 30));
    else if (b && b % (1u << 20) == 0)
        snprintf(buf, len, "%llum", (unsigned long long)(b >> 20));
    else if (b && b % 1024 == 0)
        snprintf(buf, len, "%lluk", (unsigned long long)(b >> 10));
    else
        snprintf(buf, len, "%llu", (unsigned long long)b);
}

/* " name=LO-HI" (LO, LO-inf) appended at buf + *used, unless the range is
 * the field's default [dflt, inf]. */
static void format_count_range(const char *name, int lo, int hi, int dflt, char *buf,
                               size_t len, size_t *used)
{
    if ((lo == dflt && hi == TUNE_NP_INF) || *used >= len)
        return;
    if (hi == TUNE_NP_INF)
        *used += (size_t)snprintf(buf + *used, len - *used, "%s%s=%d-inf", *used ? " " : "",
                                  name, lo);
    else if (lo == hi)
        *used += (size_t)snprintf(buf + *used, len - *used, "%s%s=%d", *used ? " " : "", name, lo);
    else
        *used += (size_t)snprintf(buf + *used, len - *used, "%s%s=%d-%d", *used ? " " : "",
                                  name, lo, hi);
}

void tune_format_rule(const struct tune_rule *r, char *buf, size_t len)
{
    char np[128] = "", lo[24], hi[24], seg[40] = "", out[40] = "";
    size_t used = r->inter ? (size_t)snprintf(np, sizeof np, "inter") : 0;
    format_count_range("np", r->np_lo, r->np_hi, 1, np, sizeof np, &used);
    format_count_range("nodes", r->nodes_lo, r->nodes_hi, 0, np, sizeof np, &used);
    format_count_range("ppn", r->ppn_lo, r->ppn_hi, 0, np, sizeof np, &used);
    format_count_range("ranks_per_core", r->ranks_per_core_lo, r->ranks_per_core_hi, 0, np,
                       sizeof np, &used);
    if (r->inter)
        format_count_range("remote", r->remote_lo, r->remote_hi, 1, np, sizeof np, &used);
    tune_format_bytes(r->bytes_lo, lo, sizeof lo);
    tune_format_bytes(r->bytes_hi, hi, sizeof hi);
    if (r->params.seg) {
        char s[24];
        tune_format_bytes(r->params.seg, s, sizeof s);
        snprintf(seg, sizeof seg, " seg=%s", s);
    }
    if (r->params.outstanding)
        snprintf(out, sizeof out, " outstanding=%d", r->params.outstanding);
    char coll[32];
    snprintf(coll, sizeof coll, "%s%s", r->nonblocking ? "i" : "", coll_name(r->coll));
    char range[56];
    snprintf(range, sizeof range, "%s-%s", lo, hi);
    snprintf(buf, len, "%-20s %-10s %-12s @%s%s%s", coll, np, range,
             registry_table[r->alg].name, seg, out);
}
