/* json_tree.c - objects of keys and objects (json_tree.h). */
#include "bench/json_tree.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void *arena_alloc(struct json_arena *arena, size_t bytes)
{
    void *p = calloc(1, bytes);
    if (p && arena->n == arena->cap) {
        int cap = arena->cap ? 2 * arena->cap : 64;
        void **blocks = realloc(arena->blocks, (size_t)cap * sizeof *blocks);
        if (!blocks) {
            free(p);
            p = NULL;
        } else {
            arena->blocks = blocks;
            arena->cap = cap;
        }
    }
    if (!p) {
        arena->failed = 1;
        return NULL;
    }
    arena->blocks[arena->n++] = p;
    return p;
}

struct json_object *json_object_new(struct json_arena *arena)
{
    return arena_alloc(arena, sizeof(struct json_object));
}

char *json_key(struct json_arena *arena, const char *key)
{
    size_t len = strlen(key);
    char *copy = arena_alloc(arena, len + 1);
    if (copy)
        memcpy(copy, key, len);
    return copy;
}

void json_add(struct json_arena *arena, struct json_object *o, const char *key,
              struct json_object *value)
{
    char *copy = json_key(arena, key);
    if (!o || !copy || !value) {
        arena->failed = 1;
        return;
    }
    if (o->n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 4;
        struct json_member *m = arena_alloc(arena, (size_t)cap * sizeof *m);
        if (!m)
            return;
        if (o->n)
            memcpy(m, o->members, (size_t)o->n * sizeof *m);
        o->members = m;
        o->cap = cap;
    }
    o->members[o->n++] = (struct json_member){copy, value};
}

struct json_object *json_get(const struct json_object *o, const char *key)
{
    for (int i = 0; o && i < o->n; i++)
        if (!strcmp(o->members[i].key, key))
            return o->members[i].value;
    return NULL;
}

/* ---- parsing ---- */

struct json_cursor {
    const char *text, *p;
    struct json_arena *arena;
};

static void skip_space(struct json_cursor *c)
{
    while (isspace((unsigned char)*c->p))
        c->p++;
}

static int expect(struct json_cursor *c, char ch)
{
    skip_space(c);
    if (*c->p != ch)
        return -1;
    c->p++;
    return 0;
}

/* A key: the characters between quotes (MPICH's keys have no escapes). */
static char *parse_key(struct json_cursor *c, char *buf, size_t len)
{
    size_t n = 0;
    if (expect(c, '"'))
        return NULL;
    while (*c->p && *c->p != '"' && *c->p != '\\' && n + 1 < len)
        buf[n++] = *c->p++;
    buf[n] = '\0';
    return *c->p == '"' ? (c->p++, buf) : NULL;
}

static struct json_object *parse_object(struct json_cursor *c, int depth)
{
    char key[512];
    struct json_object *o;
    if (depth > 64 || expect(c, '{') || !(o = json_object_new(c->arena)))
        return NULL;
    skip_space(c);
    if (*c->p == '}')
        return c->p++, o;
    for (;;) {
        struct json_object *value;
        if (!parse_key(c, key, sizeof key) || expect(c, ':') ||
            !(value = parse_object(c, depth + 1)))
            return NULL;
        json_add(c->arena, o, key, value);
        skip_space(c);
        if (*c->p == '}')
            return c->p++, o;
        if (expect(c, ','))
            return NULL;
    }
}

struct json_object *json_parse(struct json_arena *arena, const char *text, char *err,
                               size_t errlen)
{
    struct json_cursor c = {text, text, arena};
    struct json_object *o = parse_object(&c, 0);
    if (!o || arena->failed)
        snprintf(err, errlen, "malformed at byte %ld", (long)(c.p - text));
    return arena->failed ? NULL : o;
}

/* ---- printing ---- */

void json_print(FILE *f, const struct json_object *o, int indent)
{
    if (!o || o->n == 0) {
        fputs("{}", f);
        return;
    }
    fputs("{\n", f);
    for (int i = 0; i < o->n; i++) {
        fprintf(f, "%*s\"%s\": ", indent + 1, "", o->members[i].key);
        json_print(f, o->members[i].value, indent + 1);
        fputs(i + 1 < o->n ? ",\n" : "\n", f);
    }
    fprintf(f, "%*s}", indent, "");
}

void json_arena_free(struct json_arena *arena)
{
    for (int i = 0; i < arena->n; i++)
        free(arena->blocks[i]);
    free(arena->blocks);
    *arena = (struct json_arena){0};
}
