#!/bin/bash
# the other Open MPI per-size "over" cases of results/learning.md: the program's measure against collbench's
set -u
vc=/work/shared/vcluster/vcluster.sh; B=/work/main/build-openmpi; lib=$B/.libs/libcollshim.so
"$vc" up 8 --delay 50us --rate 1gbit
trap '"$vc" down' EXIT
run() { "$vc" run 8 --impl ompi --preload "$lib" --rt --timeout 900 "$@" < /dev/null; }
# coll  key-size  collbench-size  algorithm
cases="allreduce:128k:128k:ring bcast:1k:1k:linear bcast:4k:4k:linear alltoall:256k:32k:pairwise"
for c in $cases; do IFS=: read coll key csize alg <<< "$c"
  echo "$coll ${key}-${key}x @$alg" | sed "s/${key}x/$(( $(numfmt --from=iec ${key^^}) * 2 ))/" > /tmp/rsb/$coll-$key-alg.table
  echo "$coll ${key}-$(( $(numfmt --from=iec ${key^^}) * 2 )) @vendor" > /tmp/rsb/$coll-$key-vendor.table
done
for rep in 1 2 3; do
  for c in $cases; do IFS=: read coll key csize alg <<< "$c"
    for t in alg vendor; do
      echo "== rep $rep $coll $key learnbench $t"
      run --mpiarg -x --mpiarg COLLSHIM_TUNING_FILE=/tmp/rsb/$coll-$key-$t.table -- $B/learnbench -m $key:$key -s 300 -r 3 2>&1 | tail -1
    done
    for f in window barrier; do
      echo "== rep $rep $coll $key collbench $f"
      run -- $B/collbench -c $coll -a vendor,$alg -m $csize:$csize -F $f -t 0.5 -i 20:1000 2>&1 | tail -1
    done
  done
done
