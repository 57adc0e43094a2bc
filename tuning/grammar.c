/* grammar.c - the one parser of tuning tables: built-in defaults, the file
 * of COLLSHIM_TUNING_FILE and the rules of COLLSHIM_TUNE. */
#include "tuning.h"
#include "../algorithms/registry.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
    const char *text, *p;
    const char *line_start;
    int line;
    const char *source;
    char *err;
    size_t errlen;
};

static int fail(struct cursor *c, const char *at, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(c->err, c->errlen, "%s:%d:%d: ", c->source, c->line,
                     (int)(at - c->line_start) + 1);
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

static const char *token_text(const char *p, size_t n)
{
    static __thread char buf[64];
    snprintf(buf, sizeof buf, "%.*s", (int)(n < 60 ? n : 60), p);
    return buf;
}

/* A size: digits with an optional k/m/g suffix. Returns chars used, 0 if none. */
static size_t parse_size(const char *p, size_t n, uint64_t *out)
{
    size_t i = 0;
    uint64_t v = 0;
    while (i < n && isdigit((unsigned char)p[i])) {
        if (v > (UINT64_MAX - 9) / 10)
            return 0;
        v = v * 10 + (uint64_t)(p[i++] - '0');
    }
    if (i == 0)
        return 0;
    if (i < n && strchr("kKmMgG", p[i])) {
        int shift = tolower((unsigned char)p[i]) == 'k' ? 10 : tolower((unsigned char)p[i]) == 'm' ? 20 : 30;
        if (v > (UINT64_MAX >> shift))
            return 0;
        v <<= shift;
        i++;
    }
    *out = v;
    return i;
}

static int is_inf(const char *p, size_t n) { return n == 3 && !strncmp(p, "inf", 3); }

/* LO-HI, LO or LO-inf; hi_inf is the value of an inf upper bound. */
static int parse_range(struct cursor *c, const char *p, size_t n, uint64_t *lo,
                       uint64_t *hi, uint64_t hi_inf, int single_ok)
{
    size_t used = parse_size(p, n, lo);
    if (!used)
        return fail(c, p, "expected a number, found '%s'", token_text(p, n));
    if (used == n) {
        if (!single_ok)
            return fail(c, p + used, "expected '-' and an upper bound after '%s' (ranges are LO-HI, HI may be inf)",
                        token_text(p, n));
        *hi = *lo;
        return 0;
    }
    if (p[used] != '-')
        return fail(c, p + used, "expected '-', k, m or g, found '%c'", p[used]);
    const char *q = p + used + 1;
    size_t rest = n - used - 1;
    if (is_inf(q, rest)) {
        *hi = hi_inf;
        return 0;
    }
    size_t used2 = parse_size(q, rest, hi);
    if (!used2 || used2 != rest)
        return fail(c, q + used2, "expected an upper bound (a number with k/m/g, or inf), found '%s'",
                    token_text(q, rest));
    return 0;
}

static int parse_np(struct cursor *c, const char *p, size_t n, struct tune_rule *r)
{
    uint64_t lo, hi;
    if (parse_range(c, p, n, &lo, &hi, TUNE_NP_INF, 1))
        return -1;
    if (lo < 1 || lo > TUNE_NP_INF || (hi != TUNE_NP_INF && hi > TUNE_NP_INF))
        return fail(c, p, "communicator sizes must lie in 1..2^31-1");
    if (hi < lo)
        return fail(c, p, "empty np range %s: the upper bound is below the lower", token_text(p, n));
    r->np_lo = (int)lo;
    r->np_hi = (int)hi;
    return 0;
}

static int parse_bytes(struct cursor *c, const char *p, size_t n, struct tune_rule *r)
{
    if (parse_range(c, p, n, &r->bytes_lo, &r->bytes_hi, TUNE_BYTES_INF, 0))
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

static int parse_param(struct cursor *c, const char *p, size_t n, struct tune_rule *r)
{
    const char *eq = memchr(p, '=', n);
    size_t klen = (size_t)(eq - p), vlen = n - klen - 1;
    uint64_t v;
    if (!vlen || parse_size(eq + 1, vlen, &v) != vlen)
        return fail(c, eq + 1, "expected a number (k/m/g allowed) after '%.*s=', found '%s'",
                    (int)klen, p, token_text(eq + 1, vlen));
    if (klen == 3 && !strncmp(p, "seg", 3)) {
        if (v == 0)
            return fail(c, eq + 1, "seg must be at least 1 byte");
        r->params.seg = (size_t)v;
    } else if (klen == 11 && !strncmp(p, "outstanding", 11)) {
        if (v == 0 || v > 1000000)
            return fail(c, eq + 1, "outstanding must lie in 1..1000000");
        r->params.outstanding = (int)v;
    } else {
        return fail(c, p, "unknown parameter '%.*s'; known: np, seg, outstanding", (int)klen, p);
    }
    return 0;
}

static int parse_collective(struct cursor *c, const char *p, size_t n, struct tune_rule *r)
{
    int coll = coll_from_name(p, n);
    if (coll >= 0) {
        r->coll = (enum coll_id)coll;
        return 0;
    }
    char known[512];
    size_t used = 0;
    for (int i = 0; i < COLL_COUNT; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                 coll_name((enum coll_id)i));
    return fail(c, p, "unknown collective '%s'; known: %s", token_text(p, n), known);
}

/* One field of a rule after the collective. */
static int parse_field(struct cursor *c, const char *p, size_t n, struct tune_rule *r,
                       int *seen_np, int *seen_bytes)
{
    if (n > 3 && !strncmp(p, "np=", 3)) {
        if ((*seen_np)++)
            return fail(c, p, "np= given twice in one rule");
        return parse_np(c, p + 3, n - 3, r);
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
    return fail(c, p, "expected np=LO-HI, a byte range LO-HI, @algorithm or a parameter, found '%s'",
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
    t->rules[t->n++] = *r;
    return 0;
}

/* One rule starting at c->p (which sits on its first token). */
static int parse_rule(struct cursor *c, struct tune_table *t)
{
    struct tune_rule r = {.np_lo = 1, .np_hi = TUNE_NP_INF, .bytes_lo = 0,
                          .bytes_hi = TUNE_BYTES_INF, .alg = -1, .line = c->line};
    int seen_np = 0, seen_bytes = 0;
    const char *start = c->p;
    size_t n = next_token(c);
    if (parse_collective(c, c->p, n, &r))
        return -1;
    c->p += n;
    while ((n = next_token(c)) > 0) {
        if (parse_field(c, c->p, n, &r, &seen_np, &seen_bytes))
            return -1;
        c->p += n;
    }
    if (r.alg < 0)
        return fail(c, c->p, "expected @algorithm in the rule for %s", coll_name(r.coll));
    (void)start;
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

int tune_parse(const char *text, const char *source, struct tune_table *t,
               char *err, size_t errlen)
{
    struct cursor c = {text, text, text, 1, source, err, errlen};
    memset(t, 0, sizeof *t);
    snprintf(t->source, sizeof t->source, "%s", source);
    if (errlen)
        err[0] = '\0';
    for (skip_separators(&c); *c.p; skip_separators(&c)) {
        if (parse_rule(&c, t)) {
            tune_free(t);
            snprintf(t->source, sizeof t->source, "%s", source);
            return -1;
        }
    }
    return 0;
}

int tune_parse_file(const char *path, struct tune_table *t, char *err,
                    size_t errlen)
{
    FILE *f = fopen(path, "r");
    memset(t, 0, sizeof *t);
    if (!f) {
        snprintf(err, errlen, "%s: cannot open tuning file: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (len + 1 == cap) {
            char *grown = realloc(text, cap *= 2);
            if (!grown)
                free(text);
            text = grown;
        }
    }
    fclose(f);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory reading tuning file", path);
        return -1;
    }
    text[len] = '\0';
    if (strlen(text) != len) {
        free(text);
        snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
        return -1;
    }
    int rc = tune_parse(text, path, t, err, errlen);
    free(text);
    return rc;
}

void tune_free(struct tune_table *t)
{
    free(t->rules);
    t->rules = NULL;
    t->n = t->cap = 0;
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

void tune_format_rule(const struct tune_rule *r, char *buf, size_t len)
{
    char np[48] = "", lo[24], hi[24], seg[40] = "", out[40] = "";
    if (r->np_lo != 1 || r->np_hi != TUNE_NP_INF) {
        if (r->np_hi == TUNE_NP_INF)
            snprintf(np, sizeof np, "np=%d-inf", r->np_lo);
        else if (r->np_lo == r->np_hi)
            snprintf(np, sizeof np, "np=%d", r->np_lo);
        else
            snprintf(np, sizeof np, "np=%d-%d", r->np_lo, r->np_hi);
    }
    tune_format_bytes(r->bytes_lo, lo, sizeof lo);
    tune_format_bytes(r->bytes_hi, hi, sizeof hi);
    if (r->params.seg) {
        char s[24];
        tune_format_bytes(r->params.seg, s, sizeof s);
        snprintf(seg, sizeof seg, " seg=%s", s);
    }
    if (r->params.outstanding)
        snprintf(out, sizeof out, " outstanding=%d", r->params.outstanding);
    snprintf(buf, len, "%-20s %-10s %s-%-8s @%s%s%s", coll_name(r->coll), np, lo, hi,
             registry_table[r->alg].name, seg, out);
}
