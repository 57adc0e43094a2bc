#!/bin/bash
# schedule_check.sh - every algorithm's schedules for all ranks of a
# communicator, recorded in one process and run against each other
# without moving data (schedule_check.c): one process, no peers.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
log=$(mktemp)
start=$SECONDS
mpi_run 1 -- "$TOP_BUILDDIR/tests/unit/schedule_check" >"$log" 2>&1
echo "== ($((SECONDS - start)) s)"
grep -E '^(FAIL|schedule_check)' "$log" | head -40
grep -q '^schedule_check: .* passed' "$log" ||
    { FAILED=$((FAILED + 1)); echo "FAIL: schedule_check did not finish"; tail -5 "$log"; }
count_results "$log"
rm -f "$log"
finish schedule_check
