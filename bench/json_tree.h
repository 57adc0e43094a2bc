/* json_tree.h - the JSON of MPICH's collective-selection files: objects
 * whose members are keys and objects, nothing else (no arrays, numbers or
 * strings as values). Enough to read MPICH's built-in trees and to write a
 * tree of one's own (export_mpich.c). Every object and key lives in an
 * arena freed at once. */
#ifndef COLLSHIM_JSON_TREE_H
#define COLLSHIM_JSON_TREE_H

#include <stdio.h>

struct json_object;

struct json_member {
    char *key;
    struct json_object *value;
};

struct json_object {
    int n, cap;
    struct json_member *members;
};

struct json_arena {
    void **blocks;
    int n, cap;
    int failed; /* an allocation failed: the tree is incomplete */
};

struct json_object *json_object_new(struct json_arena *arena);
/* A copy of key in the arena (NULL when out of memory). */
char *json_key(struct json_arena *arena, const char *key);
/* Append the member key: value (key is copied). */
void json_add(struct json_arena *arena, struct json_object *o, const char *key,
              struct json_object *value);
/* The value of key in o, or NULL. */
struct json_object *json_get(const struct json_object *o, const char *key);
/* Parse text (an object); NULL on malformed text, with where in err. */
struct json_object *json_parse(struct json_arena *arena, const char *text, char *err,
                               size_t errlen);
void json_print(FILE *f, const struct json_object *o, int indent);
void json_arena_free(struct json_arena *arena);

#endif
