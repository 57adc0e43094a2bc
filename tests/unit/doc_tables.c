/* doc_tables.c - print the tables of the docs that are facts of the code:
 * the settings (shim/settings.c) and the algorithms (algorithms/registry.c),
 * as markdown. tests/doc_tables.sh checks the README and doc/ against it;
 * `make doc-tables` rewrites them.
 *
 *   doc_tables settings | testing-settings | algorithms */
#include "algorithms/registry.h"
#include "shim/settings.h"

#include <stdio.h>
#include <string.h>

static void print_settings(int testing)
{
    printf("| variable | value | default | what it does |\n| --- | --- | --- | --- |\n");
    for (int i = 0; i < settings_count; i++) {
        const struct setting *s = &settings_table[i];
        if (s->testing == testing)
            printf("| `%s` | %s | %s | %s |\n", s->name, s->value, s->fallback, s->description);
    }
}

static void print_algorithms(void)
{
    char restrictions[128];
    int native = 0, inter = 0, nodes = 0;
    for (int i = 0; i < registry_count; i++) {
        native += !registry_is_vendor(&registry_table[i]);
        inter += (registry_table[i].restrictions & ALG_INTER) != 0;
        nodes += (registry_table[i].restrictions & ALG_NEEDS_NODES) != 0;
    }
    printf("%d native algorithms (%d of them for intercommunicators, restriction `inter`; %d "
           "node-aware, restriction `nodes`); every collective also has `vendor`, the MPI "
           "library's own.\n\n", native, inter, nodes);
    unsigned flag;
    const char *word, *meaning;
    printf("| restriction | the algorithm |\n| --- | --- |\n");
    for (int i = 0; registry_restriction(i, &flag, &word, &meaning); i++)
        if (!(flag & (ALG_TAKES_SEG | ALG_TAKES_WINDOW | ALG_VENDOR)))
            printf("| `%s` | %s |\n", word, meaning);
    printf("\n| collective | algorithm | restrictions | cost | what it is |\n"
           "| --- | --- | --- | --- | --- |\n");
    for (int c = 0; c < COLL_COUNT; c++)
        for (int i = 0; i < registry_count; i++) {
            const struct algorithm *alg = &registry_table[i];
            if (alg->coll != (enum coll_id)c || registry_is_vendor(alg))
                continue;
            registry_restrictions_text(alg->restrictions, restrictions, sizeof restrictions);
            printf("| %s | `%s` | %s | %s | %s |\n", coll_name(alg->coll), alg->name,
                   restrictions, alg->cost + (strncmp(alg->cost, "Cost = ", 7) ? 0 : 7),
                   alg->summary);
        }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (!strcmp(what, "settings"))
        print_settings(0);
    else if (!strcmp(what, "testing-settings"))
        print_settings(1);
    else if (!strcmp(what, "algorithms"))
        print_algorithms();
    else {
        fprintf(stderr, "usage: doc_tables settings|testing-settings|algorithms\n");
        return 2;
    }
    return 0;
}
