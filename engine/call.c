/* call.c - the names and facts of the collectives (call.h). */
#include "engine/call.h"

#include <string.h>

static const char *const coll_names[] = {
#define COLL_NAME(name, facts) #name,
    COLLSHIM_COLLECTIVES(COLL_NAME)
#undef COLL_NAME
};

const unsigned coll_facts[COLL_COUNT] = {
#define COLL_FACTS(name, facts) facts,
    COLLSHIM_COLLECTIVES(COLL_FACTS)
#undef COLL_FACTS
};

const char *coll_name(enum coll_id coll)
{
    return (unsigned)coll < COLL_COUNT ? coll_names[coll] : "?";
}

int coll_from_name(const char *name, size_t len)
{
    for (int c = 0; c < COLL_COUNT; c++)
        if (strlen(coll_names[c]) == len && !strncmp(coll_names[c], name, len))
            return c;
    return -1;
}
