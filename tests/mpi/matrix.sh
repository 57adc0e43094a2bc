#!/bin/bash
# matrix.sh - the correctness matrix: every native algorithm, forced, over
# the communicator sizes of this flavour, called as a blocking collective,
# then as a nonblocking one (MPI_I<coll> + MPI_Wait) and as a persistent
# request started twice (collcheck --mode). MPICH (ch4:ucx) busy-polls, so
# with more ranks than cores it is slow: its matrix is smaller. The
# nonblocking and persistent modes run the --quick matrix (largest count
# 4099 instead of 100003): the algorithms are the blocking ones, what those
# modes add is the request machinery around them. On an idle machine the
# --quick matrix takes 0.5-3 s per launch on Open MPI (np 1-8) and on
# MPICH under 1 s at np 1-2 but about 1.5 minutes at np 3 (3 busy-polling
# ranks on 2 cores), so MPICH runs nonblocking mode at np 1-2 (the
# fuzzer's MPICH cases reach np 3 in every form) and persistent mode at np 2
# only: at np=1
# MPICH 4.0.2's own MPI_Allgather_init (which runs there: neighbor_exchange
# needs an even np) corrupts datatype state on the count=0 derived-type
# cases (a yaksa assertion, or a crash in the next MPI_Type_get_envelope),
# with or without collshim.
# Under SMPI (doc/scale.md) the matrix runs at scale instead: np 16, 31
# (two unequal hosts) and 64 on the fat-tree platform (hosts of 16 ranks),
# blocking, --quick (about 4 minutes of CPU in all, 3.5 of them at 64);
# `make check-scale` runs 127, 256 and 1024 (tests/mpi/check_scale.sh).
# Where the MPI has MPI-4's large-count collectives (configure's
# HAVE_MPI_ALLREDUCE_C: MPICH 4), the matrix runs again with every call
# under test through its _c form (MPI_<Coll>_c, MPI_I<coll>_c,
# MPI_<Coll>_init_c; collcheck --large-count), --quick: blocking at np 1-2,
# nonblocking and persistent at np 2, and persistent without the vendor's
# persistent form at np 2 (under half a minute on MPICH; a form changes the
# entry points and the width of count arrays, which np does not, and np 3
# costs 1.5 minutes of busy-polling ranks on 2 cores). An
# MPI without them (Open MPI 4.1, SimGrid 3.32) skips it and says so.
#   COLLCHECK_SIZES   communicator sizes, for every mode
#   COLLCHECK_MODES   modes to run (default: blocking nonblocking persistent)
#   COLLCHECK_ARGS    more collcheck arguments (--coll bcast, --alg ring)
#   COLLCHECK_LARGE_COUNT=0   leave out the large-count forms
. "$TOP_SRCDIR/tests/mpi/launch.sh"
default_modes="blocking nonblocking persistent"
if [ "$FLAVOUR" = openmpi ]; then
    blocking_sizes="1 2 3 4 5 7 8" nonblocking_sizes="1 2 3 4 5 7 8" persistent_sizes="1 2 3 4 5 7 8"
elif [ "$FLAVOUR" = smpi ]; then
    blocking_sizes="16 31 64" nonblocking_sizes="16" persistent_sizes="16" default_modes=blocking
else
    blocking_sizes="1 2 3 4" nonblocking_sizes="1 2" persistent_sizes="2"
fi
log=$(mktemp)
# One collcheck launch: NP, a label for the messages, mpi_run's VAR=VALUE
# arguments, --, then collcheck's arguments.
launch() {
    local np=$1 label=$2 start=$SECONDS
    local -a vars=()
    shift 2
    while [ "$1" != "--" ]; do vars+=("$1"); shift; done
    shift
    if ! mpi_run "$np" "${vars[@]}" -- "$TOP_BUILDDIR/tests/mpi/collcheck" "$@" \
        ${COLLCHECK_ARGS:-} >"$log" 2>&1; then
        grep -q 'passed, .* failed' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL np=$np $label: collcheck did not finish"; tail -5 "$log"; }
    fi
    echo "== np=$np $label ($((SECONDS - start)) s)"
    grep -E '^(FAIL|collcheck)' "$log" | head -50
    count_results "$log"
}
for mode in ${COLLCHECK_MODES:-$default_modes}; do
    nps=${mode}_sizes
    nps=${COLLCHECK_SIZES:-${!nps}}
    for np in $nps; do
        quick=
        [ "$FLAVOUR" = mpich ] && [ "$np" -gt 2 ] && quick=--quick
        [ "$mode" = blocking ] && [ "$FLAVOUR" != smpi ] || quick=--quick
        launch "$np" "$mode $quick" -- --mode "$mode" $quick
    done
done
# Persistent calls where the selection is the vendor, in a library with no
# persistent collectives (SMPI 3.32): collshim starts the vendor's
# nonblocking collective behind its own persistent request. The testing aid
# COLLSHIM_TEST_NO_VENDOR_INIT makes the other flavours take that path, so
# that every case the forced algorithms' restrictions hand to the vendor
# runs through it (and is asserted to be the vendor's).
if [ "$FLAVOUR" != smpi ] && [ -z "${COLLCHECK_MODES:-}${COLLCHECK_SIZES:-}" ]; then
    np=3; [ "$FLAVOUR" = mpich ] && np=2
    launch "$np" "persistent, the vendor's without a persistent form --quick" \
        COLLSHIM_TEST_NO_VENDOR_INIT=1 -- --mode persistent --quick
fi
# The large-count forms.
if [ "${COLLCHECK_LARGE_COUNT:-1}" = 0 ]; then
    :
elif ! grep -q '^#define HAVE_MPI_ALLREDUCE_C 1' "$TOP_BUILDDIR/config.h"; then
    echo "== large-count forms (MPI_Allreduce_c, ...) not run: this MPI ($FLAVOUR) has none"
else
    large_blocking_sizes="1 2" large_nonblocking_sizes="2" large_persistent_sizes="2"
    for mode in ${COLLCHECK_MODES:-$default_modes}; do
        nps=large_${mode}_sizes
        for np in ${COLLCHECK_SIZES:-${!nps}}; do
            launch "$np" "$mode large-count --quick" -- --mode "$mode" --large-count --quick
        done
    done
    if [ -z "${COLLCHECK_MODES:-}${COLLCHECK_SIZES:-}" ]; then
        launch 2 "persistent large-count, the vendor's without a persistent form --quick" \
            COLLSHIM_TEST_NO_VENDOR_INIT=1 -- --mode persistent --large-count --quick
    fi
fi
rm -f "$log"
finish matrix
