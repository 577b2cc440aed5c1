#!/usr/bin/env bash
# Regression tests of issue 46 item 5: tiny inputs that hung or blew up. Each runs under a memory
# limit (ulimit -v) and a timeout: bounds are checked before the memory is taken, ranks that never act
# cost nothing, SIGTERM is honoured within a second, partial outputs go.
# Usage: hostile_bounds_test.sh MAPSIM
source "$(dirname "$0")/test_lib.sh" "$1"
MEM_KB=1500000  # the process and its simulation child, each
# bounded NAME SECONDS PATTERN ARGS...: under the memory limit and SECONDS, a non-zero exit (not the
# timeout's) and one stderr line matching PATTERN (grep -E).
bounded() {
  local name=$1 seconds=$2 pattern=$3; shift 3
  (ulimit -v $MEM_KB; exec timeout -k 2 "$seconds" "$mapsim" "$@") >out.txt 2>err.txt
  local rc=$?
  check "$name: refused in time, within the memory" test "$rc" -eq 1
  check "$name: one line" test "$(wc -l <err.txt)" -eq 1
  check "$name: message" grep -qE -- "$pattern" err.txt
  [ "$rc" -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -qE -- "$pattern" err.txt || { echo "exit $rc" >&2; head -c 600 err.txt >&2; }
}
# term_within_a_second NAME EXPECTED_EXIT WAIT_FOR ARGS...: SIGTERM 2 s after the start (WAIT_FOR -) or
# once the path WAIT_FOR exists ends the command (and every process it started) within a second, with
# exit status EXPECTED_EXIT.
term_within_a_second() {
  local name=$1 expected=$2 wait_for=$3 pid rc start; shift 3
  (ulimit -v $MEM_KB; exec setsid "$mapsim" "$@") >out.txt 2>err.txt &
  pid=$!
  if [ "$wait_for" = - ]; then sleep 2; else
    for _ in $(seq 400); do [ -e "$wait_for" ] && break; sleep 0.05; done
    sleep 0.2
  fi
  check "$name: still running after 2 s (the case is long enough)" kill -0 $pid
  start=$(date +%s%N)
  kill -TERM $pid
  for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.02; done
  local ms=$((($(date +%s%N) - start) / 1000000))
  check "$name: ended within a second of SIGTERM (took $ms ms)" test $ms -lt 1000
  wait $pid
  rc=$?
  check "$name: exit $expected (got $rc)" test $rc -eq "$expected"
  sleep 0.2
  check "$name: no process left" test -z "$(ps -s $pid -o stat=,pid= 2>/dev/null | grep -v '^ *Z')"
  pkill -KILL -s $pid 2>/dev/null
  return 0
}

# Background traffic whose every destination is its sender: refused, not drawn for ever.
jobs_scenario() {  # jobs_scenario FILE BACKGROUND [START]
  printf 'network: mesh:4x4\nmodel: store-and-forward\njobs:\n  - {name: a, workload: {process: ring:4, pattern: "exchange:size=64"}, start: %s}\nbackground: %s\n' \
    "${3:-0s}" "$2" >"$1"
}
jobs_scenario shift0.yaml '{name: shift, by: 0, load: 1, message: 1B}'
bounded "background shift by 0" 20 "shift0.yaml:[0-9]+:[0-9]+: background: shift:by=0 sends nothing: each of the [0-9]+ destinations drawn was its sender or a job's node" \
  run shift0.yaml -o r-shift0
jobs_scenario shift16.yaml '{name: shift, by: 16, load: 0.5}'
bounded "background shift by N" 20 "background: shift:by=16 sends nothing" run shift16.yaml -o r-shift16
# A late job makes the default duration long: refused before drawing, the prefix said once.
jobs_scenario late.yaml '{name: uniform, load: 0.5}' 600s
bounded "background next to a job at 600 s" 20 "late.yaml:[0-9]+:[0-9]+: background: about [0-9.e+]+ messages, above the limit of 67108864 destinations drawn, in 600s: give a shorter duration" \
  run late.yaml -o r-late
check "background next to a job at 600 s: 'background:' said once" test "$(grep -o 'background:' err.txt | wc -l)" -eq 1
# A background that is allowed still runs, and the same for the same seed.
jobs_scenario ok.yaml '{name: uniform, load: 0.3, message: 4KiB}'
"$mapsim" run ok.yaml -o r-ok1 >/dev/null 2>&1 && "$mapsim" run ok.yaml -o r-ok2 >/dev/null 2>&1
check "background: runs" test -s r-ok1/results.csv
check "background: the same twice" cmp -s r-ok1/results.csv r-ok2/results.csv

# A single job under jobs: streams its workload like workload: (4M actions, 290 MB held whole), with
# the same results. The peak is the largest resident set of mapsim and its simulating children.
peak_kb() { python3 -c "
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)" "$@"; }
one='{process: ring:4, pattern: "exchange:size=8,iterations=200000"}'
printf 'network: mesh:2x2\nmodel: store-and-forward\njobs:\n  - {name: a, workload: %s}\ninterference: none\n' "$one" >onejob.yaml
peak=$(peak_kb "$mapsim" run onejob.yaml -o r-onejob)
check "one job of 4M actions: under 100 MB (had $peak KB)" test "$peak" -lt 100000
printf 'network: mesh:2x2\nmodel: store-and-forward\nworkload: %s\nmapping: [default]\n' "$one" >workload.yaml
"$mapsim" run workload.yaml -o r-workload >/dev/null 2>&1
makespan() { python3 -c "import csv, sys; print(next(csv.DictReader(open(sys.argv[1])))['sim_makespan'])" "$1"; }
check "one job of 4M actions: the makespan of workload:" test "$(makespan r-onejob/results.csv)" = "$(makespan r-workload/results.csv)"
# A long reading of the workload (the mappers' pass) stops at SIGTERM too.
printf 'network: mesh:2x2\nmodel: store-and-forward\nworkload: {process: ring:4, pattern: "exchange:size=8,iterations=9000000"}\nmapping: [default]\n' >long.yaml
term_within_a_second "run reading a long workload" 130 - run long.yaml -o r-long

# A trace naming one large rank: refused before 4 million ranks are made.
printf '4194303 compute 1\n' >sparse.txt
bounded "trace convert of a sparse rank" 20 "sparse.txt:1: rank 4194303 makes a trace of 4194304 ranks, but rank 0 has no line" \
  trace convert sparse.txt -o conv
check "trace convert of a sparse rank: no files" test ! -e conv
bounded "simulate a sparse rank" 20 "sparse.txt:1: rank 4194303 makes a trace of 4194304 ranks" simulate --topology mesh:2x2 --trace sparse.txt
bounded "trace stats of a sparse rank" 20 "sparse.txt:1: rank 4194303 makes a trace" trace stats sparse.txt
printf '0 init\n2 init\n' >gap.txt
bounded "a rank between two others without a line" 20 "gap.txt:2: rank 2 makes a trace of 3 ranks, but rank 1 has no line" trace check gap.txt
# SIGTERM during trace convert: the partial output goes.
python3 -c "
import sys
with open('many.txt', 'w') as f:
    for r in range(400000): f.write(f'{r} init\n{r} compute 100\n{r} finalize\n')"
term_within_a_second "trace convert" 143 conv-many/.mapsim-partial trace convert many.txt -o conv-many
check "trace convert SIGTERM: no partial folder" test ! -e conv-many/.mapsim-partial
check "trace convert SIGTERM: no index" test ! -e conv-many/index.txt
term_within_a_second "trace convert --shared" 143 conv-many.txt.partial trace convert many.txt --shared -o conv-many.txt
check "trace convert --shared SIGTERM: no partial file" test -z "$(ls conv-many.txt* 2>/dev/null)"

# A 100 KB topology.conf line of long names: refused in bytes, naming the file and line.
{ echo 'SwitchName=top Switches=leaf'; printf 'SwitchName=leaf Nodes=%s[1-100000]\n' "$(head -c 100000 /dev/zero | tr '\0' n)"; } >topology.conf
bounded "topology.conf: long names times a range" 20 "topology.conf:2: Nodes: hostlist 'n+\.\.\.' \(40 of 100010 bytes shown\) names over 256 MiB of host names" \
  topo slurm:topology.conf

# The documented bound on a streamed workload is what runs in bounded time.
bounded "exchange:iterations=100000000 on 4 ranks" 20 "above the limit of" \
  simulate --topology mesh:2x2 --process ring:4 --workload exchange:iterations=100000000
bounded "exchange:iterations=2^63-1 (no wrap to a negative count)" 20 "about 2.58e\+20 actions, above the limit of" \
  simulate --topology mesh:2x2 --process ring:4 --workload exchange:iterations=9223372036854775807

finish
