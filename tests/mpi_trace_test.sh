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
# The trace folder's files are created new: links planted there are replaced, their targets never
# written; a FIFO is not opened, and a rank that cannot trace keeps nobody waiting (no index.txt then).
trace2() {  # trace2 DIR [VAR=VALUE...]: trace_program on 2 ranks into DIR with the MAPSIM_TRACE_* given, stderr in DIR.err
  local dir=$1 exports=(-x MAPSIM_TRACE_DIR) v; shift
  for v in "$@"; do exports+=(-x "${v%%=*}"); done
  env MAPSIM_TRACE_DIR="$dir" "$@" timeout 60 mpirun "${root[@]}" --oversubscribe -np 2 -x LD_PRELOAD="$lib" \
    "${exports[@]}" "$program" 2>"$dir.err"
}
mkdir "$tmp/planted"
for f in rank-0 index skipped rank-1.txt; do echo "precious $f" >"$tmp/victim-$f"; done
ln -s "$tmp/victim-rank-0" "$tmp/planted/rank-0.txt"
ln -s "$tmp/victim-index" "$tmp/planted/index.txt"
ln -s "$tmp/victim-skipped" "$tmp/planted/skipped.txt"
ln -s "$tmp/victim-rank-1.txt" "$tmp/planted/rank-1.txt.partial"
trace2 "$tmp/planted"
check "links planted in the folder: exits 0" test $? -eq 0
check "links planted in the folder: their targets unchanged" \
  bash -c "for f in rank-0 index skipped rank-1.txt; do [ \"\$(cat '$tmp'/victim-\$f)\" = \"precious \$f\" ] || exit 1; done"
check "links planted in the folder: replaced by the trace's files" \
  bash -c "for f in rank-0.txt rank-1.txt index.txt skipped.txt; do [ -f '$tmp/planted/'\$f ] && [ ! -L '$tmp/planted/'\$f ] || exit 1; done"
check "links planted in the folder: no .partial file left" bash -c "! ls '$tmp/planted' | grep -q partial"
"$mapsim" trace check "$tmp/planted/index.txt" >/dev/null 2>&1
check "links planted in the folder: trace check passes" test $? -eq 0
mkdir "$tmp/fifo"
mkfifo "$tmp/fifo/rank-0.txt"
trace2 "$tmp/fifo"
check "a FIFO as rank-0.txt: exits 0 (not blocked)" test $? -eq 0
check "a FIFO as rank-0.txt: rank 0 says why it does not trace" \
  grep -q "^mapsim-trace: cannot write $tmp/fifo/rank-0.txt: not a regular file (a device or pipe); expected a file name; not tracing$" "$tmp/fifo.err"
check "a FIFO as rank-0.txt: no index.txt, and it is said" \
  bash -c "[ ! -e '$tmp/fifo/index.txt' ] && grep -q '^mapsim-trace: 1 of 2 ranks could not write their trace: no $tmp/fifo/index.txt written$' '$tmp/fifo.err'"
mkdir -p "$tmp/dir/rank-1.txt"
trace2 "$tmp/dir"
check "a folder as rank-1.txt: exits 0 (rank 0 not left waiting)" test $? -eq 0
check "a folder as rank-1.txt: no index.txt" test ! -e "$tmp/dir/index.txt"

# A bad variable: one warning on rank 0 naming it, its value and the default used, and a trace that
# trace check accepts. MAPSIM_TRACE_MIN_GAP=0 records every gap: with the default 1e9 flop/s some is > 0.
for value in fast nan -1 inf 0; do
  trace2 "$tmp/flops$value" MAPSIM_TRACE_FLOPS=$value MAPSIM_TRACE_MIN_GAP=0
  check "MAPSIM_TRACE_FLOPS=$value: exits 0" test $? -eq 0
  check "MAPSIM_TRACE_FLOPS=$value: one warning, the default used" test "$(grep -c "^mapsim-trace: warning: MAPSIM_TRACE_FLOPS='$value': expected a number of flop/s above 0 and at most 1e15; using 1e9$" "$tmp/flops$value.err")" -eq 1
  check "MAPSIM_TRACE_FLOPS=$value: compute recorded at 1e9 flop/s" grep -q ' compute [1-9]' "$tmp/flops$value/rank-0.txt"
  "$mapsim" trace check "$tmp/flops$value/index.txt" >/dev/null 2>&1
  check "MAPSIM_TRACE_FLOPS=$value: trace check passes" test $? -eq 0
done
trace2 "$tmp/gap" MAPSIM_TRACE_MIN_GAP=nan
check "MAPSIM_TRACE_MIN_GAP=nan: one warning, the default used" \
  test "$(grep -c "^mapsim-trace: warning: MAPSIM_TRACE_MIN_GAP='nan': expected a number of seconds >= 0; using 1e-6$" "$tmp/gap.err")" -eq 1
trace2 "$tmp/mode" MAPSIM_TRACE_COMPUTE=slep
check "MAPSIM_TRACE_COMPUTE=slep: one warning, compute used" \
  bash -c "[ \"\$(grep -c \"^mapsim-trace: warning: MAPSIM_TRACE_COMPUTE='slep': expected compute, sleep or none; using compute$\" '$tmp/mode.err')\" -eq 1 ] && ! grep -q ' sleep ' '$tmp/mode/rank-0.txt'"

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
