#!/bin/bash
# fuzz.sh - collfuzz, the differential fuzzer (doc/testing.md), under this
# build's launcher, one launch per entry NP:CASES[:NODES] (NODES fakes a
# node layout, COLLSHIM_NODES, so the node-aware algorithms run too).
#   make check: seed 1, the fixed entries below (about two minutes on Open
#   MPI; MPICH busy-polls, so with more ranks than cores it is slow and
#   gets fewer cases there).
#   make fuzz SECONDS=N [SEED=S] [NPS="1 2 ..."]: a fresh seed (or S) for
#   N seconds at each size.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
if [ "$FLAVOUR" = openmpi ]; then
    entries="1:10000 2:20000 3:20000 4:15000 5:15000 8:8000 5:10000:0,0,1,1,1 8:8000:block:4"
else
    entries="1:3000 2:4000 3:500 3:300:0,0,1"
fi
seed=${FUZZ_SEED:-1} seconds=${FUZZ_SECONDS:-}
if [ -n "$seconds" ]; then
    [ -z "${FUZZ_SEED:-}" ] && seed=random
    entries=""
    for np in ${FUZZ_NPS:-1 2 3 4 5 8}; do entries="$entries $np:0"; done
    # a launch runs for its seconds, and its last case may take its timeout
    MPI_TIMEOUT=$((seconds + ${FUZZ_TIMEOUT:-300} + 120))
fi
launcher=$([ "$FLAVOUR" = openmpi ] && echo "mpirun.openmpi --oversubscribe -np" || echo "mpiexec.mpich -n")
log=$(mktemp)
for entry in $entries; do
    np=${entry%%:*} rest=${entry#*:}
    cases=${rest%%:*} nodes=""
    [ "$rest" != "$cases" ] && nodes=${rest#*:}
    if [ -n "$seconds" ]; then range=(--seconds "$seconds"); else range=(--cases "0:$cases"); fi
    vars=(COLLFUZZ_LAUNCHER="$launcher")
    [ -n "$nodes" ] && vars+=(COLLSHIM_NODES="$nodes")
    start=$SECONDS
    mpi_run "$np" "${vars[@]}" -- "$TOP_BUILDDIR/tests/fuzz/collfuzz" \
        --seed "$seed" "${range[@]}" --timeout "${FUZZ_TIMEOUT:-300}" >"$log" 2>&1
    echo "== np=$np${nodes:+ nodes=$nodes} ($((SECONDS - start)) s)"
    grep -E '^collfuzz: (FAIL|  reproduce|HANG|CRASH|seed|[0-9]+ cases|case .* vendor fails)' "$log" |
        head -60
    grep -q '^collfuzz: [0-9]* passed' "$log" ||
        { FAILED=$((FAILED + 1)); echo "FAIL np=$np: collfuzz did not finish"; tail -5 "$log"; }
    count_results "$log"
done
rm -f "$log"
finish collfuzz
