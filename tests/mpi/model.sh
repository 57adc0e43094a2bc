#!/bin/bash
# model.sh - the machine model in the selection order (doc/model.md), on
# two ranks that play two nodes (COLLSHIM_NODES=block:2):
# - out of the box the model is measured in MPI_Init and chooses the
#   collectives it covers; COLLSHIM_VERBOSE and the report say so, and the
#   report gives its figures and start-up cost;
# - a rule of COLLSHIM_TUNE or of a table file overrides it;
# - COLLSHIM_MODEL=0 leaves every call to the tables; with several ranks
#   per node the model is used unless a node has more ranks than cores,
#   and there under COLLSHIM_MODEL=1;
# - COLLSHIM_MACHINE writes the measured model to a file that can be read,
#   the next job reads it instead of measuring, and a file that is not a
#   model is refused with a line that says why (then the model is measured);
#   on three one-rank nodes rank 0 measures a flat tree root's overhead.
# - under SMPI, where a 16 KiB swap's bytes take too little of its latency,
#   beta_inter comes from swaps of 64 and 256 KiB and matches the link;
#   hosts behind two leaf switches stand in two groups of nodes, hosts
#   behind one or on a torus in one; the per-byte time by node distance
#   is a leaf's shared link up and a torus's shared links, and the same
#   at every distance behind one switch; a parent's messages at once
#   share one switch's link and leave on a torus's several; the model
#   chooses scattered alltoall's window;
# - the eager probe finds the largest of 4, 16, 32 and 64 KiB that goes
#   eagerly between the nodes, at two nodes and at four (where rank 0's
#   pair leaves it to the others); a file may set the limit or leave it out.
. "$TOP_SRCDIR/tests/mpi/launch.sh"
dir="$TOP_BUILDDIR/tests/mpi"
log=$(mktemp)
two=(LD_PRELOAD="$LIBCOLLSHIM" COLLSHIM_NODES=block:2 COLLSHIM_VERBOSE=1)
prog="$dir/plain_c"

# Under SMPI, two hosts 1 ms apart on links of 1.25 GB/s: the 16 KiB
# swap's bytes take 13 us of its 1 ms, too little to tell from the
# latency's noise on a real network, so beta_inter comes from swaps of 64
# and 256 KiB, and it is the link's 0.8 ns a byte (SMPI's TCP model adds a
# few per cent).
if [ "$FLAVOUR" = smpi ]; then
    # A cluster of HOSTS simulated hosts, LATENCY a link, joined as
    # TOPOLOGY (the cluster's attributes; none: one switch), into FILE.
    platform() {
        cat >"$1" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <config>
    <prop id="smpi/bw-factor" value="0:1.0"/>
    <prop id="smpi/lat-factor" value="0:1.0"/>
    <prop id="smpi/simulate-computation" value="no"/>
    $5
  </config>
  <zone id="world" routing="Full">
    <cluster id="c" prefix="node-" suffix="" radical="0-$(($2 - 1))" speed="10Gf" core="1"
             bw="1.25GBps" lat="$3" bb_bw="100GBps" bb_lat="0us" $4/>
  </zone>
</platform>
XML
    }
    platform "$dir/model-far.xml" 2 500us
    SMPI_PLATFORM="$dir/model-far.xml" SMPI_PPN=1 mpi_run 2 -- "$TOP_BUILDDIR/collbench" \
        -c allreduce -m 8:8 -a auto -i 1:1 -t 0 -w 1 -M 0 -q -o "$dir/model-far.csv" >"$log" 2>&1
    expect "model: where 16 KiB are too few bytes, beta_inter comes from larger swaps" \
        grep -q "^# collshim machine model.*, beta_inter from 64 and 256 KiB swaps)" "$dir/model-far.csv"
    beta=$(grep -o "beta_inter [0-9.e+-]*" "$dir/model-far.csv" | head -1 | cut -d' ' -f2)
    expect "model: and it is the link's 0.8 ns a byte, within 25% (measured $beta)" \
        awk -v b="$beta" 'BEGIN { exit !(b != "" && b >= 0.75 * 0.8e-9 && b <= 1.25 * 0.8e-9) }'
    # The model measured on NP simulated hosts, 10 us a link, joined as
    # the cluster's TOPOLOGY, into model-groups.csv's header.
    measure_on() {
        platform "$dir/model-groups.xml" "$1" "${3:-10us}" "$2" "${4:-}"
        SMPI_PLATFORM="$dir/model-groups.xml" SMPI_PPN=1 mpi_run "$1" -- "$TOP_BUILDDIR/collbench" \
            -c barrier -m 8:8 -a auto -i 1:1 -t 0 -w 1 -M 0 -q -o "$dir/model-groups.csv" >"$log" 2>&1
    }
    # Its groups of nodes (group_nodes and alpha_group), and a figure by
    # node distance (NAME: beta_distance, alpha_exchange, alpha_shift;
    # commas between).
    groups() { grep -o "group_nodes [0-9]* alpha_group [0-9.e+-]*" "$dir/model-groups.csv" | head -1; }
    distances() { grep -o "${1:-beta_distance} [0-9.,e+-]*" "$dir/model-groups.csv" | head -1 | cut -d' ' -f2; }
    # Whether figure NAME's value at each distance is within 10% of FACTOR
    # times alpha_exchange's first (the nearest node's swap).
    latencies() {
        awk -v x="$(distances alpha_exchange)" -v s="$(distances "$1")" -v want="$2" 'BEGIN {
            n = split(want, w, ","); split(x, e, ","); m = split(s, f, ",")
            if (n != m || e[1] <= 0) exit 1
            for (i = 1; i <= n; i++) if (f[i] < 0.9 * w[i] * e[1] || f[i] > 1.1 * w[i] * e[1]) exit 1 }'
    }
    # The swap's latencies SWAP and the shift's SHIFT, as latencies' FACTORs.
    swap_and_shift() { latencies alpha_exchange "$1" && latencies alpha_shift "$2"; }
    # Two leaf switches of four hosts, one link up from each: two links
    # inside a leaf, four between, so groups of 4, 20 us apart, and the
    # four hosts of a leaf share its link to the other: 4 times the
    # per-byte time at a distance of 4 nodes.
    measure_on 8 'topology="FAT_TREE" topo_parameters="2;4,2;1,1;1,1"'
    groups=$(groups) distances=$(distances)
    expect "model: two leaf switches of 4 hosts are groups of 4, 20 us apart within 25% ($groups)" \
        awk -v g="$groups" 'BEGIN { split(g, f, " "); exit !(f[2] == 4 && f[4] >= 15e-6 && f[4] <= 25e-6) }'
    expect "model: their leaves' 4 hosts share one link up, 4 times the per-byte time within 25% ($distances)" \
        awk -v d="$distances" 'BEGIN { n = split(d, f, ","); exit !(n == 3 && f[1] == 1 && f[2] == 1 && f[3] >= 3 && f[3] <= 5) }'
    # One switch: one group, and every distance at the link's speed.
    measure_on 8 ''
    groups=$(groups) distances=$(distances)
    expect "model: one switch is one group ($groups)" test "$groups" = "group_nodes 0 alpha_group 0"
    expect "model: one switch gives every distance the same per-byte time ($distances)" \
        test "$distances" = "1,1,1"
    expect "model: and the same latency to swap and to shift ($(distances alpha_exchange); $(distances alpha_shift))" \
        swap_and_shift 1,1,1 1,1,1
    # A 4 x 4 torus, whose hops rise and fall with the distance (1, 2, 1,
    # 2 links to nodes 1, 2, 4, 8): one group; its 2-link exchanges share
    # a link between two messages, twice the per-byte time.
    measure_on 16 'topology="TORUS" topo_parameters="4,4"'
    groups=$(groups) distances=$(distances)
    expect "model: a torus is one group ($groups)" test "$groups" = "group_nodes 0 alpha_group 0"
    expect "model: a torus's exchanges 2 links long take twice the per-byte time within 25% ($distances)" \
        awk -v d="$distances" 'BEGIN { n = split(d, f, ","); exit !(n == 4 && f[1] == 1 && f[3] == 1 && f[2] >= 1.5 && f[2] <= 2.5 && f[4] >= 1.5 && f[4] <= 2.5) }'
    # Its swaps with the nodes 1 and 4 away cross 1 link, with 2 and 8 away
    # 2; in a shift its farthest message crosses 2, 3, 1 and 2 (node 3 to
    # node 4 and node 3 to node 5 cross a row, shifts of 4 and 8 nodes
    # stay in a column): each link adds its 10 us.
    expect "model: a torus's rounds wait for their farthest message ($(distances alpha_exchange); $(distances alpha_shift))" \
        swap_and_shift 1,2,1,2 2,3,1,2
    # A parent's eager messages to the nodes 1, 2, 4, ... away, at 1 us a
    # link (16 KiB then take longer than a message's latency): behind one
    # switch they share its one link and arrive together; on the 4 x 4
    # torus they leave on two links, two on each, so the last arrives one
    # message's bytes after the lone one's, not three.
    fans() { grep -o "fan_nodes [0-9]* fan_share [0-9.e+-]* fan_first [0-9.e+-]*" "$dir/model-groups.csv" | head -1; }
    measure_on 8 '' 1us
    fans=$(fans)
    expect "model: one switch's link carries a parent's messages at once, which arrive together ($fans)" \
        awk -v f="$fans" 'BEGIN { split(f, x, " "); exit !(x[2] == 3 && x[4] >= 0.75 && x[4] <= 1.25 && x[6] >= 0.75) }'
    measure_on 16 'topology="TORUS" topo_parameters="4,4"' 1us
    fans=$(fans)
    expect "model: a torus's two links carry them in a third of the time ($fans)" \
        awk -v f="$fans" 'BEGIN { split(f, x, " "); exit !(x[2] == 4 && x[4] >= 0.2 && x[4] <= 0.5) }'
    # Posting a message's receive and send: where MPI_Isend costs 5 us of
    # the sender's time (smpi/ois), 5 us (overhead_post).
    measure_on 4 '' 10us '<prop id="smpi/ois" value="0:5e-6:0"/>'
    post=$(grep -o "overhead_post [0-9.e+-]*" "$dir/model-groups.csv" | head -1 | cut -d' ' -f2)
    expect "model: where an Isend costs 5 us, posting a message takes 5 us within 10% ($post)" \
        awk -v p="$post" 'BEGIN { exit !(p != "" && p >= 4.5e-6 && p <= 5.5e-6) }'
    # The model chooses the window of scattered alltoall: on 16 hosts of
    # one switch, every exchange at once (results/model.md, windows).
    platform "$dir/model-window.xml" 16 10us
    SMPI_PLATFORM="$dir/model-window.xml" SMPI_PPN=1 mpi_run 16 COLLSHIM_VERBOSE=1 -- \
        "$TOP_BUILDDIR/collbench" -c alltoall -m 64k:64k -a auto -i 1:1 -t 0 -w 1 -M 0 -q \
        -o "$dir/model-window.csv" >"$log" 2>&1
    expect "model: alltoall of 64 KiB blocks on 16 hosts runs every exchange at once" \
        grep -Eq "collshim: alltoall np=16 .* -> scattered:outstanding=15 \(model\)" "$log"
    rm -f "$log" "$dir"/model-far.* "$dir"/model-groups.* "$dir"/model-window.*
    echo "skip the rest: SMPI runs the program without LD_PRELOAD, and a host has 16 ranks here"
    finish model
    exit
fi

# The report's fields after eager_inter, the figures by distance only where measured.
model_rest='handshake [0-9.e+-]+ eager_waits [01] group_nodes [0-9]+ alpha_group [0-9.e+-]+ distance_nodes [0-9]+ fan_nodes [0-9]+ fan_share [0-9.e+-]+ fan_first [0-9.e+-]+ overhead_post [0-9.e+-]+ (alpha_exchange [0-9.,e+-]+ alpha_shift [0-9.,e+-]+ beta_distance [0-9.,e+-]+ )?'
mpi_run 2 "${two[@]}" COLLSHIM_REPORT="$dir/model-report.txt" -- "$prog" >"$log" 2>&1
expect "model: right results" grep -q "plain_c: ok (np=2)" "$log"
expect "model: it chose allreduce on two nodes" \
    grep -Eq "collshim: allreduce np=2 bytes=.* nodes=2 ppn=1 -> [a-z_]+ \(model\)" "$log"
expect "model: the report gives the measured model and its start-up cost" \
    grep -Eq "^# machine model: alpha_intra .* gamma [0-9.e+-]+ eager_inter [0-9]+ $model_rest\(measured in MPI_Init, start-up cost [0-9.]+ ms(, beta_inter from 64 and 256 KiB swaps)?\)" \
    "$dir/model-report.txt"
expect "model: the report says the model chose allreduce" \
    grep -Eq "^  allreduce +[a-z_]+ +.*\[model\]" "$dir/model-report.txt"
# The eager probe, with Open MPI's ranks on TCP as between real nodes:
# its TCP transport sends 32 KiB eagerly but not 64 KiB (its limit is
# 64 KiB with the header), and under a limit of 16 KiB only 4 KiB.
if [ "$FLAVOUR" = openmpi ]; then
    mpi_run 2 "${two[@]}" OMPI_MCA_btl=self,tcp COLLSHIM_REPORT="$dir/model-eager.txt" \
        -- "$prog" >"$log" 2>&1
    expect "model: the probe finds 32 KiB sent eagerly over TCP" \
        grep -Eq "^# machine model: .* eager_inter 32768 $model_rest\(" "$dir/model-eager.txt"
    mpi_run 2 "${two[@]}" OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_eager_limit=16384 \
        COLLSHIM_REPORT="$dir/model-eager.txt" -- "$prog" >"$log" 2>&1
    expect "model: under a 16 KiB eager limit the probe finds 4 KiB eager, 16 KiB not" \
        grep -Eq "^# machine model: .* eager_inter 4096 $model_rest\(" "$dir/model-eager.txt"
    # At four nodes the pair of nodes 2 and 3 probes, rank 0's does not.
    mpi_run 4 LD_PRELOAD="$LIBCOLLSHIM" COLLSHIM_NODES=block:4 OMPI_MCA_btl=self,tcp \
        COLLSHIM_REPORT="$dir/model-eager.txt" -- "$prog" >"$log" 2>&1
    expect "model: at four nodes the other pair's probe finds 32 KiB sent eagerly" \
        grep -Eq "^# machine model: .* eager_inter 32768 $model_rest\(" "$dir/model-eager.txt"
fi

mpi_run 2 "${two[@]}" "COLLSHIM_TUNE=allreduce @linear" -- "$prog" >"$log" 2>&1
expect "COLLSHIM_TUNE overrides the model" \
    grep -Eq "collshim: allreduce np=2 .* -> linear \(COLLSHIM_TUNE\)" "$log"
printf 'allreduce @ring\n' >"$dir/model-table.txt"
mpi_run 2 "${two[@]}" COLLSHIM_TUNING_FILE="$dir/model-table.txt" -- "$prog" >"$log" 2>&1
expect "a table file overrides the model" \
    grep -Eq "collshim: allreduce np=2 .* -> ring \(table file\)" "$log"
expect "the model still chooses what the table does not cover" \
    grep -Eq "collshim: bcast np=2 .* \(model\)" "$log"

mpi_run 2 "${two[@]}" COLLSHIM_MODEL=0 COLLSHIM_REPORT="$dir/model-off.txt" -- "$prog" >"$log" 2>&1
expect "COLLSHIM_MODEL=0: the built-in table chooses" \
    grep -Eq "collshim: allreduce np=2 .* \(built-in\)" "$log"
expect "COLLSHIM_MODEL=0: the model chooses nothing" bash -c "! grep -q '(model)' '$log'"
expect "COLLSHIM_MODEL=0: the report says there is no model" \
    grep -q "^# machine model: none (COLLSHIM_MODEL=0)" "$dir/model-off.txt"

# Several ranks per node: out of the box the model is measured and asked
# where no node has more ranks than cores (COLLSHIM_CORES says how many a
# node has) and a node's ranks swap 8 bytes within 10 us; where they wait
# for CPUs longer (4 ranks on this machine's cores may), it is not asked
# and the report gives the figure; on an oversubscribed node it is not
# measured (the built-in rules were measured to beat it there), and
# COLLSHIM_MODEL=1 asks it.
four=(LD_PRELOAD="$LIBCOLLSHIM" COLLSHIM_NODES=block:2 COLLSHIM_VERBOSE=1)
mpi_run 4 "${four[@]}" COLLSHIM_CORES=4 COLLSHIM_REPORT="$dir/model-2x2-cores.txt" -- "$prog" >"$log" 2>&1
expect "2 nodes of 2, 4 cores: right results" grep -q "plain_c: ok (np=4)" "$log"
# the model asked with alpha_intra <= 10 us, or not asked with it above
asked_as_measured() {
    local line alpha
    line=$(grep "^# machine model:" "$dir/model-2x2-cores.txt")
    if alpha=$(echo "$line" | sed -n 's/.*wait for CPUs: alpha_intra \([0-9]*\) us, above 10;.*/\1/p') &&
        [ -n "$alpha" ]; then
        echo "not asked: alpha_intra $alpha us"
        [ "$alpha" -gt 10 ] && ! grep -q '(model)' "$log"
    else
        alpha=$(echo "$line" | sed -n 's/.*alpha_intra \([0-9.e+-]*\) .*/\1/p')
        echo "asked: alpha_intra $alpha s"
        awk -v a="$alpha" 'BEGIN { exit !(a != "" && a <= 10e-6) }' &&
            grep -Eq "collshim: allreduce np=4 bytes=.* nodes=2 ppn=2 .*-> [a-z_]+ \(model\)" "$log"
    fi
}
expect "2 nodes of 2, 4 cores: the model is asked unless the ranks wait for CPUs" asked_as_measured
mpi_run 4 "${four[@]}" COLLSHIM_CORES=1 COLLSHIM_REPORT="$dir/model-2x2.txt" -- "$prog" >"$log" 2>&1
expect "2 nodes of 2, 1 core: right results" grep -q "plain_c: ok (np=4)" "$log"
expect "2 nodes of 2, 1 core: the model chooses nothing out of the box" bash -c "! grep -q '(model)' '$log'"
expect "2 nodes of 2, 1 core: the report says why there is no model" \
    grep -q "^# machine model: none (several ranks per node, more than cores; COLLSHIM_MODEL=1" "$dir/model-2x2.txt"
mpi_run 4 "${four[@]}" COLLSHIM_CORES=1 COLLSHIM_MODEL=1 -- "$prog" >"$log" 2>&1
expect "2 nodes of 2, 1 core, COLLSHIM_MODEL=1: the model chooses allreduce" \
    grep -Eq "collshim: allreduce np=4 bytes=.* nodes=2 ppn=2 .*-> [a-z_]+ \(model\)" "$log"

file="$dir/model-machine.txt"
rm -f "$file"
mpi_run 2 "${two[@]}" COLLSHIM_MACHINE="$file" -- "$prog" >"$log" 2>&1
expect "COLLSHIM_MACHINE: the measured model is written" \
    bash -c "[ \$(grep -Ec '^(alpha|beta)_(intra|inter|lone) +[0-9.]+e[-+][0-9]+|^gamma |^overhead(_lone)? ' '$file') = 8 ]"
field() { awk -v name="$1" '$1 == name {print $2}' "$file"; }
# A job on two nodes that reads $file: whether its report gives the model
# as REPORT (after "# machine model: "), or it refuses the file, saying WHY.
reads() {
    mpi_run 2 "${two[@]}" COLLSHIM_MACHINE="$file" COLLSHIM_REPORT="$dir/model-read.txt" \
        -- "$prog" >"$log" 2>&1
    grep -q "^# machine model: $1 ($file)\$" "$dir/model-read.txt"
}
refuses() {
    mpi_run 2 "${two[@]}" COLLSHIM_MACHINE="$file" -- "$prog" >"$log" 2>&1
    grep -q "COLLSHIM_MACHINE=$file: $1; the model is measured" "$log"
}
expect "COLLSHIM_MACHINE: two nodes have no fan, overhead_lone is the overhead" \
    [ "$(field overhead_lone)" = "$(field overhead)" ]
sed -i 's/^alpha_inter .*/alpha_inter 1.5e+00/' "$file"
expect "COLLSHIM_MACHINE: the next job reads it" reads ".*alpha_inter 1.5 .*"
expect "COLLSHIM_MACHINE: and still gets right results" grep -q "plain_c: ok (np=2)" "$log"
sed -i 's/^eager_inter .*/eager_inter 12345/' "$file"
expect "COLLSHIM_MACHINE: its eager limit is read" reads ".*eager_inter 12345 .*"
sed -i '/^eager_inter /d' "$file"
expect "COLLSHIM_MACHINE: a file without the eager limit is read (as 0)" reads ".*alpha_inter 1.5 .*"
printf 'alpha_exchange 1e-6 2e-6 1e-6\nalpha_shift 3e-6 3e-6 2e-6\nbeta_distance 1 2 1.5  # a comment\n' >>"$file"
expect "COLLSHIM_MACHINE: its rounds by node distance are read" \
    reads ".*alpha_group [0-9.e+-]* distance_nodes 0 fan_nodes 0 fan_share 0 fan_first 0 overhead_post [0-9.e+-]* alpha_exchange 1e-06,2e-06,1e-06 alpha_shift 3e-06,3e-06,2e-06 beta_distance 1,2,1.5"
sed -i 's/^beta_distance .*/beta_distance 1 0.5 1/' "$file"
expect "COLLSHIM_MACHINE: a per-byte time by distance under 1 is refused" \
    refuses "beta_distance takes up to 16 numbers of at least 1"
printf 'alpha_exchange 1e-6 2e-6 1e-6\nalpha_shift 3e-6 3e-6 2e-6\nbeta_distance 1 2\n' >>"$file"
expect "COLLSHIM_MACHINE: figures for different numbers of distances are refused" \
    refuses "alpha_exchange and beta_distance give different numbers of distances"
sed -i '/^alpha_exchange /d; /^alpha_shift /d; /^beta_distance /d' "$file"
printf 'fan_nodes 3\nfan_share 0.5\nfan_first 0.9\n' >>"$file"
expect "COLLSHIM_MACHINE: a parent's messages at once are read" \
    reads ".*distance_nodes 0 fan_nodes 3 fan_share 0.5 fan_first 0.9 overhead_post [0-9.e+-]*"
sed -i 's/^overhead_post .*/overhead_post 2.5e-6/' "$file"
expect "COLLSHIM_MACHINE: a message's posting is read" reads ".*fan_first 0.9 overhead_post 2.5e-06"
sed -i 's/^fan_first .*/fan_first 1.5/' "$file"
expect "COLLSHIM_MACHINE: a share of the first child's wait above 1 is refused" \
    refuses "fan_first 1.5 is above 1"
printf 'alpha_inter 1e-5\nlatency 3\n' >"$file"
expect "COLLSHIM_MACHINE: a field that is not the model's is refused" \
    refuses "latency is not a field of the model"
expect "COLLSHIM_MACHINE: then the model is measured and chooses" grep -q "(model)" "$log"
# Three one-rank nodes: world rank 0 swaps with the two others at once, its
# own measurement of overhead_lone.
rm -f "$file"
mpi_run 3 LD_PRELOAD="$LIBCOLLSHIM" COLLSHIM_NODES=block:3 COLLSHIM_MACHINE="$file" -- "$prog" >"$log" 2>&1
expect "three nodes: right results" grep -q "plain_c: ok (np=3)" "$log"
at_most() { awk -v a="$(field "$1")" -v b="$(field "$2")" 'BEGIN { exit !(a != "" && b != "" && a + 0 <= b + 0) }'; }
expect "three nodes: overhead_lone is measured, at most the overhead" at_most overhead_lone overhead
expect "three nodes: alpha_lone is at most alpha_inter" at_most alpha_lone alpha_inter
# Several ranks per node, more than cores: a file asked for is measured and
# written, and the model still chooses nothing for those calls out of the box.
rm -f "$file"
mpi_run 4 "${four[@]}" COLLSHIM_CORES=1 COLLSHIM_MACHINE="$file" -- "$prog" >"$log" 2>&1
expect "COLLSHIM_MACHINE at 2 nodes of 2: the model is written" \
    bash -c "[ \$(grep -Ec '^(alpha|beta)_(intra|inter|lone) +[0-9.]+e[-+][0-9]+|^gamma |^overhead(_lone)? ' '$file') = 8 ]"
expect "COLLSHIM_MACHINE at 2 nodes of 2: the model chooses nothing out of the box" \
    bash -c "! grep -q 'nodes=2 ppn=2 .*(model)' '$log'"
expect "COLLSHIM_MACHINE at 2 nodes of 2: right results" grep -q "plain_c: ok (np=4)" "$log"
rm -f "$log" "$file" "$dir"/model-*.txt
finish model
