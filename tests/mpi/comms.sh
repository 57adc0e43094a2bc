#!/bin/bash
# comms.sh - the communicator budget (comms.c): as many communicators as
# the vendor allows, each with a native collective; concurrent threads on
# their own communicators; past the last tag id the vendor runs the call.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
run() {
    mpi_run "$@" >"$log" 2>&1
    grep -E '^(ok|FAIL|  )' "$log"
    grep -q 'comms: ' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL comms $*: did not finish"; tail -5 "$log"; }
    count_results "$log"
}
run 2 -- "$TOP_BUILDDIR/tests/mpi/comms"
run 2 -- "$TOP_BUILDDIR/tests/mpi/comms" threads
run 2 COLLSHIM_TEST_TAG_IDS=8 COLLSHIM_VERBOSE=1 -- "$TOP_BUILDDIR/tests/mpi/comms" exhaust 8
expect "past the last id: said once under COLLSHIM_VERBOSE" \
    test "$(grep -c 'goes to the vendor: every tag id is taken' "$log")" -eq 1
rm -f "$log"
finish comms
