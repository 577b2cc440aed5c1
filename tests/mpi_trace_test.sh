#!/usr/bin/env bash
# The PMPI tracer end to end: record tests/mpi/trace_program.c under mpirun, check the trace against
# what the program sends, and replay it. Usage: mpi_trace_test.sh MAPSIM LIBTRACE PROGRAM
# [FORTRAN_PROGRAM]. Exit 77 (skipped) when no mpirun is installed.
mapsim=$1 lib=$2 program=$3 fortran=${4:-}
source "$(dirname "$0")/mpi_lib.sh" tracer
MAPSIM_TRACE_DIR="$tmp/trace" mpirun "${root[@]}" --oversubscribe -np 8 -x LD_PRELOAD="$lib" -x MAPSIM_TRACE_DIR \
  "$program" 2>"$tmp/stderr"
status=$?
check "traced run exits 0" test $status -eq 0
[ $status -eq 0 ] || sed 's/^/  mpirun: /' "$tmp/stderr" >&2
check "index and 8 rank files" test "$(wc -l <"$tmp/trace/index.txt")" -eq 8
check "sub-communicator collectives recorded, not reported" bash -c "! grep -q 'sub-communicators' '$tmp/stderr' '$tmp/trace/skipped.txt'"
if [ "$(nproc)" -lt 8 ]; then
  check "oversubscription warned" grep -q "warning: 8 ranks ran on $(nproc) cores of one host (oversubscribed)" "$tmp/stderr"
else
  check "no oversubscription warning" bash -c "! grep -q oversubscribed '$tmp/stderr'"
fi
check "persistent requests counted" grep -q "^16 persistent requests" "$tmp/trace/skipped.txt"
check "non-blocking collectives counted" grep -q "^8 non-blocking collectives" "$tmp/trace/skipped.txt"
check "waits on their requests counted" grep -q "^24 waits on requests the tracer did not create" "$tmp/trace/skipped.txt"
check "one-sided operations counted" grep -q "^8 one-sided operations" "$tmp/trace/skipped.txt"
check "an irecv from MPI_ANY_SOURCE: a recv from the rank that sent" grep -q "^3 recv 2 12 1200$" "$tmp/trace/rank-3.txt"
check "Waitany, Waitsome, Testany, Testall, Testsome: one wait per request" \
  test "$(grep -c ' wait [0-9]* [0-9]* [678]$' "$tmp/trace/rank-3.txt")" -eq 6
"$mapsim" trace check "$tmp/trace/index.txt" >/dev/null
check "trace check passes" test $? -eq 0
check "nothing to or from MPI_PROC_NULL (tag 13) written" bash -c "! grep -q ' 13 100$\| -2 ' '$tmp'/trace/rank-*.txt"
"$mapsim" trace stats "$tmp/trace/index.txt" --json >"$tmp/stats.json"
"$mapsim" trace matrix "$tmp/trace/index.txt" -o "$tmp/matrix.csv" >/dev/null
python3 - "$tmp/stats.json" "$tmp/matrix.csv" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))
n = 8
# What trace_program.c sends: ring 1000 (tag 1), 2000 to both neighbours (tag 2), 3000 to r^1 (tag 3),
# 4000 from odd ranks to 0 (tag 4), 5000 to the next rank of the same parity (tag 5, sub-communicator),
# 600, 700, 800 and 900 to r+1 (tags 6-9: Waitany/Waitsome, Testany/Testall, Testsome, Issend), 1000 to r^1
# (tag 10, Sendrecv_replace), 1200 to r+1 (tag 12, received with MPI_ANY_SOURCE); on the parity
# sub-communicator (rank r is its rank r // 2) a barrier (0 bytes to r +- 2 and r +- 4 in world ranks, not in
# the byte matrix) and an allreduce of 800 by recursive doubling (to r ^ 2, then r ^ 4).
expected = {}
def add(a, b, size):
    expected[(a, b)] = expected.get((a, b), 0) + size
for r in range(n):
    add(r, (r + 1) % n, 1000)
    add(r, (r + 1) % n, 2000)
    add(r, (r - 1) % n, 2000)
    add(r, r ^ 1, 3000)
    if r % 2:
        add(r, 0, 4000)
    add(r, (r + 2) % n, 5000)
    for size in (600, 700, 800, 900):
        add(r, (r + 1) % n, size)
    add(r, r ^ 1, 1000)
    add(r, (r + 1) % n, 1200)
    add(r, r ^ 2, 800)
    add(r, r ^ 4, 800)
assert s["ranks"] == n, s
assert s["messages"] == 92 + 8 * 4 and s["bytes"] == sum(expected.values()) == 161600 + 12800, s
assert s["collectives"] == 11 * n, s  # bcast, allreduce, alltoall, barrier, 5 v-collectives, scan, reduce_scatter_block
got = {(int(r["src"]), int(r["dst"])): float(r["p2p_bytes"]) for r in csv.DictReader(open(sys.argv[2]))}
got = {k: v for k, v in got.items() if v > 0}
assert got == {k: float(v) for k, v in expected.items()}, (got, expected)
PY
check "message counts and bytes per pair" test $? -eq 0
"$mapsim" simulate --topology tree2:switches=2,nodes_per_switch=4 --trace "$tmp/trace/index.txt" --model store-and-forward \
  --json >"$tmp/replay.json"
check "the trace replays" test $? -eq 0
# smpirun comes with libsimgrid-dev, which the build needs: its absence is a failure, not a skip.
"$mapsim" topo tree2:switches=2,nodes_per_switch=4 --export simgrid -o "$tmp/platform.xml" 2>/dev/null
for i in 0 1 2 3 4 5 6 7; do echo "node-$i"; done >"$tmp/hosts"
smpirun -np 8 -platform "$tmp/platform.xml" -hostfile "$tmp/hosts" -replay "$tmp/trace/index.txt" \
  --log=root.thres:critical >/dev/null 2>&1
check "smpirun -replay accepts the trace" test $? -eq 0
if [ -n "$fortran" ]; then
  MAPSIM_TRACE_DIR="$tmp/ftrace" mpirun "${root[@]}" --oversubscribe -np 2 -x LD_PRELOAD="$lib" -x MAPSIM_TRACE_DIR \
    "$fortran" 2>/dev/null
  check "Fortran send recorded" grep -q "^0 send 1 7 40$" "$tmp/ftrace/rank-0.txt"
  check "Fortran recv recorded" grep -q "^1 recv 0 7 40$" "$tmp/ftrace/rank-1.txt"
  check "Fortran allreduce recorded" grep -q "^1 allreduce 40 0$" "$tmp/ftrace/rank-1.txt"
  check "Fortran recv from MPI_ANY_SOURCE: the rank that sent" grep -q "^1 recv 0 8 20$" "$tmp/ftrace/rank-1.txt"
  check "Fortran irecv from MPI_ANY_SOURCE, MPI_STATUS_IGNORE: a recv at its wait" grep -q "^0 recv 1 9 12$" "$tmp/ftrace/rank-0.txt"
  check "Fortran: nothing skipped" bash -c "! grep -v '^0 ' '$tmp/ftrace/skipped.txt'"
fi
exit $failed
