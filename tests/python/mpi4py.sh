#!/bin/bash
# mpi4py.sh - Python programs the way mpi4py calls MPI
# (mpi4py_collectives.py) under the preload, every algorithm forced in
# turn, at several communicator sizes; first once without the preload,
# which checks the checks against the vendor. Debian's python3-mpi4py is
# built for Open MPI: other flavours skip it, and so does a machine without
# it (quickstart.sh installs it).
. "$TOP_SRCDIR/tests/mpi/launch.sh"
python=/usr/bin/python3
script="$TOP_SRCDIR/tests/python/mpi4py_collectives.py"
if [ "$FLAVOUR" != openmpi ] || ! "$python" -c 'import mpi4py, numpy' 2>/dev/null; then
    echo "skip: python3-mpi4py (built for Open MPI) and python3-numpy are needed"
    finish mpi4py
    exit 0
fi
log=$(mktemp)
run() {
    local label=$1 np=$2; shift 2
    local start=$SECONDS
    mpi_run "$np" "$@" -- "$python" "$script" >"$log" 2>&1
    echo "== $label np=$np ($((SECONDS - start)) s)"
    grep -E '^FAIL' "$log" | head -30 | sed "s/^/np=$np /"
    grep -q '^mpi4py: .* passed' "$log" ||
        { FAILED=$((FAILED + 1)); echo "FAIL np=$np: the script did not finish"; tail -5 "$log"; }
    count_results "$log"
}
run "the vendor alone" 3
for np in ${MPI4PY_SIZES:-1 2 3 4}; do
    run "collshim, every algorithm" "$np" "LD_PRELOAD=$LIBCOLLSHIM"
done
rm -f "$log"
finish mpi4py
