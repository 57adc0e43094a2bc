# launch.sh - sourced by the MPI test scripts (bash): start N ranks under
# this build's MPI, the way the README tells users to.
#   mpi_run NP [VAR=VALUE ...] -- program args
# Environment: FLAVOUR, MPIRUN, TOP_BUILDDIR, TOP_SRCDIR (from make check).
: "${FLAVOUR:?run through make check}" "${MPIRUN:?}" "${TOP_BUILDDIR:?}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Quiet Open MPI's notices about missing high-speed networks in containers.
export OMPI_MCA_btl_base_warn_component_unused=0
LIBCOLLSHIM="$TOP_BUILDDIR/.libs/libcollshim.so"
MPI_TIMEOUT=${MPI_TIMEOUT:-900}

# SMPI (doc/scale.md): the platform, and the ranks per simulated host of
# the hostfile mpi_run writes (ranks fill hosts in blocks).
SMPI_PLATFORM=${SMPI_PLATFORM:-$TOP_SRCDIR/bench/platforms/fattree-64x16.xml}
SMPI_PPN=${SMPI_PPN:-16}

# smpirun: every simulated rank lives in one process (dlopen privatization,
# the program copied once per rank), so VAR=VALUE goes to that process's
# environment, seen by every rank; SimGrid's INFO lines are silenced.
smpi_run() {
    local np=$1; shift
    local -a vars=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do vars+=("$1"); shift; done
    shift
    local hostfile rc
    hostfile=$(mktemp)
    for ((i = 0; i < np; i++)); do echo "node-$((i / SMPI_PPN))"; done >"$hostfile"
    env "${vars[@]}" timeout "$MPI_TIMEOUT" "$MPIRUN" -np "$np" -platform "$SMPI_PLATFORM" \
        -hostfile "$hostfile" --cfg=smpi/privatization:dlopen --log=root.thres:warning \
        --log=smpi_pmpi.thres:error ${SMPI_ARGS:-} "$@"
    rc=$?
    rm -f "$hostfile"
    return $rc
}

mpi_run() {
    [ "$FLAVOUR" = smpi ] && { smpi_run "$@"; return; }
    local np=$1; shift
    local -a opts=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        if [ "$FLAVOUR" = openmpi ]; then opts+=(-x "$1")
        else opts+=(-genv "${1%%=*}" "${1#*=}"); fi
        shift
    done
    shift
    if [ "$FLAVOUR" = openmpi ]; then
        timeout "$MPI_TIMEOUT" "$MPIRUN" --oversubscribe --bind-to none -np "$np" "${opts[@]}" "$@"
    else
        timeout "$MPI_TIMEOUT" "$MPIRUN" -n "$np" "${opts[@]}" "$@"
    fi
}

# Sum the "…: N passed, N failed" lines of a log into PASSED and FAILED.
PASSED=0 FAILED=0
count_results() {
    local line p f
    while read -r line; do
        p=${line% passed*}; p=${p##* }
        f=${line%% failed*}; f=${f##* }
        PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    done < <(grep -E '[0-9]+ passed, [0-9]+ failed' "$1")
}

# Record one pass/fail check of a script; its status is the check's.
expect() {
    local what=$1; shift
    if "$@"; then PASSED=$((PASSED + 1)); echo "ok   $what"
    else FAILED=$((FAILED + 1)); echo "FAIL $what"; return 1; fi
}

finish() {
    echo "$1: $PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
}
