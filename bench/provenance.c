/* provenance.c - the provenance header (provenance.h). */
#include "bench/provenance.h"
#include "bench/util.h"
#include "collshim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern char **environ;

static void put_hosts(struct bench_text *t, const char *names, int np)
{
    int nhosts = 0;
    bench_text_put(t, "# hosts:");
    for (int i = 0; i < np; i++) {
        const char *h = names + (size_t)i * MPI_MAX_PROCESSOR_NAME;
        int seen = 0, count = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(h, names + (size_t)j * MPI_MAX_PROCESSOR_NAME);
        if (seen)
            continue;
        for (int j = i; j < np; j++)
            count += !strcmp(h, names + (size_t)j * MPI_MAX_PROCESSOR_NAME);
        bench_text_put(t, "%s %s x%d", nhosts++ ? "," : "", h, count);
    }
    bench_text_put(t, " (%d host%s)\n", nhosts, nhosts == 1 ? "" : "s");
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

/* One variable; each further line of a multi-line value (COLLSHIM_TUNE's
 * rules, one per line) on a comment line of its own, so that the CSV's
 * readers still see only comments before the header. */
static void put_env_var(struct bench_text *t, const char *var)
{
    const char *prefix = "# env: ", *nl;
    while ((nl = strchr(var, '\n'))) {
        bench_text_put(t, "%s%.*s\n", prefix, (int)(nl - var), var);
        var = nl + 1;
        prefix = "#      ";
    }
    bench_text_put(t, "%s%s\n", prefix, var);
}

static void put_env(struct bench_text *t)
{
    size_t np = sizeof env_prefixes / sizeof env_prefixes[0];
    size_t nl = sizeof env_launcher / sizeof env_launcher[0];
    for (char **e = environ; e && *e; e++)
        if (has_prefix(*e, env_prefixes, np) && !has_prefix(*e, env_launcher, nl))
            put_env_var(t, *e);
}

/* The MPI library's version string: its first line, and the device line
 * of MPICH's long multi-line string. */
static void put_library(struct bench_text *t)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "", *save = NULL;
    int len = 0, n = 0;
    MPI_Get_library_version(version, &len);
    for (char *p = version; *p; p++)
        if (*p == '\t')
            *p = ' ';
    bench_text_put(t, "# mpi:");
    for (char *l = strtok_r(version, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save))
        if (n++ == 0 || !strncmp(l, "MPICH Device", 12))
            bench_text_put(t, "%s %s", n > 1 ? ";" : "", l);
    bench_text_put(t, "\n");
}

char *bench_provenance(MPI_Comm comm, const char *tool, int argc, char **argv)
{
    int rank, np, len = 0;
    char name[MPI_MAX_PROCESSOR_NAME] = "", *all = NULL, date[64];
    struct bench_text t = {0};
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
    bench_text_put(&t, "# tool: %s (collshim %s, %s build)\n# command:", tool, COLLSHIM_VERSION,
        collshim_flavour());
    for (int i = 0; i < argc; i++)
        bench_text_put(&t, " %s", argv[i]);
    bench_text_put(&t, "\n# date: %s\n", date);
    put_library(&t);
    bench_text_put(&t, "# np: %d\n", np);
    if (all)
        put_hosts(&t, all, np);
    put_env(&t);
    free(all);
    return t.s;
}
