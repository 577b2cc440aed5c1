#!/usr/bin/env bash
# End-to-end checks of the mapsim CLI: outputs, exit codes and one-line errors.
# Usage: cli_test.sh MAPSIM SOURCE_DIR
set -uo pipefail
mapsim=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name" >&2; fi
}
# expect_error NAME PATTERN ARGS...: non-zero exit, one line on stderr matching PATTERN, nothing on stdout.
expect_error() {
  local name=$1 pattern=$2; shift 2
  "$mapsim" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  check "$name: exit code" test "$rc" -ne 0
  check "$name: one line" test "$(wc -l <"$tmp/err")" -eq 1
  check "$name: message" grep -q -- "$pattern" "$tmp/err"
  check "$name: no stdout" test ! -s "$tmp/out"
}

check "-v after the subcommand" bash -c "'$mapsim' topo mesh:2x2 -v 2>&1 >/dev/null | grep -q 'debug:'"
check "version" bash -c "'$mapsim' --version | grep -q '^mapsim '"
check "topo help" bash -c "'$mapsim' topo --help | grep -q 'irregular:nodes'"
# The registries are the one list: help texts and docs/components.md come from them.
check "map help lists registered mappers" bash -c "'$mapsim' map --help | grep -q 'Mappers: adjacency, annealing, best'"
check "topo help lists registered routings" bash -c "'$mapsim' topo --help | grep -q 'dmodk, dor, ecube, lft, minhop, minimal, shortest, suprenum, ugal-g, ugal-l, updn, updown, valiant'"
check "docs/components.md is current (mapsim components --markdown)" \
  bash -c "'$mapsim' components --markdown | cmp -s - '$src/docs/components.md'"
check "components KIND lists that kind only" bash -c "'$mapsim' components mapper | grep -c '^[A-Z]' | grep -qx 1 && '$mapsim' components mappers | head -1 | grep -q '^Mappers'"
expect_error "components: unknown kind" "unknown kind 'mapperz' (did you mean 'mappers'?)" components mapperz
check "components: every word of a kind's title, singular or plural (models, model, simulation, collectives, topologies)" \
  bash -c "for k in models model simulation simulations collectives topologies patterns; do '$mapsim' components \$k | head -1 | grep -q '^[A-Z]' || exit 1; done"
expect_error "components: a misspelt kind" "unknown kind 'modles' (did you mean 'model'?)" components modles
expect_error "did you mean a component" "unknown mapper 'bset' (did you mean 'best'?)" map --topology mesh:4x4 --process mesh:4x4 --mapper bset
expect_error "updn tables over their memory limit" "updn routing keeps a port per destination node and switch" \
  map --topology irregular:nodes=64000,switches=64000,ports=4 --process mesh:4x4 --mapper random
"$mapsim" run --no-such-flag >/dev/null 2>&1
check "usage error: exit code 1 (not CLI11's own)" test $? -eq 1
"$mapsim" map >/dev/null 2>&1
check "missing required option: exit code 1" test $? -eq 1

"$mapsim" topo irregular:nodes=256,switches=75,ports=8,connectivity=0.75,seed=1 --json >"$tmp/topo.json"
check "topo json exit" test $? -eq 0
python3 - "$tmp/topo.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for key in ["switches", "nodes", "links", "avg_route_hops", "max_route_hops", "routes_legal", "deadlock_free"]:
    assert key in d, key
assert d["switches"] == 75 and d["nodes"] == 256 and d["links"] == 97
assert d["routes_legal"] is True and d["deadlock_free"] is True
PY
check "topo json keys" test $? -eq 0

"$mapsim" topo irregular:nodes=64,switches=20,seed=2 --routing shortest --json >"$tmp/short.json"
check "shortest routing named" grep -q '"routing": "shortest"' "$tmp/short.json"

"$mapsim" topo torus:4x4 --export simgrid -o "$tmp/torus.xml" 2>/dev/null
check "simgrid export written" grep -q '<platform version="4.1">' "$tmp/torus.xml"
check "no partial file left" test ! -e "$tmp/torus.xml.partial"
"$mapsim" topo mesh:2x2 --export dot >"$tmp/mesh.dot"
check "dot to stdout" grep -q "label=\"sw-3\"" "$tmp/mesh.dot"
"$mapsim" topo fattree:k=2,levels=2 --export json -o "$tmp/ft.json" 2>/dev/null
"$mapsim" topo "file:$tmp/ft.json" --json >"$tmp/ft-back.json"
check "json export loads back" grep -q '"routing": "dmodk"' "$tmp/ft-back.json"
check "quiet silences info" bash -c "'$mapsim' --quiet topo mesh:2x2 --export json -o '$tmp/q.json' 2>&1 | wc -c | grep -qx 0"

expect_error "unknown generator" "unknown network 'butterfly'" topo butterfly:k=2
expect_error "bad key" "unknown key 'nodez' for irregular" topo irregular:nodez=4
expect_error "bad unit" "bad time '3parsecs'" topo mesh:4x4,t_p=3parsecs
expect_error "impossible irregular" "needs at least 148" topo irregular:connectivity=0.5
expect_error "missing file" "/nonexistent.yaml: no such YAML file" topo file:/nonexistent.yaml
printf 'switches: [a\nnodes: []\n' >"$tmp/bad.yaml"
expect_error "malformed yaml" "bad.yaml:2:6: malformed YAML" topo "file:$tmp/bad.yaml"
expect_error "wrong routing" "ecube routing needs" topo irregular:nodes=32,switches=10 --routing ecube
"$mapsim" topo mesh:2x2 --export simgrid -o /nonexistent-dir/x.xml >/dev/null 2>"$tmp/err"
check "unwritable output fails" test $? -ne 0
"$mapsim" topo >/dev/null 2>&1
check "missing spec is a usage error" test $? -ne 0

# mapsim map: placement file, launch files, JSON keys.
"$mapsim" map --topology irregular:nodes=64,switches=20,seed=3 --process mesh:8x8 --mapper switch \
  -o "$tmp/map.txt" --rankfile "$tmp/rankfile" --hostlist "$tmp/hosts" --json >"$tmp/map.json"
check "map exit" test $? -eq 0
check "map placement lines" test "$(grep -vc '^#' "$tmp/map.txt")" -eq 64
check "rankfile format" grep -q '^rank 0=node-[0-9]* slot=0$' "$tmp/rankfile"
"$mapsim" map --topology mesh:4x4 --process delaunay:tasks=16,seed=3 --write-graph "$tmp/d.graph" >/dev/null
check "--write-graph: METIS header of a 16-point Delaunay graph" bash -c "head -1 '$tmp/d.graph' | grep -q '^16 [0-9]*$'"
"$mapsim" map --topology mesh:4x4 --process "graph:$tmp/d.graph" --write-graph "$tmp/d2.graph" >/dev/null
check "--write-graph: reads back as the same graph" cmp -s "$tmp/d.graph" "$tmp/d2.graph"
check "hostlist lines" test "$(wc -l <"$tmp/hosts")" -eq 64
# Launch files (reporting/launch_files.h), read back here by their launchers' rules: ranks interleaved
# across nodes with 3 slots each (random), so machinefile runs split and nodes hold several ranks.
"$mapsim" map --topology irregular:nodes=24,switches=8,seed=4 --process mesh:6x5 --mapper random --slots 3 \
  -o "$tmp/l.txt" --rankfile "$tmp/l.rf" --launch machinefile="$tmp/l.mf" --launch slurm-hostfile="$tmp/l.sh" \
  --launch cpu-bind="$tmp/l.cb" --launch hostlist="$tmp/l.hl" --launch rankfile="$tmp/l.rf2" >/dev/null
check "map --launch exit" test $? -eq 0
check "--rankfile and --launch rankfile: one writer" cmp -s "$tmp/l.rf" "$tmp/l.rf2"
check "hostlist and slurm-hostfile: one host per rank" cmp -s "$tmp/l.hl" "$tmp/l.sh"
python3 - "$tmp/l.txt" "$tmp/l.rf" "$tmp/l.mf" "$tmp/l.sh" "$tmp/l.cb" <<'PY'
import sys
place, rf, mf, sh, cb = sys.argv[1:]
nodes = ["node-" + l.split()[1] for l in open(place) if not l.startswith("#")]
cores, seen = [], {}
for n in nodes:
    cores.append(seen.get(n, 0)); seen[n] = cores[-1] + 1
assert max(cores) == 2 and len(set(nodes)) < len(nodes)
assert [l.split() for l in open(rf)] == [["rank", "%d=%s" % (r, n), "slot=%d" % c] for r, (n, c) in enumerate(zip(nodes, cores))]
hydra = []  # Hydra: HOST:COUNT, consecutive ranks; adjacent runs of one host would have been merged
for l in open(mf):
    if l.startswith("#"): continue
    host, count = l.strip().rsplit(":", 1)
    assert not hydra or hydra[-1] != host
    hydra += [host] * int(count)
assert hydra == nodes
assert [l.strip() for l in open(sh)] == nodes
lists = {l.split()[0]: [int(c) for c in l.split()[1][len("map_cpu:"):].split(",")] for l in open(cb) if not l.startswith("#")}
local = {}  # srun: a node's i-th task (rank order) takes its list's i-th CPU
for n, c in zip(nodes, cores):
    assert lists[n][local.get(n, 0)] == c; local[n] = local.get(n, 0) + 1
assert all(len(lists[n]) == local[n] for n in lists)
one = open(cb).readline().split("map_cpu:")[1].split()[0]
assert one == "0,1,2"
PY
check "launch files read back: nodes and cores of the placement" test $? -eq 0
expect_error "--launch: unknown format" "--launch: unknown launch format 'slurm' (did you mean 'slurm-hostfile'?)" \
  map --topology mesh:2x2 --process ring:4 --launch slurm="$tmp/x"
expect_error "--launch: no file" "--launch: expected FORMAT=FILE, got 'machinefile'" map --topology mesh:2x2 --process ring:4 --launch machinefile
expect_error "--launch: two outputs on one file" "--rankfile and --launch cpu-bind name the same file" \
  map --topology mesh:2x2 --process ring:4 --rankfile "$tmp/same2" --launch cpu-bind="$tmp/same2"
expect_error "--launch: missing folder, before mapping" "/no/such/dir/m: cannot write file" \
  map --topology mesh:2x2 --process ring:4 --launch machinefile=/no/such/dir/m
printf '0 node-1\n1 node-0\n2 node-3\n3 node-2\n' >"$tmp/p.txt"
expect_error "--launch onto the placement it reads" "is the placement file .* that this command reads" \
  map --topology mesh:2x2 --process ring:4 --mapper "placement:$tmp/p.txt" --launch machinefile="$tmp/p.txt"
check "the placement file is kept" test "$(cat "$tmp/p.txt" | wc -l)" -eq 4
# run --launch: replicate 0's placement of the chosen mapper, as map gives it for the same inputs.
cat >"$tmp/launch.yaml" <<'YAML'
network: irregular:nodes=32,switches=10
workload: {process: mesh:4x4}
mapping: [default, "random:unit=switch", binary]
allocation: random
model: none
replicates: 2
YAML
"$mapsim" run "$tmp/launch.yaml" -o "$tmp/lrun" --launch rankfile,machinefile --launch-mapper binary \
  --launch-mapper random:unit=switch >/dev/null 2>"$tmp/lrun.err"
check "run --launch exit" test $? -eq 0
check "run --launch: each file named on stderr" test "$(grep -c "^launch file: $tmp/lrun/" "$tmp/lrun.err")" -eq 4
check "run --launch: MAPPER.FORMAT per chosen mapper" test -s "$tmp/lrun/binary.rankfile" -a -s "$tmp/lrun/binary.machinefile" \
  -a -s "$tmp/lrun/random_unit_switch.rankfile" -a ! -e "$tmp/lrun/default.rankfile"
"$mapsim" map --topology irregular:nodes=32,switches=10 --process mesh:4x4 --mapper binary --allocation random --seed 1 \
  --rankfile "$tmp/lmap.rf" >/dev/null
check "run --launch: the placement map gives" cmp -s "$tmp/lrun/binary.rankfile" "$tmp/lmap.rf"
expect_error "run --launch-mapper: not in the scenario" "--launch-mapper: 'binry' is not a mapper of the scenario (did you mean 'binary'?)" \
  run "$tmp/launch.yaml" -o "$tmp/lrun2" --launch rankfile --launch-mapper binry
expect_error "run --launch-mapper without --launch" "--launch-mapper: give the formats with --launch FORMAT" \
  run "$tmp/launch.yaml" -o "$tmp/lrun2" --launch-mapper binary
expect_error "run --launch: unknown format" "--launch: unknown launch format 'rankfiles'" run "$tmp/launch.yaml" -o "$tmp/lrun2" --launch rankfiles
check "nothing run for a bad --launch" test ! -e "$tmp/lrun2"
# A multi-job scenario: one file per job (its own ranks from 0), the jobs on disjoint nodes.
cat >"$tmp/ljobs.yaml" <<'YAML'
network: irregular:nodes=32,switches=10
model: none
slots: 2
jobs:
  - {name: halo, workload: {process: mesh:4x4}, mapping: binary}
  - {name: ring, workload: {process: ring:8}, mapping: random, allocation: random}
YAML
"$mapsim" run "$tmp/ljobs.yaml" -o "$tmp/ljobs" --launch slurm-hostfile,rankfile >/dev/null 2>&1
check "run --launch, jobs: exit" test $? -eq 0
check "run --launch, jobs: JOB.FORMAT, each job's ranks" \
  test "$(wc -l <"$tmp/ljobs/halo.slurm-hostfile")" -eq 16 -a "$(wc -l <"$tmp/ljobs/ring.slurm-hostfile")" -eq 8
check "run --launch, jobs: ranks from 0" grep -q "^rank 0=" "$tmp/ljobs/ring.rankfile"
check "run --launch, jobs: no node in both jobs" test -z "$(sort -u "$tmp/ljobs/halo.slurm-hostfile" | comm -12 - <(sort -u "$tmp/ljobs/ring.slurm-hostfile"))"
expect_error "run --launch-mapper, jobs" "--launch-mapper: a multi-job scenario has one mapper per job" \
  run "$tmp/ljobs.yaml" -o "$tmp/ljobs2" --launch rankfile --launch-mapper binary
mkdir -p "$tmp/lrun3" && cp "$tmp/launch.yaml" "$tmp/lrun3/binary.rankfile"
expect_error "run --launch onto the scenario it reads" "binary.rankfile: is the YAML file .* that this command reads" \
  run "$tmp/lrun3/binary.rankfile" -o "$tmp/lrun3" --launch rankfile
check "run --launch: the scenario kept" cmp -s "$tmp/launch.yaml" "$tmp/lrun3/binary.rankfile"
check "run --launch: nothing run" test ! -e "$tmp/lrun3/results.csv"
python3 - "$tmp/map.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for key in ["mapper", "weighted_cardinality", "cardinality", "max_link_load", "load_variance", "map_seconds"]:
    assert key in d, key
assert d["mapper"] == "switch" and d["load_variance"] == 0
PY
check "map json keys" test $? -eq 0
a=$("$mapsim" map --topology irregular:nodes=64,switches=20 --process mesh:8x8 --mapper random --seed 5)
b=$("$mapsim" map --topology irregular:nodes=64,switches=20 --process mesh:8x8 --mapper random --seed 5)
check "map output deterministic" test "$a" = "$b"
expect_error "unknown mapper" "unknown mapper 'oracle'" map --topology mesh:4x4 --process mesh:4x4 --mapper oracle
expect_error "mapper option" "unknown key 'speed'" map --topology hypercube:dim=3 --process ring:8 --mapper annealing:speed=2
expect_error "hypersphere off a hypercube" "needs a hypercube network" map --topology mesh:4x4 --process ring:16 --mapper hypersphere
expect_error "adjacency on a random graph" "adjacency mapper" map --topology mesh:4x4 --process random:tasks=16,edges=20 --mapper adjacency
expect_error "hypersphere over capacity" "more --slots or spreading" map --topology hypercube:dim=7 --process random:tasks=128,edges=448 --mapper hypersphere:spreading=0

# compare: table, CSV with mean and stddev of every metric, one row per mapper
"$mapsim" compare --topology irregular:nodes=64,switches=20 --process mesh:8x8 --mappers random,binary,best,hypersphere:spreading=7,gamma=1 \
  --replicates 3 --csv "$tmp/cmp.csv" >"$tmp/cmp.txt" 2>"$tmp/cmp.err"
check "compare rejects hypersphere on irregular" grep -q "needs a hypercube" "$tmp/cmp.err"
check "compare wrote nothing after an error" test ! -e "$tmp/cmp.csv"
"$mapsim" compare --topology irregular:nodes=64,switches=20 --process mesh:8x8 --mappers random,binary,best --replicates 3 \
  --csv "$tmp/cmp.csv" >"$tmp/cmp.txt"
check "compare exit" test $? -eq 0
check "compare table rows" test "$(grep -cE '^(random|binary|best) ' "$tmp/cmp.txt")" -eq 3
check "compare csv rows" test "$(wc -l <"$tmp/cmp.csv")" -eq 4
check "compare csv header" grep -q '^mapper,replicates,weighted_cardinality_mean,weighted_cardinality_sd' "$tmp/cmp.csv"
"$mapsim" compare --topology hypercube:dim=3 --process ring:8 --mappers "hypersphere:spreading=3,gamma=2,default" --csv "$tmp/h.csv" >/dev/null
check "compare quotes mapper specs with commas" grep -q '^"hypersphere:spreading=3,gamma=2",1,' "$tmp/h.csv"
expect_error "too many tasks" "256 tasks do not fit in 16 slots" map --topology mesh:4x4 --process mesh:16x16
expect_error "bad process spec" "unknown process topology 'star'" map --topology mesh:4x4 --process star:3
expect_error "unknown allocation" "unknown allocation 'bset-fit' (did you mean 'best-fit'?)" map --topology mesh:4x4 --process ring:4 --allocation bset-fit
expect_error "allocation on a busy machine" "allocation 'group': 12 nodes needed, only 8 free of 16 (8 busy at busy=0.5)" \
  map --topology mesh:4x4 --process ring:12 --allocation group:busy=0.5
# The nodes a policy chooses, seen through the default mapper (task i on the i-th allocated node).
"$mapsim" map --topology fattree:k=4,levels=3 --process ring:4 --allocation spread -o "$tmp/spread.txt" >/dev/null
check "spread: one node per pod" test "$(grep -v '^#' "$tmp/spread.txt" | awk '{print $2}' | tr '\n' ' ')" = "0 16 32 48 "

# simulate: summary.json with the documented keys, links.csv, messages.csv; map -o placements replay
"$mapsim" map --topology irregular:nodes=64,switches=20 --process mesh:8x8 --mapper binary -o "$tmp/place.txt" >/dev/null
"$mapsim" simulate --topology irregular:nodes=64,switches=20 --process pattern:mesh:8x8,distant=0.1,seed=1 \
  --workload exchange:size=1000,iterations=2 --placement "$tmp/place.txt" --model store-and-forward --messages \
  -o "$tmp/sim" >"$tmp/sim.txt"
check "simulate exit" test $? -eq 0
check "simulate table" grep -q '^makespan ' "$tmp/sim.txt"
python3 - "$tmp/sim" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1] + "/summary.json"))
for key in ["makespan", "messages", "avg_latency", "max_link_load", "events", "wall_seconds"]:
    assert key in d, key
assert d["model"] == "store-and-forward" and d["makespan"] > 0 and d["events"] > 0
links = list(csv.DictReader(open(sys.argv[1] + "/links.csv")))
assert max(float(l["bytes"]) for l in links if l["kind"] == "link") == d["max_link_load"]
messages = list(csv.DictReader(open(sys.argv[1] + "/messages.csv")))
assert len(messages) == d["messages"]
assert any(m["distant"] == "1" for m in messages)
PY
check "simulate outputs" test $? -eq 0
"$mapsim" simulate --topology irregular:nodes=64,switches=20 --process mesh:8x8 --workload exchange:size=1000 \
  --placement "$tmp/place.txt" --json --write-trace "$tmp/tr" >"$tmp/a.json" 2>/dev/null
"$mapsim" simulate --topology irregular:nodes=64,switches=20 --trace "$tmp/tr/index.txt" --placement "$tmp/place.txt" \
  --json >"$tmp/b.json"
check "written trace replays to the same makespan" python3 -c "import json,sys; a=json.load(open('$tmp/a.json')); b=json.load(open('$tmp/b.json')); sys.exit(a['makespan'] != b['makespan'] or a['messages'] != b['messages'])"
"$mapsim" trace stats "$tmp/tr/index.txt" --json >"$tmp/trstats.json"
check "trace stats" python3 -c "import json; d=json.load(open('$tmp/trstats.json')); assert d['ranks'] == 64 and d['messages'] > 0"
"$mapsim" trace convert "$tmp/tr/index.txt" -o "$tmp/shared.txt" --shared >/dev/null
"$mapsim" trace convert "$tmp/shared.txt" -o "$tmp/split" >/dev/null
check "trace convert round trip" cmp -s "$tmp/tr/rank-5.txt" "$tmp/split/rank-5.txt"
"$mapsim" trace matrix "$tmp/shared.txt" -o "$tmp/matrix.csv" >/dev/null
check "no staging directory left" test ! -e "$tmp/split/.mapsim-partial"
# Converting a trace onto itself is refused and leaves the input as it was.
cp "$tmp/shared.txt" "$tmp/keep.txt"
expect_error "convert onto the input file" "is the input trace file" trace convert "$tmp/shared.txt" -o "$tmp/shared.txt" --shared
expect_error "convert into the input's directory" "is the directory of the input file" trace convert "$tmp/tr/index.txt" -o "$tmp/tr"
check "input untouched" cmp -s "$tmp/shared.txt" "$tmp/keep.txt"
check "rank files untouched" test -s "$tmp/tr/rank-5.txt"
# A bad trace leaves no output that looks complete.
printf '0 send 1 0 10\n1 recv 0 0 10\n1 frobnicate\n' >"$tmp/bad-trace.txt"
"$mapsim" trace convert "$tmp/bad-trace.txt" -o "$tmp/bad-out" >/dev/null 2>&1
check "failed convert leaves no index" test ! -e "$tmp/bad-out/index.txt" -a ! -e "$tmp/bad-out/rank-0.txt"
"$mapsim" trace convert "$tmp/bad-trace.txt" -o "$tmp/bad-shared.txt" --shared >/dev/null 2>&1
check "failed shared convert leaves no file" test ! -e "$tmp/bad-shared.txt" -a ! -e "$tmp/bad-shared.txt.partial"
# -o through a symlink replaces its target and keeps the link; a device is written, not replaced.
echo old >"$tmp/target.csv"
ln -s target.csv "$tmp/link.csv"
"$mapsim" trace matrix "$tmp/shared.txt" -o "$tmp/link.csv" >/dev/null
check "-o through a symlink keeps the link" test -L "$tmp/link.csv"
check "-o through a symlink writes its target" cmp -s "$tmp/target.csv" "$tmp/matrix.csv"
"$mapsim" trace matrix "$tmp/shared.txt" -o /dev/null >/dev/null
check "-o /dev/null stays a device" test -c /dev/null
expect_error "-o a directory" "is a directory; expected a file name" trace matrix "$tmp/shared.txt" -o "$tmp"

check "trace matrix" grep -q "^src,dst,bytes,messages,p2p_bytes" "$tmp/matrix.csv"
printf '0 send 1 0 10\n0 send 1 0 10\n1 recv 0 0 10\n' >"$tmp/unmatched.txt"
expect_error "trace check" "unmatched.txt:2: 1 send(s) from rank 0 to rank 1 tag 0 have no matching receive" trace check "$tmp/unmatched.txt"
printf '0 send 1 10\n1 recv 0 10\n' >"$tmp/old.txt"
expect_error "old format" "old.txt:1: 'send' without a tag is SimGrid's old format" trace stats "$tmp/old.txt"
"$mapsim" trace convert "$tmp/old.txt" --legacy -o "$tmp/new" >/dev/null
check "legacy convert" grep -q "^0 send 1 0 10" "$tmp/new/rank-0.txt"
"$mapsim" map --topology mesh:8x8 --process "trace:$tmp/tr/index.txt" --mapper best --json >"$tmp/tmap.json"
check "trace as a process topology" grep -q '"tasks": 64' "$tmp/tmap.json"
printf '0 init\n0 send 1 0 10\n1 init\n1 recv 0 0 ten\n' >"$tmp/bad.txt"
expect_error "bad trace" "bad.txt:4: expected size, got 'ten'" simulate --topology mesh:4x4 --trace "$tmp/bad.txt" -o "$tmp/badout"
check "no output after a bad trace" test ! -e "$tmp/badout/summary.json"
printf '0 recv 1 0 10\n1 recv 0 0 10\n' >"$tmp/dead.txt"
expect_error "deadlock" "deadlock at t=0s: rank 0 at .*dead.txt:1 (recv) waits for recv from rank 1 tag 0" \
  simulate --topology mesh:4x4 --trace "$tmp/dead.txt" -o "$tmp/deadout"
check "no output after a deadlock" test ! -e "$tmp/deadout/summary.json"
expect_error "bad model" "unknown model 'wormhole'" simulate --topology mesh:4x4 --process mesh:4x4 --model wormhole
expect_error "bad flow solver" "unknown flow solver 'lmm': expected mapsim or simgrid" \
  simulate --topology mesh:4x4 --process mesh:4x4 --flow-solver lmm
for solver in mapsim simgrid; do
  "$mapsim" simulate --topology irregular:nodes=64,switches=20 --process mesh:8x8 --workload exchange:size=50000 \
    --flow-solver $solver --json >"$tmp/solver-$solver.json"
done
check "flow solvers agree" python3 -c "import json; a, b = (json.load(open('$tmp/solver-' + s + '.json')) for s in ('mapsim', 'simgrid')); assert abs(a['makespan'] - b['makespan']) <= 1e-9 * b['makespan'], (a['makespan'], b['makespan'])"
expect_error "process or trace" "give either --process" simulate --topology mesh:4x4
"$mapsim" simulate --topology tree2:switches=4,nodes_per_switch=32 --process mesh:16x8 --workload exchange:size=1MB \
  --model store-and-forward --ocs ocs:pathways=48,threshold=8192,setup=0s --json -o "$tmp/ocs" >"$tmp/ocs.json"
python3 - "$tmp/ocs.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["circuits"] == 48 and d["optical_messages"] == 96 and d["core_switch_load"] == 0, d
assert 0 < d["relative_makespan"] < 1 and d["eps_only_makespan"] > d["makespan"]
PY
check "simulate --ocs summary" test $? -eq 0
check "circuit rows in links.csv" test "$(grep -c '^circuit,' "$tmp/ocs/links.csv")" -eq 48
expect_error "ocs on the flow model" "need the store-and-forward or packet model" \
  simulate --topology tree2 --process ring:8 --ocs ocs:pathways=1
expect_error "ocs typo" "unknown key 'setup_delay' for ocs" \
  simulate --topology tree2 --process ring:8 --model packet --ocs ocs:setup_delay=1ms

# run: the default scenario, byte-identical reruns, --set, --draw, located errors.
"$mapsim" run "$src/configs/default.yaml" -o "$tmp/run1" --set replicates=2 >"$tmp/run.out"
check "run exit" test $? -eq 0
check "run table" grep -q "^binary " "$tmp/run.out"
check "run outputs" test -s "$tmp/run1/results.csv" -a -s "$tmp/run1/links.csv" -a -s "$tmp/run1/summary.json" -a -s "$tmp/run1/timings.csv"
check "run rows: 2 replicates x 4 mappers" test "$(wc -l <"$tmp/run1/results.csv")" -eq 9
"$mapsim" run "$src/configs/default.yaml" -o "$tmp/run2" --set replicates=2 --draw "$tmp/net.svg" >/dev/null 2>&1
"$mapsim" run "$src/configs/default.yaml" -o "$tmp/run3/" --set replicates=1 >"$tmp/run3.out" 2>/dev/null
check "run names its results file once" grep -qx "results: $tmp/run3/results.csv" "$tmp/run3.out"
check "run is deterministic" cmp -s "$tmp/run1/results.csv" "$tmp/run2/results.csv"
check "run links deterministic" cmp -s "$tmp/run1/links.csv" "$tmp/run2/links.csv"
check "run summary deterministic" cmp -s "$tmp/run1/summary.json" "$tmp/run2/summary.json"
check "draw one svg per mapper" grep -q "<svg" "$tmp/net-binary.svg"
"$mapsim" run "$src/configs/default.yaml" -o "$tmp/run3" --set replicates=1 --draw "$tmp/net.dot" --draw-view switches >/dev/null 2>&1
check "draw: one scale for every mapper" test "$(grep -ho '<TD BGCOLOR="#D91616">[^<]*(shared scale)' "$tmp"/net-*.dot | sort -u | wc -l)" -eq 1
check "draw: switch view" bash -c "grep -q 'xlabel=' '$tmp/net-binary.dot' && ! grep -q ' n0 ' '$tmp/net-binary.dot'"
python3 - "$tmp/run1/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["replicates"] == 2 and d["model"] == "store-and-forward"
m = d["mappers"]
assert list(m) == ["random", "switch", "binary", "adjacency"]
assert m["binary"]["sim_avg_latency"]["mean"] < m["random"]["sim_avg_latency"]["mean"]
assert d["scenario"]["network"]["nodes"] == 256
PY
check "run summary.json" test $? -eq 0
printf 'network: mesh:4x4\nworkload:\n  process: mesh:4x4\nmodel:\n  name: flow\n  t_p: 20 furlongs\n' >"$tmp/bad.yaml"
expect_error "scenario bad unit" "bad.yaml:6:8: bad time '20 furlongs'" run "$tmp/bad.yaml" -o "$tmp/badrun"
check "no output after a bad scenario" test ! -e "$tmp/badrun"
printf 'network: mesh:2x2\nworkload:\n  process: mesh:2x2\n  pattern: alltoall:size=100\nmodel:\n  name: flow\n  collectives: alltoall=pair,allgatherv=fast\n' >"$tmp/coll.yaml"
expect_error "scenario collectives" "coll.yaml:7:16: model.collectives: allgatherv has no algorithm 'fast'; expected one of mapsim, GB, mpich, mpich_rdb" run "$tmp/coll.yaml" -o "$tmp/collrun"
expect_error "simulate collectives" "unknown collective 'gatherv'" simulate --topology mesh:2x2 --process mesh:2x2 --workload alltoall --collectives gatherv=linear
expect_error "simulate collectives: no such library" "'openmpi' in 'openmpi' is no library; expected mapsim, mpich or ompi" simulate --topology mesh:2x2 --process mesh:2x2 --workload alltoall --collectives openmpi
check "simulate collectives: ompi picks Open MPI's basic linear alltoall for 4 ranks" bash -c "for c in ompi alltoall=basic_linear; do '$mapsim' simulate --topology mesh:2x2 --process mesh:2x2 --workload alltoall --collectives \$c --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[\"makespan\"])'; done | uniq | wc -l | grep -qx 1"
check "simulate collectives: mpich picks the scattered alltoall for 4 ranks of short blocks" bash -c "for c in mpich alltoall=mvapich2_scatter_dest; do '$mapsim' simulate --topology mesh:2x2 --process mesh:2x2 --workload alltoall --collectives \$c --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[\"messages\"])'; done | uniq | wc -l | grep -qx 1"
check "simulate collectives: bruck sends log2 p messages per rank" bash -c "'$mapsim' simulate --topology mesh:2x2 --process mesh:2x2 --workload alltoall --collectives alltoall=bruck --json | python3 -c 'import json, sys; assert json.load(sys.stdin)[\"messages\"] == 8'"
printf 'network: mesh:4x4\nworkload: {process: mesh:4x4}\nmaping: [best]\n' >"$tmp/typo.yaml"
expect_error "scenario typo" "typo.yaml:3:1: unknown key 'maping' (did you mean 'mapping'?)" run "$tmp/typo.yaml"
printf 'network: mesh:4x4\nworkload: {process: mesh:4x4\n' >"$tmp/broken.yaml"
expect_error "malformed yaml" "broken.yaml:3:1: malformed YAML" run "$tmp/broken.yaml"
expect_error "run --set" "unknown key 'netwrk' (did you mean 'network'?)" run "$src/configs/default.yaml" --set netwrk.nodes=3
expect_error "draw format" "expected a .svg, .png, .pdf or .dot" run "$src/configs/default.yaml" -o "$tmp/d" --draw "$tmp/x.gif"
check "nothing run for a bad --draw" test ! -e "$tmp/d"

# run goes on past a mapper that does not fit, keeps finished replicates on an interrupt, resumes.
cat >"$tmp/fit.yaml" <<'YAML'
network: irregular:nodes=64,switches=16
workload: {process: mesh:4x4x4}
mapping: [default, adjacency, random]
model: none
replicates: 2
YAML
"$mapsim" run "$tmp/fit.yaml" -o "$tmp/fit" >"$tmp/fit.out" 2>/dev/null
check "run with an unfit mapper exits 2" test $? -eq 2
check "unfit mapper in failed.csv" grep -q "^0,adjacency,\"not run: $tmp/fit.yaml:3:20: mapping.1: the adjacency mapper" "$tmp/fit/failed.csv"
check "the other mappers ran" test "$(wc -l <"$tmp/fit/results.csv")" -eq $((1 + 2 * 2))
check "complete run leaves no checkpoint" test ! -e "$tmp/fit/partial"
cat >"$tmp/long.yaml" <<'YAML'
network: irregular:nodes=256,switches=64
workload: {process: mesh:16x16, pattern: "exchange:iterations=20"}
mapping: [default, random]
model: store-and-forward
replicates: 8
YAML
"$mapsim" run "$tmp/long.yaml" -o "$tmp/long-full" >/dev/null 2>&1
"$mapsim" run "$tmp/long.yaml" -o "$tmp/long" >/dev/null 2>"$tmp/long.err" &
pid=$!
for _ in $(seq 100); do [ -e "$tmp/long/partial/replicate-1.json" ] && break; sleep 0.05; done
kill -INT $pid
wait $pid
check "interrupted run exits 130" test $? -eq 130
check "interrupted run says how to go on" grep -q "rerun with --resume" "$tmp/long.err"
check "interrupted run writes no summary.json" test ! -e "$tmp/long/summary.json"
"$mapsim" run "$tmp/long.yaml" -o "$tmp/long" --resume >/dev/null 2>"$tmp/long.err"
check "resumed run says what it kept" grep -q "resuming: [1-7] of 8 replicates done before" "$tmp/long.err"
check "resumed run equals an uninterrupted one" cmp -s "$tmp/long/results.csv" "$tmp/long-full/results.csv"
# --timeline: a Paje trace that pajeng reads back with every message and compute interval.
"$mapsim" simulate --topology mesh:2x2 --process ring:4 --workload exchange:iterations=2,compute=1e5 \
  --timeline "$tmp/run.paje" >/dev/null 2>&1
check "timeline written" test -s "$tmp/run.paje"
if command -v pj_dump >/dev/null; then
  pj_dump "$tmp/run.paje" >"$tmp/paje.txt" 2>"$tmp/paje.err"
  check "pajeng reads the timeline" test $? -eq 0 -a ! -s "$tmp/paje.err"
  check "timeline: a link per message" test "$(grep -c '^Link' "$tmp/paje.txt")" -eq 16
  # 2 compute intervals of 1e5 flop at 1e9 flop/s per rank
  check "timeline: compute states" test "$(grep '^State' "$tmp/paje.txt" | grep -c ', 0.000100, 0.000000, compute$')" -eq 8
fi
"$mapsim" simulate --topology mesh:2x2 --process ring:4 --timeline "$tmp/run.csv" >/dev/null 2>&1
check "timeline as csv" grep -q "^0,waitall,0," "$tmp/run.csv"
expect_error "timeline format" "expected a .paje (or .trace) or .csv file" simulate --topology mesh:2x2 --process ring:4 --timeline "$tmp/x.otf"
# Hostile input (issue 17): each is one line naming the file and what was expected, exit 1, no output.
printf 'network: mesh:2x2\nnetwork: mesh:4x4\nworkload: {process: ring:4}\n' >"$tmp/dupkey.yaml"
expect_error "duplicate YAML key" "dupkey.yaml:2:1: key 'network' is given twice in this mapping (first on line 1)" run "$tmp/dupkey.yaml" -o "$tmp/h1"
printf 'network: mesh:2x2\nworkload: {process: ring:4}\nmapping: [random, random]\n' >"$tmp/dupmap.yaml"
expect_error "a mapper listed twice" "mapping: 'random' is listed twice" run "$tmp/dupmap.yaml" -o "$tmp/h2"
python3 - "$tmp/bomb.yaml" <<'PY'
import sys
lines = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]']
for prev, n in zip('abcdefgh', 'bcdefghi'):
    lines.append(f'{n}: &{n} [' + ', '.join(['*' + prev] * 9) + ']')
open(sys.argv[1], 'w').write('\n'.join(lines) + '\n')
PY
expect_error "YAML alias bomb in a file" "expands to more than 5000000 values" run "$tmp/bomb.yaml" -o "$tmp/h3"
expect_error "YAML alias bomb in --set" "expands to more than 5000000 values" run "$src/configs/default.yaml" -o "$tmp/h4" \
  --set "seed=[&a [x,x,x,x,x,x,x,x,x,x], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b], &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c], &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d], &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e], &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]]"
expect_error "a device as a trace" "/dev/zero: not a regular file (a device or pipe); expected a trace file" trace stats /dev/zero
expect_error "a directory as a trace" ": is a directory; expected a trace file" trace stats "$tmp"
expect_error "a directory as a scenario" ": is a directory; expected a YAML file" run "$tmp"
expect_error "a device as a graph" "not a regular file (a device or pipe); expected a graph file" map --topology mesh:2x2 --process graph:/dev/zero
expect_error "zero bandwidth" "bad bandwidth '0': must be above 0" topo irregular:nodes=16,switches=4,link_bw=0
expect_error "infinite bandwidth" "bad bandwidth '1e400Gbps'" topo irregular:nodes=16,switches=4,link_bw=1e400Gbps
printf 'switches:\n  - {name: a, ports: 4294967304}\nnodes: []\nlinks: []\n' >"$tmp/wrap.yaml"
expect_error "integer that would wrap" "expected ports to be an integer in 1..65536, got '4294967304'" topo "file:$tmp/wrap.yaml"
printf 'scenario: {network: mesh:2x2, workload: {process: ring:4}, model: none}\nvary:\n  seed: [1, 7]\n' >"$tmp/seedvary.yaml"
"$mapsim" sweep "$tmp/seedvary.yaml" -o "$tmp/seedvary" >/dev/null 2>&1
check "a varied seed: one seed column in results.csv" grep -q "^point,replicate,seed,mapper," "$tmp/seedvary/results.csv"
check "a varied seed: in aggregate.csv" grep -q "^point,seed,mapper,n," "$tmp/seedvary/aggregate.csv"
expect_error "two outputs on one file" "-o and --rankfile name the same file" map --topology mesh:2x2 --process ring:4 -o "$tmp/same.txt" --rankfile "$tmp/same.txt"
check "nothing written for two outputs on one file" test ! -e "$tmp/same.txt"
printf 'a,b,a\n1,2,3\n' >"$tmp/dupcol.csv"
expect_error "a CSV column twice" "dupcol.csv:1: column 'a' appears twice in the header" plot "$tmp/dupcol.csv" --x a --y b --table
printf 'x,mapper,y\n1,a,nan\n2,a,3\n' >"$tmp/nan.csv"
expect_error "NaN in a plotted column" "nan.csv: row 1: y is 'nan', not a finite number" plot "$tmp/nan.csv" --x x --y y --table
expect_error "--draw into a missing folder" "the folder /nonexistent-dir does not exist" run "$src/configs/default.yaml" -o "$tmp/h6" --draw /nonexistent-dir/net.svg
# Sizes are checked in 64 bits before anything is built.
expect_error "fattree that overflows" "fattree would have over 4611686018427387904 switches (limit 1048576)" topo fattree:k=100,levels=10
expect_error "suprenum too large" "suprenum would have 68719476736 processors (limit 16777216)" topo suprenum:c=4096,d=4096
expect_error "tree2 too large" "tree2 would have 16777217 switches (limit 1048576)" topo tree2:switches=16777216,nodes_per_switch=32
expect_error "hyperx too many links" "hyperx would have 999000000 links (limit 16777216)" topo hyperx:1000x1000
printf '0 send 1 0 10\n100000000 recv 0 0 10\n' >"$tmp/hugerank.txt"
expect_error "a rank past the limit" "hugerank.txt:2: rank 100000000 is above the limit of 4194304 ranks" trace stats "$tmp/hugerank.txt"
sed 's/4xEDR$/4xZZZ/' "$src/configs/networks/example.ibnet" >"$tmp/speed.ibnet"
expect_error "ibnet: unknown link rate" "speed.ibnet:11: unknown link rate '4xZZZ'" topo "ibnet:$tmp/speed.ibnet"
sed 's/^\[2\]\t"H-248a0703009c0020"/[99]\t"H-248a0703009c0020"/' "$src/configs/networks/example.ibnet" >"$tmp/port.ibnet"
expect_error "ibnet: a port the switch does not have" "port.ibnet:12: port 99 of S-7cfe900300a1b2c0, which has ports 1..36" topo "ibnet:$tmp/port.ibnet"
expect_error "a workload too large to build" "about 1.44e+10 actions, above the limit of 268435456" simulate --topology mesh:4x4 --process mesh:4x4 --workload exchange:iterations=100000000
expect_error "table routing limit, reported before any work" "updown routing keeps S x S distances; 64000 switches need 16.384 GB, over its limit of 8 GB" topo irregular:nodes=64000,switches=64000,ports=4 --routing updown
printf 'x,mapper,y\n1,a,2\n2,a,3\n' >"$tmp/small-plot.csv"
expect_error "plot into a missing folder" "the folder /nonexistent-dir does not exist" plot "$tmp/small-plot.csv" --x x --y y -o /nonexistent-dir/fig.svg
printf 'x,mapper,y\n1,a,-2\n2,a,-3\n' >"$tmp/negative-plot.csv"  # no point on a log axis: gnuplot's error comes back as one line
expect_error "gnuplot's own error in one line" "negative.svg: gnuplot failed (exit status 1): .*all points y value undefined" plot "$tmp/negative-plot.csv" --x x --y y --logy -o "$tmp/negative.svg"
mkdir -p "$tmp/blocked.svg.partial"
expect_error "an unwritable temporary file, with the reason" "blocked.svg: cannot write file (Is a directory)" plot "$tmp/small-plot.csv" --x x --y y -o "$tmp/blocked.svg"
# What input puts in a message is printable, one line and bounded; --set and flags are blamed, not the file.
printf '0 send 1 0 \001\377\n1 recv 0 0 8\n' >"$tmp/binary.txt"
expect_error "binary bytes are escaped in a message" "binary.txt:1: expected size, got '\\\\x01\\\\xFF'" trace check "$tmp/binary.txt"
check "no raw control byte on stderr" bash -c "! LC_ALL=C grep -q \$'\\001' '$tmp/err'"
python3 -c "import sys; sys.stdout.write('0 send 1 0 ' + 'A' * 10000000 + '\n1 recv 0 0 8\n')" >"$tmp/token.txt"
expect_error "a 10 MB token is cut" "got 'AAAA*\[\.\.\. 9999882 bytes \.\.\.\]AAAA*'" trace check "$tmp/token.txt"
check "a 10 MB token: a short message" test "$(wc -c <"$tmp/err")" -lt 400
printf 'network: mesh:2x2\nname: a\377\nworkload: {process: ring:4}\n' >"$tmp/utf8.yaml"
expect_error "YAML text that is not UTF-8" "utf8.yaml:2:7: expected text (UTF-8 without control characters), got 'a\\\\xFF'" run "$tmp/utf8.yaml" -o "$tmp/h7"
expect_error "--set is blamed, not the file" "^mapsim: error: --set seed=-1: seed must be >= 0$" run "$src/configs/default.yaml" -o "$tmp/h8" --set seed=-1
expect_error "--set inside a spec of the file" "^mapsim: error: --set network.nodes=abc: .*/configs/default.yaml:7:3: network: bad spec" \
  run "$src/configs/default.yaml" -o "$tmp/h8" --set network.nodes=abc
printf 'network: irregular:nodes=16,switches=4\nworkload: {process: mesh:4x4}\nmapping: hypersphere\nmodel: none\n' >"$tmp/unfit.yaml"
expect_error "a mapper that does not fit the network, at its line" "no mapper ran: not run: $tmp/unfit.yaml:3:10: mapping: the hypersphere mapper needs a hypercube" \
  run "$tmp/unfit.yaml" -o "$tmp/h9" --quiet
expect_error "a mapper that does not fit, blamed on --mapper" "^mapsim: error: --mapper: mapping: the hypersphere mapper needs a hypercube" \
  map --topology irregular:nodes=16,switches=4 --process mesh:4x4 --mapper hypersphere
printf '0 0\n1 0\n2 2\n3 3\n' >"$tmp/crowded.txt"
expect_error "a placement file that overfills a node" "crowded.txt: task 1 overfills node 0 (node-0): its slots are taken" \
  map --topology mesh:2x2 --process ring:4 --mapper "placement:$tmp/crowded.txt"
sed 's/^\[35\]\t"S-7cfe900300a1b3d0"\[35\]/[35]\t"S-7cfe900300a1b2c0"[34]/' "$src/configs/networks/example.ibnet" >"$tmp/self.ibnet"
expect_error "ibnet: a self-loop at its line" "self.ibnet:13: link from switch 'leaf-a' to itself" topo "ibnet:$tmp/self.ibnet"
sed 's/"leaf-a" enhanced/"leaf-\xffa" enhanced/' "$src/configs/networks/example.ibnet" >"$tmp/binary.ibnet"
"$mapsim" topo "ibnet:$tmp/binary.ibnet" --json >"$tmp/binary.json" 2>"$tmp/err"
check "ibnet: a description that is not a plain word gives the GUID as name" grep -q 'S-7cfe900300a1b2c0->leaf-b' "$tmp/binary.json"
expect_error "simulate --model none" "--model: simulate needs a simulation model, not none: expected one of flit, flow, packet, store-and-forward" \
  simulate --topology mesh:2x2 --process ring:4 --model none
expect_error "simulate --draw-load credit-waits without flit" "--draw-load credit-waits: only the flit model (--model flit) waits for credits" \
  simulate --topology mesh:2x2 --process ring:4 --model packet --draw "$tmp/w.svg" --draw-load credit-waits
check "simulate --model flit:... --draw-load credit-waits draws the waits" \
  bash -c "'$mapsim' simulate --topology mesh:4x1 --process ring:4 --model flit:vcs=1,buffer=64,flit=16B,mtu=1KiB --draw '$tmp/waits.dot' --draw-load credit-waits >/dev/null 2>&1 && grep -q 'waited for credits' '$tmp/waits.dot'"
python3 -c "print('# ' + 'x' * 40000)" >"$tmp/long.ibnet"
expect_error "ibnet: a 40 KB line" "long.ibnet:1: line longer than 4096 bytes; expected ibnetdiscover output" topo "ibnet:$tmp/long.ibnet"
expect_error "lft: a 40 KB line" "long.ibnet:1: line longer than 4096 bytes; expected ibroute / dump_lfts.sh output" \
  topo "ibnet:$src/configs/networks/example.ibnet,lft=$tmp/long.ibnet"
echo "$tmp/self-index.txt" >"$tmp/self-index.txt"
expect_error "trace index naming itself" "self-index.txt:1: the trace index names itself" trace stats "$tmp/self-index.txt"
expect_error "simulate on a self-index" "self-index.txt:1: the trace index names itself" simulate --topology mesh:2x2 --trace "$tmp/self-index.txt"
echo "$tmp/idx-b.txt" >"$tmp/idx-a.txt"; echo "$tmp/idx-a.txt" >"$tmp/idx-b.txt"
expect_error "two indexes naming each other" "idx-b.txt:1: trace indexes form a cycle through $tmp/idx-a.txt" \
  map --topology mesh:2x2 --process "trace:$tmp/idx-a.txt" --mapper default
expect_error "an integer out of range in a spec" "seed=18446744073709551617 is out of range" topo irregular:nodes=16,switches=4,seed=18446744073709551617
expect_error "a dimension out of range" "dimension 4294967297 of '4294967297x1' must be in 1..1000000" topo mesh:4294967297x1
expect_error "a packet size below a byte" "--mtu: model.mtu must be at least 1 byte" simulate --topology mesh:2x2 --process ring:4 --model packet --mtu 0.001B
expect_error "a message of too many packets" "would be 1e+09 packets of 1 bytes, above the limit of 16777216 per message" \
  simulate --topology mesh:2x2 --process ring:4 --model packet --mtu 1B --workload exchange:size=1GB
expect_error "plot --scale nan" "--scale: expected a finite number other than 0, got 'nan'" plot "$tmp/small-plot.csv" --x x --y y --scale nan --table
check "no output from hostile runs" test ! -e "$tmp/h1" -a ! -e "$tmp/h2" -a ! -e "$tmp/h3" -a ! -e "$tmp/h4" -a ! -e "$tmp/h6" -a ! -e "$tmp/h7" -a ! -e "$tmp/h8"
# Progress lines on stderr when it is not a terminal; --no-progress silences them.
"$mapsim" simulate --topology irregular:nodes=256,switches=64 --process mesh:16x16 --workload exchange:iterations=300 \
  --model store-and-forward --progress=0.01 >/dev/null 2>"$tmp/progress.err"
check "simulate progress lines" grep -q "^mapsim: progress: simulate: [0-9]*/[0-9]* actions ([0-9]*%), t=.* simulated, .* events, [0-9]* messages, .* elapsed, ETA" "$tmp/progress.err"
"$mapsim" run "$tmp/long.yaml" -o "$tmp/long" --set replicates=2 --progress=0.001 --no-progress >/dev/null 2>"$tmp/progress.err"
check "--no-progress" test ! -s "$tmp/progress.err"

# sweep: parallel run, resume, point, merge, emit; plot.
cat >"$tmp/sweep.yaml" <<'YAML'
scenario:
  network: mesh:4x4
  workload: {process: mesh:4x4}
  mapping: [default, random]
  model: none
  replicates: 3
vary:
  workload.process: [mesh:4x4, mesh:2x2, ring:16, mesh:2x2x4]
set:
  mapping: [default, random, adjacency]
YAML
"$mapsim" sweep "$tmp/sweep.yaml" -j 2 -o "$tmp/sw" >"$tmp/sw.out"
check "sweep with a failing point exits 2" test $? -eq 2
check "sweep summary" grep -q "4 of 4 points done, 1 mapper run(s) failed" "$tmp/sw.out"
check "failed mapper recorded per replicate" test "$(grep -c "^3,mesh:2x2x4,[0-9a-f]*,0,adjacency,.*not run: $tmp/sweep.yaml:10:12: set.mapping: mapping.2: the adjacency mapper" "$tmp/sw/failed.csv")" -eq 1
check "sweep results rows" test "$(wc -l <"$tmp/sw/results.csv")" -eq $((1 + 3 * 3 * 3 + 3 * 2))
check "aggregate rows" test "$(wc -l <"$tmp/sw/aggregate.csv")" -eq $((1 + 3 * 3 + 2))
"$mapsim" sweep "$tmp/sweep.yaml" -o "$tmp/sw" --resume --progress=0.001 >"$tmp/sw2.out" 2>"$tmp/sw2.err"
check "resume keeps every point" grep -q "(4 from before)" "$tmp/sw2.out"
check "resumed points are not progress" bash -c "! grep -q 'progress: sweep' '$tmp/sw2.err'"
"$mapsim" sweep "$tmp/sweep.yaml" -o "$tmp/swp" --point 1 >/dev/null
check "one point" test "$(ls "$tmp/swp/points" | wc -l)" -eq 1
"$mapsim" sweep "$tmp/sweep.yaml" -o "$tmp/swp" --merge >/dev/null
check "merge with missing points exits 2" test $? -eq 2
"$mapsim" sweep "$tmp/sweep.yaml" -o "$tmp/swp" --emit slurm >/dev/null
check "slurm script" grep -q "^#SBATCH --array=0-3$" "$tmp/swp/sweep.slurm"
"$mapsim" sweep "$tmp/sweep.yaml" -o "$tmp/swp" --emit parallel --resume >/dev/null
check "parallel list skips done points" test "$(wc -l <"$tmp/swp/jobs.txt")" -eq 3
expect_error "sweep point range" "the sweep has points 0..3" sweep "$tmp/sweep.yaml" -o "$tmp/swp" --point 9
"$mapsim" sweep "$tmp/sweep.yaml" -j 2 -o "$tmp/swi" --set replicates=1000000 >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
check "interrupted sweep exits 130" test $? -eq 130
check "interrupted sweep leaves consistent tables" grep -q "^point,workload.process,replicate," "$tmp/swi/results.csv"
check "interrupted sweep stops its points" test -z "$(pgrep -f "$tmp/swi")"
"$mapsim" plot "$tmp/sw/results.csv" --x workload.process --y weighted_cardinality --table >"$tmp/table.md"
check "plot table" grep -q "^| mesh:4x4 | 24 ± 0 |" "$tmp/table.md"
"$mapsim" plot "$tmp/sw/aggregate.csv" --x workload.process --y cardinality -o "$tmp/fig.svg" 2>/dev/null
check "plot svg" grep -q "<svg" "$tmp/fig.svg"
"$mapsim" plot "$tmp/sw/aggregate.csv" --x workload.process --y cardinality -o "$tmp/fig2.svg" --script "$tmp/fig2.gp" 2>/dev/null
rm -f "$tmp/fig2.svg"
(cd "$tmp" && gnuplot fig2.gp 2>/dev/null)
check "a saved plot script reruns as is" grep -q "<svg" "$tmp/fig2.svg"
# A unit-valued axis: a numeric companion column, plotted by value (log scale too), labelled as written.
cat >"$tmp/bw.yaml" <<'YAML'
scenario:
  network: mesh:2x2
  workload: {process: mesh:2x2, pattern: "exchange:iterations=1,size=64KiB"}
  mapping: [default]
  model: flow
vary:
  model.link_bandwidth: [10Gbps, 2.5Gbps, 40Gbps]
YAML
"$mapsim" sweep "$tmp/bw.yaml" -o "$tmp/bw" >/dev/null 2>&1
check "unit axis has an SI column" grep -q "^0,10Gbps,1.25e+09,0," "$tmp/bw/results.csv"
"$mapsim" plot "$tmp/bw/results.csv" --x model.link_bandwidth --y sim_makespan --logx -o "$tmp/bw.svg" --script "$tmp/bw.gp" 2>/dev/null
check "unit axis placed by value" grep -q '^set xtics ("2.5Gbps" 312500000, "10Gbps" 1.25e+09, "40Gbps" 5e+09)$' "$tmp/bw.gp"
expect_error "--logx on categories" "--logx needs a numeric workload.process" plot "$tmp/sw/results.csv" --x workload.process --y cardinality --logx --table
# Text from a CSV or the command line never runs as gnuplot commands (a newline, then "!" runs a shell).
printf 'x,mapper,y\n1,"a\n!touch %s/pwned1\n",2\n2,b,3\n' "$tmp" >"$tmp/evil.csv"
"$mapsim" plot "$tmp/evil.csv" --x x --y y -o "$tmp/evil.svg" --title "$(printf 't\n!touch %s/pwned2' "$tmp")" >/dev/null 2>&1
check "plot: no gnuplot injection from a CSV field or --title" test ! -e "$tmp/pwned1" -a ! -e "$tmp/pwned2" -a -s "$tmp/evil.svg"
expect_error "plot column" "no such column (did you mean 'cardinality'?)" plot "$tmp/sw/results.csv" --x workload.process --y cardinalty --table

# Networks of today's machines and open-loop traffic (issue 16).
"$mapsim" topo file:"$src"/configs/networks/leaf-spine-512.yaml --routing updown >"$tmp/ls.txt" 2>"$tmp/ls.err"
check "topo warns on an unbalanced routing" grep -q "a few links carry most routes" "$tmp/ls.err"
# simulate --profile (issue 34): the phases on stderr, the table on stdout as without it.
"$mapsim" simulate --topology mesh:4x4 --process mesh:4x4 --profile >"$tmp/prof.out" 2>"$tmp/prof.err"
"$mapsim" simulate --topology mesh:4x4 --process mesh:4x4 >"$tmp/noprof.out" 2>/dev/null
check "simulate --profile: every phase and the total" test "$(grep -Ec '^  (scenario and trace read|network, routing and workload built|placement \(default\)|simulation: bandwidth sharing solver|simulation: event loop and model|simulation: engine set-up, child process|output|total) ' "$tmp/prof.err")" -eq 8
check "simulate --profile: stdout unchanged but for the wall time" \
  cmp -s <(grep -v wall "$tmp/prof.out") <(grep -v wall "$tmp/noprof.out")
check "topo's warning points other routings at the balanced tables" grep -q "compare the balanced tables of --routing updn or minhop" "$tmp/ls.err"
"$mapsim" topo torus:16x16 --routing updn >/dev/null 2>"$tmp/tu.err"
check "topo's warning on updn itself points at path selection only" \
  grep -q "routing updn: a few links carry most routes (.*); compare a --path-selection of the simulation$" "$tmp/tu.err"
check "topo reports idle links" grep -q "960 of 1024 links carry none" "$tmp/ls.txt"
"$mapsim" topo file:"$src"/configs/networks/leaf-spine-512.yaml --json >"$tmp/ls.json" 2>"$tmp/ls.err"
check "balanced tables by default on a network file" grep -q '"routing": "updn"' "$tmp/ls.json"
check "no warning when balanced" test ! -s "$tmp/ls.err"
"$mapsim" traffic --topology dragonfly:a=2,p=1,h=1 --routing ugal-g --pattern group-shift --load 0.1,0.2 --format csv \
  -o "$tmp/t.csv" 2>/dev/null
check "traffic csv: header and one row per load" test "$(wc -l <"$tmp/t.csv")" -eq 3
check "traffic csv names its run" grep -q "^\"dragonfly:a=2,p=1,h=1\",ugal-g,packet,deterministic,group-shift,0.1," "$tmp/t.csv"
"$mapsim" traffic --topology dragonfly:a=2,p=1,h=1 --routing ugal-g --pattern group-shift --load 0.1,0.2 --format csv \
  -o "$tmp/t2.csv" 2>/dev/null
check "traffic is deterministic" cmp -s "$tmp/t.csv" "$tmp/t2.csv"
expect_error "traffic load" "offered load must be in (0, 1]" traffic --topology mesh:4x4 --load 1.5
expect_error "traffic load list" "--load: expected numbers" traffic --topology mesh:4x4 --load 0.1,x
expect_error "traffic pattern" "unknown traffic pattern 'hotspot'" traffic --topology mesh:4x4 --pattern hotspot
expect_error "adaptive needs a port model" "use the store-and-forward or packet model, not flow" \
  traffic --topology fattree:nodes=32,radix=8 --path-selection adaptive --model flow
expect_error "path selection name" "expected deterministic, ecmp, spray or adaptive" \
  simulate --topology mesh:4x4 --process ring:16 --path-selection random
expect_error "ugal on the flow model" "ugal-l routing chooses paths per packet" \
  simulate --topology dragonfly:a=2,p=1,h=1 --routing ugal-l --process ring:6 --workload alltoall

# Traffic results name their run, one unit per latency column; plot compares routings from several files (issue 32).
"$mapsim" traffic --topology dragonfly:a=2,p=1,h=1 --routing minimal --pattern group-shift --load 0.1,1 \
  >"$tmp/tt.txt" 2>/dev/null
check "traffic table: title line" grep -q "^traffic on dragonfly:a=2,p=1,h=1: routing minimal, pattern group-shift, model packet" "$tmp/tt.txt"
check "traffic table: units in the header" grep -Eq "^offered +accepted +latency mean \((s|ms|us|ns)\) +p99 \((s|ms|us|ns)\) +zero-load \((s|ms|us|ns)\) +hops$" "$tmp/tt.txt"
check "traffic table: plain numbers in the rows" test "$(tail -n +3 "$tmp/tt.txt" | grep -Ec '^ *[0-9.]+( +[0-9.]+){5}$')" -eq 2
"$mapsim" traffic --topology dragonfly:a=2,p=1,h=1 --routing minimal --pattern group-shift --load 0.1,0.2 --format csv \
  -o "$tmp/tmin.csv" 2>/dev/null
"$mapsim" plot "$tmp/tmin.csv" "$tmp/t.csv" --x offered --y accepted --by routing --table >"$tmp/tp.md" 2>"$tmp/tp.err"
check "plot: several CSV files, one series per routing" grep -q "^| offered | minimal | ugal-g |$" "$tmp/tp.md"
cat "$tmp/tmin.csv" "$tmp/t.csv" >"$tmp/tcat.csv"
"$mapsim" plot "$tmp/tcat.csv" --x offered --y accepted --by routing --table >"$tmp/tp2.md" 2>/dev/null
check "plot: CSV files concatenated by hand (repeated header)" cmp -s "$tmp/tp.md" "$tmp/tp2.md"
expect_error "plot: a missing one of several files" "nothing.csv" plot "$tmp/tmin.csv" "$tmp/nothing.csv" --x offered --y accepted --by routing --table

# Ctrl-C as a terminal sends it, to the whole process group (issue 32): no text from the simulation
# engine, one interrupt line that ends with a newline and says what is kept, and --resume goes on.
# group_interrupt NAME CONDITION ARGS...: runs mapsim ARGS in a process group of its own (stderr in
# $tmp/NAME.err), waits (at most 30 s) until CONDITION holds, sends SIGINT to the group; $rc: its exit status.
group_interrupt() {
  local name=$1 condition=$2; shift 2
  setsid "$mapsim" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  local pid=$!
  for _ in $(seq 600); do eval "$condition" && break; sleep 0.05; done
  kill -INT -- "-$pid"
  wait "$pid"
  rc=$?
}
interrupt_is_clean() {  # interrupt_is_clean NAME WHAT
  local name=$1 what=$2 err="$tmp/$1.err"
  check "$what: exit status 130" test "$rc" -eq 130
  check "$what: no crash text" bash -c "! grep -Eqi 'segmentation|sigsegv|ctrl-c|access violation|backtrace|simgrid' '$err'"
  check "$what: one interrupt line" test "$(grep -c 'interrupted' "$err")" -eq 1
  check "$what: the interrupt line ends with a newline" test -s "$err" -a -z "$(tail -c 1 "$err")"
  check "$what: its processes end" test -z "$(pgrep -f "$tmp/$name")"
}
group_interrupt gi '[ -e "$tmp/gi/partial/replicate-0.json" ]' run "$tmp/long.yaml" -o "$tmp/gi"
interrupt_is_clean gi "run, Ctrl-C to the group"
check "run, Ctrl-C to the group: says what is kept and how to go on" \
  grep -Eq "^mapsim: interrupted; [1-7] of 8 replicates are kept in $tmp/gi/partial: rerun with --resume to run the other [1-7]$" "$tmp/gi.err"
"$mapsim" run "$tmp/long.yaml" -o "$tmp/gi" --resume >/dev/null 2>"$tmp/gi2.err"
check "run, Ctrl-C to the group: --resume completes" test $? -eq 0
check "run, Ctrl-C to the group: resumed run equals an uninterrupted one" cmp -s "$tmp/gi/results.csv" "$tmp/long-full/results.csv"
sed 's/iterations=20/iterations=400/; s/replicates: 8/replicates: 2/' "$tmp/long.yaml" >"$tmp/slow.yaml"
group_interrupt gz 'grep -q simulating "$tmp/gz.err"' run "$tmp/slow.yaml" -o "$tmp/gz" --progress=0.05
interrupt_is_clean gz "run, Ctrl-C before a replicate finished"
check "run, nothing kept: names no partial/ folder" \
  grep -q "^mapsim: interrupted before any replicate finished; nothing is kept: rerun the same command to start again$" "$tmp/gz.err"
check "run, nothing kept: no partial/ folder" test ! -e "$tmp/gz/partial"
cat >"$tmp/gsweep.yaml" <<'YAML'
scenario: slow.yaml
replicates: 1
vary:
  workload.pattern: ["exchange:iterations=1", "exchange:iterations=150"]
YAML
group_interrupt gs '[ -n "$(ls "$tmp/gs/points" 2>/dev/null)" ]' sweep "$tmp/gsweep.yaml" -j 1 -o "$tmp/gs"
interrupt_is_clean gs "sweep, Ctrl-C to the group"
check "sweep, Ctrl-C to the group: says what is kept and how to go on" \
  grep -q "^mapsim: interrupted; 1 of 2 points are kept in $tmp/gs/points: rerun with --resume to run the other 1$" "$tmp/gs.err"
"$mapsim" sweep "$tmp/gsweep.yaml" -j 1 -o "$tmp/gs" --resume >"$tmp/gs2.out" 2>/dev/null
check "sweep, Ctrl-C to the group: --resume completes" test $? -eq 0
check "sweep, Ctrl-C to the group: --resume keeps the finished point" grep -q "2 of 2 points done (1 from before)" "$tmp/gs2.out"
# run -o out/ --draw out/net.dot: the drawing goes into the output folder, made as -o makes it.
"$mapsim" run "$src/configs/default.yaml" -o "$tmp/fresh/" --set replicates=1 --set mapping=[switch] --draw "$tmp/fresh/net.dot" \
  >/dev/null 2>&1
check "--draw into a fresh output folder" test $? -eq 0 -a -s "$tmp/fresh/net.dot" -a -s "$tmp/fresh/results.csv"
expect_error "--draw into a missing folder elsewhere" "the folder $tmp/nowhere does not exist" \
  run "$src/configs/default.yaml" -o "$tmp/fresh2" --draw "$tmp/nowhere/net.dot"
check "nothing made for a --draw into a missing folder" test ! -e "$tmp/fresh2"
# Invalid combinations of keys: refused before anything runs, at FILE:LINE:COL, for runs and sweep points.
cat >"$tmp/combo.yaml" <<'YAML'
network: dragonfly:a=2,p=1,h=1
routing: ugal-l
workload: {process: ring:6, pattern: alltoall}
mapping: [default, random]
model: packet
ocs: {pathways: 2}
YAML
expect_error "ugal with optical circuits" "combo.yaml:2:10: routing: ugal-l routing is not available on a hybrid network with optical circuits (ocs)" \
  run "$tmp/combo.yaml" -o "$tmp/combo"
grep -v '^ocs:' "$tmp/combo.yaml" >"$tmp/combo-flow.yaml"
expect_error "ugal on the flow model, in a run" "combo-flow.yaml:2:10: routing: ugal-l routing chooses paths per packet" \
  run "$tmp/combo-flow.yaml" -o "$tmp/combo" --set model=flow
check "nothing made for an invalid combination" test ! -e "$tmp/combo"
cat >"$tmp/combo-sweep.yaml" <<'YAML'
scenario: combo-flow.yaml
set: {model: flow}
vary:
  routing: [minimal, ugal-l]
YAML
expect_error "a sweep point with an invalid combination" "combo-sweep.yaml: point 1 (routing=ugal-l): .*routing: ugal-l routing chooses paths per packet" \
  sweep "$tmp/combo-sweep.yaml" -o "$tmp/combo-sweep"
check "no sweep point runs when one is invalid" test ! -e "$tmp/combo-sweep"

# --- One flag name per concept (issue 32 item 8): --mapper/--mappers, --format with --json as its alias,
# simulate --draw; help defaults in the docs' units; topo --help spec lines; map's routed edges and
# trace stats' collective calls vs rank-calls (item 3).
net32=(--topology torus:4x4 --process mesh:4x4)
"$mapsim" map "${net32[@]}" --mapper switch >"$tmp/i32-map1"
"$mapsim" map "${net32[@]}" --mappers switch >"$tmp/i32-map2"
check "map: --mappers is --mapper" cmp -s "$tmp/i32-map1" "$tmp/i32-map2"
check "map: max link load counts routed edges, not messages" grep -q '^max link load .*(5 routed edges)$' "$tmp/i32-map1"
expect_error "map: --mapper with two mappers" "map runs one mapper, got 2 (switch,binary); mapsim compare runs several" \
  map "${net32[@]}" --mapper switch,binary
expect_error "simulate: --mappers with two mappers" "simulate runs one mapper, got 2" simulate "${net32[@]}" --mappers switch,binary
# same_json A B: two JSON files alike but for the run's own timings (seconds, rates, memory).
same_json() {
  python3 - "$1" "$2" <<'PY'
import json, sys
drop = lambda d: {k: v for k, v in json.load(open(d)).items() if not any(w in k for w in ("seconds", "per_second", "memory"))}
sys.exit(0 if drop(sys.argv[1]) == drop(sys.argv[2]) else 1)
PY
}
"$mapsim" map "${net32[@]}" --format json >"$tmp/i32-a.json"; "$mapsim" map "${net32[@]}" --json >"$tmp/i32-b.json"
check "map: --format json is --json" same_json "$tmp/i32-a.json" "$tmp/i32-b.json"
check "map: --format json is JSON" bash -c "'$mapsim' map ${net32[*]} --format json | python3 -c 'import json,sys; assert json.load(sys.stdin)[\"mapper\"] == \"default\"'"
expect_error "--format and --json together" "--format excludes --json" map "${net32[@]}" --format json --json
expect_error "map: no csv format" "--format: csv not in {table,json}" map "${net32[@]}" --format csv
check "topo: --format json is --json" bash -c "cmp -s <('$mapsim' topo mesh:2x2 --format json) <('$mapsim' topo mesh:2x2 --json)"
"$mapsim" simulate "${net32[@]}" --format json >"$tmp/i32-a.json"; "$mapsim" simulate "${net32[@]}" --json >"$tmp/i32-b.json"
check "simulate: --format json is --json" same_json "$tmp/i32-a.json" "$tmp/i32-b.json"
"$mapsim" compare "${net32[@]}" --mapper switch,binary --format csv --csv "$tmp/i32-compare.csv" >"$tmp/i32-compare-out.csv"
check "compare: --mapper is --mappers" test "$(wc -l <"$tmp/i32-compare-out.csv")" -eq 3
check "compare: --format csv prints what --csv writes" cmp -s "$tmp/i32-compare.csv" "$tmp/i32-compare-out.csv"
check "compare: --format json" bash -c "'$mapsim' compare ${net32[*]} --mappers switch,binary --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"replicates\"] == 1 and [m[\"mapper\"] for m in d[\"mappers\"]] == [\"switch\", \"binary\"]
assert d[\"mappers\"][0][\"max_link_messages\"][\"mean\"] == 5'"
check "compare: the table stays the default" bash -c "'$mapsim' compare ${net32[*]} --mappers switch | grep -q 'replicate(s); mean (stddev)'"
"$mapsim" simulate "${net32[@]}" --draw "$tmp/i32-sim.dot" >/dev/null 2>"$tmp/i32-draw.err"
check "simulate --draw FILE.dot writes the load picture" grep -q 'mapsim simulate: default' "$tmp/i32-sim.dot"
check "simulate --draw says where" grep -q "picture: $tmp/i32-sim.dot" "$tmp/i32-draw.err"
expect_error "simulate --draw: unknown picture format" "--draw $tmp/net.gif: expected a .svg, .png, .pdf or .dot file" \
  simulate "${net32[@]}" --draw "$tmp/net.gif"
expect_error "simulate --draw into a missing folder" "the folder $tmp/nowhere does not exist" simulate "${net32[@]}" --draw "$tmp/nowhere/n.dot"
"$mapsim" simulate --help >"$tmp/i32-simhelp"
check "simulate help: --eager default as the docs say" grep -q 'default 64KiB$' "$tmp/i32-simhelp"
check "simulate help: --mtu default as the docs say" grep -q 'packet model, default 4KiB$' "$tmp/i32-simhelp"
check "simulate help: --intra-node-bandwidth default as the docs say" grep -q 'one node, default 10GB/s$' "$tmp/i32-simhelp"
check "traffic help: --mtu default" bash -c "'$mapsim' traffic --help | grep -q 'Packet size (default 4KiB)'"
"$mapsim" topo --help >"$tmp/i32-topohelp"
check "topo help: fattree's spec line" grep -qx '  fattree:k=4,levels=LEVELS,nodes=NODES,radix=32,oversubscription=1,leaves=LEAVES,spines=SPINES' "$tmp/i32-topohelp"
check "topo help: what a key without a default means" grep -qx '      levels: 3, or the fewest that hold nodes=; nodes: none (k-ary n-tree); leaves: none (not a leaf-spine); spines: none (not a leaf-spine)' "$tmp/i32-topohelp"
check "topo help: required keys" grep -qx '  hypercube:dim=DIM,nodes_per_router=1' "$tmp/i32-topohelp"
check "topo help: no empty or spaced values in spec lines" bash -c "! grep -E '^  [a-z0-9]+:.*(=,|=\$|= | \\()' '$tmp/i32-topohelp' | grep -v '^  link keys'"
"$mapsim" simulate "${net32[@]}" --workload alltoall:iterations=3 --write-trace "$tmp/i32-trace" >/dev/null 2>&1
"$mapsim" trace stats "$tmp/i32-trace/index.txt" >"$tmp/i32-stats"
check "trace stats: collective calls" grep -qx 'collective calls       3' "$tmp/i32-stats"
check "trace stats: collective rank-calls" grep -q '^collective rank-calls  48 ' "$tmp/i32-stats"
check "trace stats: JSON keeps collectives (rank-calls), adds collective_calls" bash -c "'$mapsim' trace stats '$tmp/i32-trace/index.txt' --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"collectives\"] == 48 and d[\"collective_rank_calls\"] == 48 and d[\"collective_calls\"] == 3'"
# Units (issue 32): plot names a time's unit on the axis and in the table unless --scale is given; summary.json's units.
"$mapsim" plot "$tmp/run1/results.csv" --x replicate --y sim_makespan --table >"$tmp/u-table.md"
check "plot: a time without --scale, its unit in the table header" grep -qE '^\| replicate \\ sim\. makespan \((s|ms|us|ns)\) \| random \|' "$tmp/u-table.md"
check "plot: values in that unit, not raw seconds" bash -c "! grep -q 'e-0' '$tmp/u-table.md'"
"$mapsim" plot "$tmp/run1/results.csv" --x replicate --y sim_makespan -o "$tmp/u.svg" --script "$tmp/u.gp" 2>/dev/null
check "plot: the axis label names the unit" grep -qE '^set ylabel "sim\. makespan \((s|ms|us|ns)\)"$' "$tmp/u.gp"
"$mapsim" plot "$tmp/run1/results.csv" --x replicate --y sim_makespan -o "$tmp/u2.svg" --script "$tmp/u2.gp" --ylabel "run time" 2>/dev/null
check "plot: --ylabel is kept" grep -qx 'set ylabel "run time"' "$tmp/u2.gp"
"$mapsim" plot "$tmp/run1/results.csv" --x replicate --y sim_makespan --scale 1 -o "$tmp/u3.svg" --script "$tmp/u3.gp" --table >"$tmp/u3.md" 2>/dev/null
check "plot --scale: the column's name, no unit" grep -qx 'set ylabel "sim_makespan"' "$tmp/u3.gp"
check "plot --scale: the table header as before" grep -q '^| replicate | random |' "$tmp/u3.md"
check "plot --scale 1: raw seconds" grep -q 'e-0' "$tmp/u3.md"
"$mapsim" plot "$tmp/run1/results.csv" --x replicate --y hop_bytes --table >"$tmp/u4.md"
check "plot: other columns as they are" grep -q '^| replicate | random |' "$tmp/u4.md"
check "summary.json: units of the results.csv columns" python3 -c '
import csv, json, sys
d = json.load(open(sys.argv[1]))
u = d["units"]
assert list(d)[:11] == ["name", "source", "hash", "replicates", "seed", "model", "mappers", "rank_correlation", "portfolio", "failed", "scenario"]
assert u["sim_makespan"] == "s" and u["sim_avg_latency"] == "s" and u["zero_load_latency"] == "s" and u["congestion"] == "s"
assert u["max_link_load"] == "B" and u["sim_bytes"] == "B" and u["hop_bytes"] == "B x links"
assert u["sim_messages"] == "count" and u["cardinality"] == "hops"
columns = next(csv.reader(open(sys.argv[2])))
assert set(u) <= set(columns) and "mapper" not in u and "replicate" not in u
' "$tmp/run1/summary.json" "$tmp/run1/results.csv"
# Node insides (docs/network-file.md#node-insides): shown by topo, cores in map's rankfile, one-line errors.
node="$src/configs/nodes/two-socket.yaml"
check "topo shows node insides" bash -c "'$mapsim' topo mesh:2x1,node='$node' | grep -q '^node insides   machine > 2 package > 4 core (8 slots); ranks sharing machine 10GB/s 400ns, package 25GB/s 100ns$'"
check "no node insides line without them" bash -c "! '$mapsim' topo mesh:2x1 | grep -q 'node insides'"
"$mapsim" map --topology mesh:1x1,node="$node" --process ring:8 --slots 8 --launch rankfile="$tmp/ring.rf" >/dev/null 2>&1
check "map --launch with node insides: one core each" bash -c "cut -d= -f3 '$tmp/ring.rf' | sort -u | wc -l | grep -qx 8"
(cd "$src" && "$mapsim" run configs/nodes/two-socket-run.yaml -o "$tmp/ts-run" --set mapping=[multisection] --set model=none --launch rankfile >/dev/null 2>&1)
check "run --launch with node insides: the cores of map --launch" bash -c "cd '$src' && '$mapsim' map --topology fattree:k=2,levels=3,node='$node' --process ring:64 --slots 8 --mapper multisection --launch rankfile='$tmp/ts-map.rf' >/dev/null 2>&1 && cmp -s '$tmp/ts-map.rf' '$tmp/ts-run/multisection.rankfile' && cut -d= -f3 '$tmp/ts-map.rf' | sort -u | wc -l | grep -qx 8"
expect_error "node= slots bound" "slots per node (9) exceed the 8 slots" map --topology mesh:1x1,node="$node" --process ring:8 --slots 9
expect_error "node= an XML" "node= takes a node file" topo mesh:2x1,node="$src/configs/nodes/two-socket.xml"
printf 'levels:\n  - {name: machine, bandwidth: 1GB/s, latency: 1us}\n  - {name: core}\n' >"$tmp/node.yaml"
expect_error "node file: missing count" "node.yaml:3:5: level 'core' needs a count" topo mesh:2x1,node="$tmp/node.yaml"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
