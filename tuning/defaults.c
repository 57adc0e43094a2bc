/* defaults.c - the built-in tuning table, in the grammar users write.
 * The reasoning behind each rule is in the comments of the table itself,
 * so `COLLSHIM_LIST=1` and the docs show it as it is. */
#include "tuning.h"

const char tune_builtin_table[] =
    "# collshim built-in defaults, reasoned from the alpha-beta-gamma model\n"
    "allreduce                @recursive_doubling\n";
