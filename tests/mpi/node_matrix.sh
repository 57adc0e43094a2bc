#!/bin/bash
# node_matrix.sh - the node-aware algorithms on faked node layouts
# (COLLSHIM_NODES, a testing aid: shim/layout.c), each forced through
# collcheck, which checks every result and that the forced algorithm ran
# (or, where the layout forbids it, that the vendor ran). Layouts cover 1-4
# nodes, equal and unequal, in blocks and round robin; each case also
# names the algorithms that must have run natively at least once, so a
# layout the shim ignored fails. MPICH busy-polls: np <= 3 there.
#   case: NP SPEC MODE MUST_RUN (comma-separated coll/alg, or -)
. "$TOP_SRCDIR/tests/mpi/launch.sh"
colls=barrier,bcast,reduce,allreduce,gather,scatter,allgather,allgatherv,alltoall,reduce_scatter,reduce_scatter_block
algs=node,node_slices
rooted=barrier/node,bcast/node,reduce/node,allreduce/node
blocks=$rooted,gather/node,scatter/node,allgather/node,allgatherv/node,alltoall/node,reduce_scatter/node,reduce_scatter_block/node
if [ "$FLAVOUR" = openmpi ]; then
    cases="2 0,1 blocking -
3 0,0,1 blocking $blocks
4 rr:2 blocking $rooted,allreduce/node_slices
4 block:2 nonblocking $blocks,allreduce/node_slices
5 0,1,0,1,1 blocking $rooted
5 0,0,0,1,1 schedule $blocks
6 block:3 blocking $blocks,allreduce/node_slices
7 0,1,1,2,2,2,3 nonblocking $blocks
8 block:4 persistent $blocks,allreduce/node_slices
8 block:2 blocking $blocks,allreduce/node_slices
8 rr:4 schedule $rooted,allreduce/node_slices"
else
    cases="2 0,1 blocking -
3 0,0,1 blocking $blocks
3 0,1,0 nonblocking $rooted
3 1,1,0 persistent $blocks"
fi
log=$(mktemp)
# collcheck prints every line of rank 0 on stderr, in order.
collcheck() {
    local np=$1; shift
    mpi_run "$np" "$@" >"$log" 2>&1 </dev/null
}
# run_cases COLLS ALGS: each line of $cases, COLLS with ALGS forced.
run_cases() {
    local colls=$1 algs=$2 np spec mode must cmode start ran env
    while read -r np spec mode must; do
        env=(COLLSHIM_NODES="$spec")
        cmode=$mode
        [ "$mode" = schedule ] && { env+=(COLLSHIM_SCHEDULE_BLOCKING=1); cmode=blocking; }
        start=$SECONDS
        if ! collcheck "$np" "${env[@]}" -- "$TOP_BUILDDIR/tests/mpi/collcheck" --mode "$cmode" --quick \
            --coll "$colls" --alg "$algs" -v; then
            grep -q 'passed, .* failed' "$log" || { FAILED=$((FAILED + 1)); echo "FAIL np=$np $spec $mode: collcheck did not finish"; tail -5 "$log"; }
        fi
        echo "== np=$np COLLSHIM_NODES=$spec $mode $algs ($((SECONDS - start)) s)"
        grep -E '^(FAIL|collcheck)' "$log" | head -50
        count_results "$log"
        ran=$(grep '^ok ' "$log" | grep -v '(restricted' | awk '{print $2}' | sort -u | tr '\n' ' ')
        if [ "$must" = - ]; then
            expect "np=$np $spec: no node-aware algorithm runs (ran: ${ran:-none})" [ -z "$ran" ]
        else
            for alg in ${must//,/ }; do
                expect "np=$np $spec $mode: $alg ran natively" grep -q "^ok   $alg " < <(grep -v '(restricted' "$log")
            done
        fi
    done <<<"$cases"
}
run_cases "$colls" "$algs"

# The flat trees on layouts of several nodes: a parent sends to children
# on other nodes one at a time and posts those on its own node together
# (algorithms/common/tree_send.h); in blocks, round robin and mixed, so
# that both kinds of child come in either order.
trees=bcast/binomial,bcast/knomial,bcast/scatter_allgather,bcast/scatter_rdb_allgather,scatter/binomial,gather/binomial
if [ "$FLAVOUR" = openmpi ]; then
    cases="5 rr:2 blocking $trees
6 0,1,1,0,0,1 nonblocking $trees
8 block:2 schedule $trees
7 0,1,2,0,1,2,0 persistent $trees"
else
    cases="3 0,1,0 blocking $trees
3 0,0,1 nonblocking $trees"
fi
run_cases bcast,scatter,gather binomial,knomial,scatter_allgather,scatter_rdb_allgather
# A malformed spec: said once by rank 0, the real nodes (one here) are used.
collcheck 2 "COLLSHIM_NODES=0,x" -- "$TOP_BUILDDIR/tests/mpi/collcheck" --quick --coll barrier \
    --alg node -v
count_results "$log"
expect "malformed COLLSHIM_NODES said once" [ "$(grep -c "COLLSHIM_NODES='0,x' is not" "$log")" -eq 1 ]
expect "malformed COLLSHIM_NODES: one node, the vendor runs" grep -q '^ok   barrier/node .*(restricted' "$log"
rm -f "$log"
finish node_matrix
