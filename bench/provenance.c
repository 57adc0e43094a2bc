/* provenance.c - the provenance header (provenance.h). */
#include "provenance.h"
#include "collshim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern char **environ;

struct text {
    char *s;
    size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->cap + (size_t)n + 1) * 2;
        char *grown = realloc(t->s, cap);
        if (!grown)
            return;
        t->s = grown;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* "vc0 x1, vc1 x1" from the gathered processor names, in rank order. */
static void put_hosts(struct text *t, const char *names, int np)
{
    int nhosts = 0;
    put(t, "# hosts:");
    for (int i = 0; i < np; i++) {
        const char *h = names + (size_t)i * MPI_MAX_PROCESSOR_NAME;
        int seen = 0, count = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(h, names + (size_t)j * MPI_MAX_PROCESSOR_NAME);
        if (seen)
            continue;
        for (int j = i; j < np; j++)
            count += !strcmp(h, names + (size_t)j * MPI_MAX_PROCESSOR_NAME);
        put(t, "%s %s x%d", nhosts++ ? "," : "", h, count);
    }
    put(t, " (%d host%s)\n", nhosts, nhosts == 1 ? "" : "s");
}

static const char *const env_prefixes[] = {"COLLSHIM_", "OMPI_MCA_", "MPIR_CVAR_", "UCX_",
                                           "HYDRA_", "VC_", "LD_PRELOAD="};

/* What mpirun itself sets for its own plumbing: not a choice of the user. */
static const char *const env_launcher[] = {"OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix",
                                           "OMPI_MCA_initial_wdir", "OMPI_MCA_shmem_RUNTIME"};

static int has_prefix(const char *s, const char *const *prefixes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strncmp(s, prefixes[i], strlen(prefixes[i])))
            return 1;
    return 0;
}

static void put_env(struct text *t)
{
    size_t np = sizeof env_prefixes / sizeof env_prefixes[0];
    size_t nl = sizeof env_launcher / sizeof env_launcher[0];
    for (char **e = environ; e && *e; e++)
        if (has_prefix(*e, env_prefixes, np) && !has_prefix(*e, env_launcher, nl))
            put(t, "# env: %s\n", *e);
}

/* The MPI library's version string: its first line, and the device line
 * of MPICH's long multi-line string. */
static void put_library(struct text *t)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "", *save = NULL;
    int len = 0, n = 0;
    MPI_Get_library_version(version, &len);
    for (char *p = version; *p; p++)
        if (*p == '\t')
            *p = ' ';
    put(t, "# mpi:");
    for (char *l = strtok_r(version, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save))
        if (n++ == 0 || !strncmp(l, "MPICH Device", 12))
            put(t, "%s %s", n > 1 ? ";" : "", l);
    put(t, "\n");
}

char *bench_provenance(MPI_Comm comm, const char *tool, int argc, char **argv)
{
    int rank, np, len = 0;
    char name[MPI_MAX_PROCESSOR_NAME] = "", *all = NULL, date[64];
    struct text t = {0};
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &np);
    MPI_Get_processor_name(name, &len);
    if (rank == 0)
        all = calloc((size_t)np, MPI_MAX_PROCESSOR_NAME);
    collshim_bypass(1);
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
               comm);
    collshim_bypass(0);
    if (rank != 0)
        return NULL;
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    put(&t, "# tool: %s (collshim %s, %s build)\n# command:", tool, COLLSHIM_VERSION,
        collshim_flavour());
    for (int i = 0; i < argc; i++)
        put(&t, " %s", argv[i]);
    put(&t, "\n# date: %s\n", date);
    put_library(&t);
    put(&t, "# np: %d\n", np);
    if (all)
        put_hosts(&t, all, np);
    put_env(&t);
    free(all);
    return t.s;
}
