#!/bin/bash
# rsb 128 KiB, Open MPI, vcluster 8x1: the program's measure against collbench's
set -u
vc=/work/shared/vcluster/vcluster.sh; B=/work/main/build-openmpi; lib=$B/.libs/libcollshim.so
"$vc" up 8 --delay 50us --rate 1gbit
trap '"$vc" down' EXIT
run() { "$vc" run 8 --impl ompi --preload "$lib" --rt --timeout 900 "$@" < /dev/null; }
for rep in 1 2 3; do
  for t in ring vendor; do
    echo "== rep $rep learnbench $t"
    run --mpiarg -x --mpiarg COLLSHIM_TUNING_FILE=/tmp/rsb/$t.table -- $B/learnbench -m 128k:128k -s 300 -r 3 2>&1 | tail -1
  done
  for f in window barrier; do
    echo "== rep $rep collbench $f"
    run -- $B/collbench -c reduce_scatter_block -a vendor,ring -m 128k:128k -F $f -t 0.5 -i 20:400 2>&1 | tail -4
  done
done
