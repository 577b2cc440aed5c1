#!/usr/bin/env bash
# libmapsim-reorder.so end to end: tests/mpi/reorder_program.c on 16 ranks of this machine, which a
# hostfile spreads over 8 "nodes" of a two-level tree. With reorder = 1 each call's new rank -> node
# assignment must equal `mapsim map` on the same graph, network and allocation, and the program's
# own checks (MPI_Cart_shift, neighbour queries, MPI_Neighbor_alltoall) must pass; reorder = 0, an
# unknown host and a too large graph keep every rank. Usage: mpi_reorder_test.sh MAPSIM LIBREORDER
# PROGRAM. Exit 77 (skipped) when no mpirun is installed.
mapsim=$1 lib=$2 program=$3
source "$(dirname "$0")/mpi_lib.sh" reorder
network=tree2:switches=4,nodes_per_switch=4  # node-0 .. node-15, four per leaf switch
# World rank r on the 3r mod 8-th of 8 nodes (two per leaf), two ranks per node: a scattered order.
occupied=(node-0 node-1 node-4 node-5 node-8 node-9 node-12 node-13)
for r in $(seq 0 15); do echo "${occupied[$(((3 * r) % 8))]}"; done >"$tmp/hosts"
printf '%s\n' "${occupied[@]}" >"$tmp/allocation"  # network order, as the library lists the nodes
run() {  # run NAME REORDER: the program under the library, the MAPSIM_* variables that are set exported
  local exports=()
  for variable in MAPSIM_NETWORK MAPSIM_HOSTFILE MAPSIM_REORDER_LOG MAPSIM_REORDER_MAX_EDGES; do
    [ -n "${!variable+set}" ] && exports+=(-x "$variable")
  done
  timeout "${limit:-120}" mpirun "${root[@]}" --oversubscribe -np 16 -x LD_PRELOAD="$lib" "${exports[@]}" \
    "$program" "$2" >"$tmp/$1.out" 2>"$tmp/$1.err"
  local status=$?
  check "$1: exits 0 and every check of the program passes" grep -q "^failed checks 0$" "$tmp/$1.out"
  [ $status -eq 0 ] || { echo "  exit $status" >&2; sed 's/^/  mpirun: /' "$tmp/$1.err" >&2; failed=1; }
}
identity() {  # identity NAME: every call kept every rank ("CALL WORLD_RANK NEW_RANK" lines; ring leaves rank 15 out)
  awk '$1 ~ /^(cart|ring|dist_adjacent|dist_general|graph)$/ { n++; if ($2 != $3 && !($1 == "ring" && $2 == 15 && $3 == -1)) bad = 1 }
       END { exit bad || n != 80 }' "$tmp/$1.out"
}
moved() { ! identity "$1"; }
export MAPSIM_NETWORK=$network MAPSIM_HOSTFILE="$tmp/hosts"
unset MAPSIM_REORDER_MAX_EDGES

# The graphs the program creates, as mapsim graph files: v talks to v+1, v-1 (weight 1) and v+8
# (weight 10), listed by both ends; a pair's volume is half the sum of its two directions.
python3 - "$tmp" <<'PY'
import sys
n = 16
for name, heavy in (("weighted", 10), ("unweighted", 1)):
    volume = {}
    for v in range(n):
        for u, w in (((v + 1) % n, 1), ((v - 1) % n, 1), ((v + n // 2) % n, heavy)):
            key = (min(u, v), max(u, v))
            volume[key] = volume.get(key, 0) + w
    with open(f"{sys.argv[1]}/{name}.txt", "w") as out:
        for (a, b), w in sorted(volume.items()):
            out.write(f"{a} {b} {w / 2:g}\n")
PY

MAPSIM_REORDER_LOG="$tmp/reorder.log" run reorder 1
check "reorder: no warning" bash -c "! grep -q 'mapsim-reorder' '$tmp/reorder.err'"
same_as_map() {  # same_as_map RUN CALL PROCESS [MAPPER]: new rank -> node of CALL equals mapsim map's placement
  "$mapsim" map --topology $network --process "$3" --mapper "${4:-best}" --allocation "list:$tmp/allocation" --slots 2 \
    --hostlist "$tmp/$2.map" >/dev/null || return 1
  awk -v call="$2" 'NR == FNR { host[FNR - 1] = $1; next } FILENAME ~ /out$/ && $1 == call { node[$3] = host[$2] }
                    FILENAME ~ /map$/ { if (node[FNR - 1] != $1) bad = 1; n++ }
                    END { exit bad || n != 16 }' "$tmp/hosts" "$tmp/$1.out" "$tmp/$2.map"
}
check "MPI_Cart_create 4 x 4: new rank -> node as mapsim map --process mesh:4x4" same_as_map reorder cart mesh:4x4
check "MPI_Dist_graph_create_adjacent: as mapsim map on its weighted graph" same_as_map reorder dist_adjacent "graph:$tmp/weighted.txt"
check "MPI_Dist_graph_create: as mapsim map on its weighted graph" same_as_map reorder dist_general "graph:$tmp/weighted.txt"
check "MPI_Graph_create: as mapsim map on its graph" same_as_map reorder graph "graph:$tmp/unweighted.txt"
check "reorder: the ranks moved" moved reorder
check "log: five calls, mapper best" test "$(grep -c '^mapper best ' "$tmp/reorder.log")" -eq 5
ring_reordered() {  # world ranks 0..14 take ranks 0..14 of the 1-D grid, world rank 15 none
  awk '$1 == "ring" && $2 < 15 { seen[$3]++ } $1 == "ring" && $2 == 15 && $3 != -1 { bad = 1 }
       END { for (r = 0; r < 15; r++) if (seen[r] != 1) bad = 1; exit bad }' "$tmp/reorder.out"
}
check "a periodic 1-D grid of 15: world ranks 0..14 take its ranks, world rank 15 left out" ring_reordered
# Volumes: the grid's 24 edges 1 each; the distributed graphs' ring 16 x 1 and 8 pairs of 10.
check "log: the graphs' volumes" test "$(grep -c -e '^MPI_Cart_create: 16 ranks, graph: mesh 4x4, 24 edges, volume 24$' \
  -e '^MPI_Dist_graph_create\(_adjacent\)\?: 16 ranks, graph: 24 edges, volume 96$' \
  -e '^MPI_Graph_create: 16 ranks, graph: 24 edges, volume 24$' "$tmp/reorder.log")" -eq 4
# The scattered order costs the grid 192 hop-bytes; mapsim's placement 96.
check "log: the grid's hop-bytes fall" grep -q "^  hop_bytes  *192 -> 96$" "$tmp/reorder.log"

MAPSIM_REORDER_LOG="$tmp/untouched.log" run untouched 0
check "reorder = 0: every rank kept" identity untouched
check "reorder = 0: nothing logged, no warning" bash -c "[ ! -s '$tmp/untouched.log' ] && [ ! -s '$tmp/untouched.err' ]"

sed '6s/.*/nowhere/' "$tmp/hosts" >"$tmp/unknown-hosts"
MAPSIM_HOSTFILE="$tmp/unknown-hosts" MAPSIM_REORDER_LOG="$tmp/unknown.log" run unknown 1
check "unknown host: every rank kept" identity unknown
check "unknown host: one warning for five calls" test "$(grep -c 'mapsim-reorder: warning' "$tmp/unknown.err")" -eq 1
check "unknown host: the warning names it" grep -q "unknown host 'nowhere' (rank 5)" "$tmp/unknown.err"
check "unknown host: each call logged" test "$(grep -c 'identity order kept' "$tmp/unknown.log")" -eq 5

MAPSIM_REORDER_MAX_EDGES=14 run large 1  # the grids have 24 and 15 edges, the distributed graphs 48 directed ones
check "graph too large: every rank kept" identity large
check "graph too large: one warning" test "$(grep -c 'mapsim-reorder: warning.*MAPSIM_REORDER_MAX_EDGES=14' "$tmp/large.err")" -eq 1

# A mapper that fails on some graphs: adjacency maps grids only.
MAPSIM_MAPPER=adjacency MAPSIM_REORDER_LOG="$tmp/adjacency.log" run adjacency 1
check "MAPSIM_MAPPER=adjacency: the grid as mapsim map --mapper adjacency" same_as_map adjacency cart mesh:4x4 adjacency
check "MAPSIM_MAPPER=adjacency: the graphs keep every rank" \
  awk '$1 ~ /^(dist_adjacent|dist_general|graph)$/ { n++; if ($2 != $3) bad = 1 } END { exit bad || n != 48 }' "$tmp/adjacency.out"
check "MAPSIM_MAPPER=adjacency: one warning for three failures" test "$(grep -c 'mapsim-reorder: warning' "$tmp/adjacency.err")" -eq 1
check "MAPSIM_MAPPER=adjacency: each failure logged" test "$(grep -c 'identity order kept' "$tmp/adjacency.log")" -eq 3

# No hostfile: each process's node is its MPI_Get_processor_name, here one node of a network file.
cat >"$tmp/one-host.yaml" <<YAML
switches: [s0, s1]
nodes: [{name: $(hostname), switch: s0}, {name: elsewhere, switch: s1}]
links: [[s0, s1]]
YAML
MAPSIM_HOSTFILE= MAPSIM_NETWORK="file:$tmp/one-host.yaml" MAPSIM_REORDER_LOG="$tmp/one-host.log" run one-host 1
check "processor names: all 16 ranks on $(hostname), no warning" \
  bash -c "grep -q '1 nodes occupied: $(hostname)x16$' '$tmp/one-host.log' && [ ! -s '$tmp/one-host.err' ]"
check "processor names: one node, so every rank kept" identity one-host

# The log is never an input (the hostfile, the network file, by name, link or hard link), a link or a
# FIFO: refused with one warning naming the variable and what it names, the run reordered without it.
log_refused() {  # log_refused NAME TEXT: exits 0, ranks moved, one warning containing TEXT
  check "$1: the ranks moved without the log" moved "$1"
  check "$1: one warning naming MAPSIM_REORDER_LOG" \
    test "$(grep -c "^mapsim-reorder: warning: MAPSIM_REORDER_LOG not written: .*$2.*; the run goes on without it$" "$tmp/$1.err")" -eq 1
  check "$1: nothing else on stderr" test "$(wc -l <"$tmp/$1.err")" -eq 1
}
cp "$tmp/hosts" "$tmp/hosts.before"
MAPSIM_REORDER_LOG="$tmp/hosts" run log-hostfile 1
check "log = the hostfile: the hostfile unchanged" cmp -s "$tmp/hosts" "$tmp/hosts.before"
log_refused log-hostfile "is the MAPSIM_HOSTFILE $tmp/hosts "
ln "$tmp/hosts" "$tmp/hosts-hardlink"
MAPSIM_REORDER_LOG="$tmp/hosts-hardlink" run log-hardlink 1
check "log = a hard link to the hostfile: the hostfile unchanged" cmp -s "$tmp/hosts" "$tmp/hosts.before"
log_refused log-hardlink "hosts-hardlink: is the MAPSIM_HOSTFILE "
# The network file through a symbolic link, on a network file that places nothing (one host): the
# identity is kept, so the call still logs (and warns about the log only).
cp "$tmp/one-host.yaml" "$tmp/one-host.before"
ln -s "$tmp/one-host.yaml" "$tmp/net-link"
MAPSIM_HOSTFILE= MAPSIM_NETWORK="file:$tmp/one-host.yaml" MAPSIM_REORDER_LOG="$tmp/net-link" run log-network-link 1
check "log = a link to the network file: the network file unchanged" cmp -s "$tmp/one-host.yaml" "$tmp/one-host.before"
check "log = a link to the network file: one warning, the link named" \
  test "$(grep -c "^mapsim-reorder: warning: MAPSIM_REORDER_LOG not written: $tmp/net-link: is a symbolic link" "$tmp/log-network-link.err")" -eq 1
MAPSIM_HOSTFILE= MAPSIM_NETWORK="file:$tmp/one-host.yaml" MAPSIM_REORDER_LOG="$tmp/one-host.yaml" run log-network 1
check "log = the network file: the network file unchanged" cmp -s "$tmp/one-host.yaml" "$tmp/one-host.before"
check "log = the network file: one warning naming it" \
  test "$(grep -c "^mapsim-reorder: warning: MAPSIM_REORDER_LOG not written: .*is the MAPSIM_NETWORK file $tmp/one-host.yaml " "$tmp/log-network.err")" -eq 1
mkfifo "$tmp/fifo"
MAPSIM_REORDER_LOG="$tmp/fifo" limit=60 run log-fifo 1  # blocked for ever before
log_refused log-fifo "$tmp/fifo: not a regular file (a device or pipe)"
exit $failed
