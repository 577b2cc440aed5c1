#!/usr/bin/env bash
# Placement advice judged by run time: does `best` recommend the placement that runs fastest? 24 cases:
# {512-node 2:1 fat tree, dragonfly:a=6,p=3,h=3, torus:8x8x8, irregular:nodes=256,switches=75} x
# {deterministic, adaptive routing (fat tree: updn adaptive; dragonfly: UGAL-G; torus: shortest adaptive;
# irregular: updn ECMP)} x {3-D stencil, sparse random graph, all-to-all}, ranks on a random half of the
# machine, 8 placements, packet model, REPLICATES seeds. Plus 8 `traced` cases (the same networks and
# routings): bench/halo_app.c, a 3-D halo exchange (Isend/Irecv/Waitall over a Cartesian communicator and
# an Allreduce per iteration), built with mpicc and recorded once under mpirun with build/libmapsim-trace.so
# (128 ranks, 64^3 doubles per rank: 32 KiB faces, 5 iterations; communication only, MAPSIM_TRACE_COMPUTE=none,
# as 128 ranks share this host's cores) into OUT_DIR/halo-trace/, then mapped and replayed on 128 random nodes;
# skipped with a message when mpicc, mpirun or the tracer is missing. Writes OUT_DIR/CASE/ and, when OUT_DIR
# is the default, the table between the mapping-advice markers of docs/results.md (else prints it only).
# WORKLOADS picks the workloads to run (e.g. "traced"); the table shows every case found in OUT_DIR. MODEL is
# the scenario's model as a YAML map (default {name: packet}; e.g. "{name: flit, vcs: 3}"). Usage:
#   bash bench/mapping_advice.sh [BUILD_DIR] [REPLICATES] [OUT_DIR] [WORKLOADS] [MODEL]
set -euo pipefail
build=${1:-build}
replicates=${2:-3}
default_out=results/mapping-advice
out=${3:-$default_out}
workloads=${4:-stencil sparse alltoall traced}
model=${5:-"{name: packet}"}
mkdir -p "$out"
cat >"$out/base.yaml" <<YAML
name: mapping-advice
network: torus:8x8x8
workload: {process: ring:256, pattern: alltoall:size=8KiB}
mapping: [default, "random:unit=switch", random, scotch, multisection, greedy, annealing, best]
allocation: random
model: $model
YAML
# name | network | deterministic routing | adaptive routing and path selection | ranks (half the nodes) | 3-D grid
networks=(
  "fattree|fattree:nodes=512,radix=32,levels=2,oversubscription=2|updn deterministic|updn adaptive|256|8x8x4"
  "dragonfly|dragonfly:a=6,p=3,h=3|minimal deterministic|ugal-g deterministic|171|7x6x4"
  "torus|torus:8x8x8|ecube deterministic|shortest adaptive|256|8x8x4"
  "irregular|irregular:nodes=256,switches=75|updn deterministic|updn ecmp|128|8x4x4"
)
# The traced application: recorded once (rm -r OUT_DIR/halo-trace to record again), 128 ranks (half the
# smallest machine, the irregular network's 256 nodes), faces of 64 x 64 doubles, 5 iterations.
trace_ranks=128 trace_n=64 trace_iterations=5
trace_dir=$(realpath -m "$out/halo-trace")
if [[ " $workloads " == *" traced "* ]] && [ ! -f "$trace_dir/index.txt" ]; then
  missing=""
  for tool in mpicc mpirun; do command -v "$tool" >/dev/null || missing="$missing $tool"; done
  [ -f "$build/libmapsim-trace.so" ] || missing="$missing $build/libmapsim-trace.so"
  if [ -n "$missing" ]; then
    echo "mapping-advice: traced cases skipped: not found:$missing (apt-get install openmpi-bin libopenmpi-dev, then rebuild)" >&2
    workloads=${workloads//traced/}
  else
    app_dir=$(mktemp -d)
    mpicc -O2 -o "$app_dir/halo_app" "$(dirname "$0")/halo_app.c"
    root=()
    [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
    tracer=$(realpath "$build/libmapsim-trace.so")
    rm -rf "$trace_dir"
    echo "== recording bench/halo_app.c, $trace_ranks ranks, into $trace_dir" >&2
    record_start=$(date +%s.%N)
    if ! (cd "$app_dir" && MAPSIM_TRACE_DIR="$trace_dir" MAPSIM_TRACE_COMPUTE=none mpirun "${root[@]}" --oversubscribe \
          -np "$trace_ranks" -x LD_PRELOAD="$tracer" -x MAPSIM_TRACE_DIR \
          -x MAPSIM_TRACE_COMPUTE ./halo_app "$trace_n" "$trace_iterations" >run.out 2>run.err) ||
       [ ! -f "$trace_dir/index.txt" ]; then
      echo "mapping-advice: recording failed; $app_dir/run.err:" >&2
      tail -20 "$app_dir/run.err" >&2
      rm -rf "$trace_dir"
      exit 1
    fi
    echo "mapping-advice: recorded in $(printf '%.1f' "$(echo "$(date +%s.%N) - $record_start" | bc)") s" >&2
    cp "$app_dir/run.out" "$trace_dir/halo_app.out"
    cat "$trace_dir/halo_app.out" >&2
    grep '^mapsim-trace' "$app_dir/run.err" >&2 || true  # the tracer's own lines (and warnings, if any)
    grep -v '^0 ' "$trace_dir/skipped.txt" >&2 || true  # what the tracer could not record (nothing, normally)
    "$build/mapsim" trace check "$trace_dir/index.txt" >&2
    rm -rf "$app_dir"
  fi
fi
if [[ " $workloads " == *" traced "* ]]; then
  cat >"$out/traced.yaml" <<YAML
name: mapping-advice
network: torus:8x8x8
workload: {trace: halo-trace/index.txt}
mapping: [default, "random:unit=switch", random, scotch, multisection, greedy, annealing, best]
allocation: random
model: $model
YAML
fi
start=$(date +%s)
for entry in "${networks[@]}"; do
  IFS='|' read -r name network det adaptive ranks grid <<<"$entry"
  for routing in "$det" "$adaptive"; do
    read -r route selection <<<"$routing"
    for workload in $workloads; do
      dir="$out/$name-$route-$selection-$workload"
      [ -f "$dir/summary.json" ] && continue  # done before (rm -r results/mapping-advice to rerun)
      echo "== $dir" >&2
      case_start=$(date +%s.%N)
      case $workload in
        stencil) process="mesh:$grid" pattern="exchange:size=64KiB,iterations=2" ;;
        sparse) process="random:tasks=$ranks,edges=$((3 * ranks))" pattern="exchange:size=64KiB,iterations=2" ;;
        alltoall) process="ring:$ranks" pattern="alltoall:size=8KiB" ;;
        traced)  # the recorded trace is the workload: its point-to-point volume is the graph the mappers see
          "$build/mapsim" --no-progress run "$out/traced.yaml" -o "$dir" --set "network=$network" --set "routing=$route" \
            --set "model.path_selection=$selection" --set "replicates=$replicates" >/dev/null || [ $? -eq 2 ]
          echo "   $(printf '%.1f' "$(echo "$(date +%s.%N) - $case_start" | bc)") s" >&2
          continue ;;
        *) echo "mapping-advice: unknown workload '$workload' (stencil, sparse, alltoall, traced)" >&2; exit 2 ;;
      esac
      "$build/mapsim" --no-progress run "$out/base.yaml" -o "$dir" --set "network=$network" --set "routing=$route" \
        --set "model.path_selection=$selection" --set "workload.process=$process" --set "workload.pattern=$pattern" \
        --set "replicates=$replicates" >/dev/null || [ $? -eq 2 ]  # 2: a mapper failed (failed.csv), tabled as such
      echo "   $(printf '%.1f' "$(echo "$(date +%s.%N) - $case_start" | bc)") s" >&2
    done
  done
done
echo "mapping-advice: $(($(date +%s) - start)) s" >&2
write_docs=0
[ "$(realpath -m "$out")" = "$(realpath -m "$default_out")" ] && write_docs=1
python3 - "$out" "$replicates" "$write_docs" <<'PY'
import csv, json, os, re, statistics, sys
out, replicates, write_docs = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
cases = sorted(d for d in os.listdir(out) if os.path.isfile(os.path.join(out, d, "summary.json")))
order = ["fattree", "dragonfly", "torus", "irregular"]
workload_order = ["stencil", "sparse", "alltoall", "traced"]
cases.sort(key=lambda d: (order.index(d.split("-")[0]), "deterministic" not in d, workload_order.index(d.split("-")[-1])))
mappers = ["default", "random:unit=switch", "random", "scotch", "multisection", "greedy", "annealing", "best"]
lines = ["| case | " + " | ".join(mappers) + " | best / fastest other | best's choice | best's time (s) | simulated | time / (slowest static + simulations) |",
         "|---" * (len(mappers) + 6) + "|"]
budgets = []
worst, misses = 0, 0
for case in cases:
    rows = list(csv.DictReader(open(os.path.join(out, case, "results.csv"))))
    ran = {m: [float(r["sim_makespan"]) for r in rows if r["mapper"] == m] for m in mappers}
    failed = [m for m in mappers if len(ran[m]) < int(replicates)]  # failed on some replicate (failed.csv)
    mean = {m: statistics.mean(v) for m, v in ran.items() if v and m not in failed}
    if "best" not in mean:
        lines.append("| %s | %s | - | best failed: %s | - | - | - |" % (case, " | ".join(
            "failed" if m in failed else "%.0f" % (mean[m] * 1e6) for m in mappers), open(os.path.join(out, case, "failed.csv")).read().splitlines()[1][:160].replace("|", "/")))
        continue
    fastest = min(v for m, v in mean.items() if m != "best")
    ratio = mean["best"] / fastest
    worst = max(worst, ratio)
    misses += ratio > 1.02
    timings = list(csv.DictReader(open(os.path.join(out, case, "timings.csv"))))
    seconds = statistics.mean(float(r["map_seconds"]) for r in timings if r["mapper"] == "best")
    chosen, simulated, budget = {}, [], []
    for entry in json.load(open(os.path.join(out, case, "summary.json")))["portfolio"].get("best", []):
        chosen[entry["chosen"]] = chosen.get(entry["chosen"], 0) + 1
        simulated.append(entry["simulated"])
        # best's time against the slowest static mapper of its replicate plus its simulations, each
        # costing the replicate's mean simulation time.
        mine = [r for r in timings if int(r["replicate"]) == entry["replicate"]]
        slowest = max(float(r["map_seconds"]) for r in mine if r["mapper"] != "best")
        one_sim = statistics.mean(float(r["sim_seconds"]) for r in mine)
        best_seconds = next(float(r["map_seconds"]) for r in mine if r["mapper"] == "best")
        budget.append(best_seconds / (slowest + entry["simulated"] * one_sim))
    budgets.append(statistics.mean(budget))
    cells = ["failed" if m not in mean else "**%.0f**" % (mean[m] * 1e6) if mean[m] == min(mean.values()) else "%.0f" % (mean[m] * 1e6)
             for m in mappers]
    lines.append("| %s | %s | %.3f | %s | %.1f | %.1f | %.2f |" % (case, " | ".join(cells), ratio,
                 ", ".join("%s (%d)" % kv for kv in sorted(chosen.items())), seconds, statistics.mean(simulated), budgets[-1]))
lines.append("")
lines.append("Mean makespan (us) over %s seeds; worst best / fastest other: %.3f; cases above 1.02: %d of %d; best's time "
             "over the slowest static mapper plus its simulations: %.2f-%.2f." % (replicates, worst, misses, len(cases), min(budgets), max(budgets)))
app = os.path.join(out, "halo-trace", "halo_app.out")
if any(c.endswith("-traced") for c in cases) and os.path.isfile(app):
    m = re.search(r"(\d+) ranks \((\S+)\), (\d+)\^3 per rank, (\d+) iterations", open(app).read())
    ranks, grid, n, iterations = m.groups()
    lines.append("")
    lines.append("`traced`: `bench/halo_app.c` (Jacobi on a 3-D grid: each iteration exchanges the six faces, "
                 "%d KiB each, with MPI_Isend/Irecv/Waitall over a non-periodic %s Cartesian communicator, then "
                 "one 8-byte MPI_Allreduce), %s ranks, %s iterations, recorded by `libmapsim-trace.so` under "
                 "Open MPI (communication only: the ranks shared one host's cores, so no compute was recorded) "
                 "and replayed on %s random nodes." % (int(n) ** 2 * 8 // 1024, grid, ranks, iterations, ranks))
table = "\n".join(lines)
print(table)
path = "docs/results.md"
if not write_docs:
    sys.exit(0)
text = open(path).read()
begin, end = "<!-- mapping-advice:begin -->", "<!-- mapping-advice:end -->"
if begin in text:
    text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: begin + "\n" + table + "\n" + end, text, flags=re.S)
    open(path, "w").write(text)
PY
