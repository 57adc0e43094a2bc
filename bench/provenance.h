/* provenance.h - where a measurement comes from: the header lines of
 * collbench's table and CSV (and of colltune's tables). */
#ifndef COLLBENCH_PROVENANCE_H
#define COLLBENCH_PROVENANCE_H

#include <mpi.h>

/* Lines "# key: value\n" naming the tool and its command line, the date
 * (UTC), the MPI library's version string, the hosts and ranks per host,
 * np, the collshim version and flavour, and the environment variables that
 * change what runs (COLLSHIM_*, OMPI_MCA_*, MPIR_CVAR_*, UCX_*, HYDRA_*,
 * VC_*, LD_PRELOAD). Collective over comm; the malloc'ed text is returned
 * at rank 0, NULL elsewhere. */
char *bench_provenance(MPI_Comm comm, const char *tool, int argc, char **argv);

#endif
