#!/usr/bin/env bash
# Placement advice judged by run time: does `best` recommend the placement that runs fastest? 24 cases:
# {512-node 2:1 fat tree, dragonfly:a=6,p=3,h=3, torus:8x8x8, irregular:nodes=256,switches=75} x
# {deterministic, adaptive routing (fat tree: updn adaptive; dragonfly: UGAL-G; torus: shortest adaptive;
# irregular: updn ECMP)} x {3-D stencil, sparse random graph, all-to-all}, ranks on a random half of the
# machine, 8 placements, packet model, REPLICATES seeds. Writes results/mapping-advice/CASE/ and the
# table between the mapping-advice markers of docs/results.md. Usage:
#   bash bench/mapping_advice.sh [BUILD_DIR] [REPLICATES]
set -euo pipefail
build=${1:-build}
replicates=${2:-3}
out=results/mapping-advice
mkdir -p "$out"
cat >"$out/base.yaml" <<'YAML'
name: mapping-advice
network: torus:8x8x8
workload: {process: ring:256, pattern: alltoall:size=8KiB}
mapping: [default, "random:unit=switch", random, scotch, multisection, greedy, annealing, best]
allocation: random
model: {name: packet}
YAML
# name | network | deterministic routing | adaptive routing and path selection | ranks (half the nodes) | 3-D grid
networks=(
  "fattree|fattree:nodes=512,radix=32,levels=2,oversubscription=2|updn deterministic|updn adaptive|256|8x8x4"
  "dragonfly|dragonfly:a=6,p=3,h=3|minimal deterministic|ugal-g deterministic|171|7x6x4"
  "torus|torus:8x8x8|ecube deterministic|shortest adaptive|256|8x8x4"
  "irregular|irregular:nodes=256,switches=75|updn deterministic|updn ecmp|128|8x4x4"
)
start=$(date +%s)
for entry in "${networks[@]}"; do
  IFS='|' read -r name network det adaptive ranks grid <<<"$entry"
  for routing in "$det" "$adaptive"; do
    read -r route selection <<<"$routing"
    for workload in stencil sparse alltoall; do
      case $workload in
        stencil) process="mesh:$grid" pattern="exchange:size=64KiB,iterations=2" ;;
        sparse) process="random:tasks=$ranks,edges=$((3 * ranks))" pattern="exchange:size=64KiB,iterations=2" ;;
        alltoall) process="ring:$ranks" pattern="alltoall:size=8KiB" ;;
      esac
      dir="$out/$name-$route-$selection-$workload"
      [ -f "$dir/summary.json" ] && continue  # done before (rm -r results/mapping-advice to rerun)
      echo "== $dir" >&2
      "$build/mapsim" --no-progress run "$out/base.yaml" -o "$dir" --set "network=$network" --set "routing=$route" \
        --set "model.path_selection=$selection" --set "workload.process=$process" --set "workload.pattern=$pattern" \
        --set "replicates=$replicates" >/dev/null
    done
  done
done
echo "mapping-advice: $(($(date +%s) - start)) s" >&2
python3 - "$out" "$replicates" <<'PY'
import csv, json, os, re, statistics, sys
out, replicates = sys.argv[1], sys.argv[2]
cases = sorted(d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d)))
order = ["fattree", "dragonfly", "torus", "irregular"]
cases.sort(key=lambda d: (order.index(d.split("-")[0]), "deterministic" not in d, ["stencil", "sparse", "alltoall"].index(d.split("-")[-1])))
mappers = ["default", "random:unit=switch", "random", "scotch", "multisection", "greedy", "annealing", "best"]
lines = ["| case | " + " | ".join(mappers) + " | best / fastest other | best's choice | best's time (s) |",
         "|---" * (len(mappers) + 4) + "|"]
worst, misses = 0, 0
for case in cases:
    rows = list(csv.DictReader(open(os.path.join(out, case, "results.csv"))))
    mean = {m: statistics.mean(float(r["sim_makespan"]) for r in rows if r["mapper"] == m) for m in mappers}
    fastest = min(v for m, v in mean.items() if m != "best")
    ratio = mean["best"] / fastest
    worst = max(worst, ratio)
    misses += ratio > 1.02
    timings = list(csv.DictReader(open(os.path.join(out, case, "timings.csv"))))
    seconds = statistics.mean(float(r["map_seconds"]) for r in timings if r["mapper"] == "best")
    chosen = {}
    for entry in json.load(open(os.path.join(out, case, "summary.json")))["portfolio"].get("best", []):
        chosen[entry["chosen"]] = chosen.get(entry["chosen"], 0) + 1
    cells = ["**%.0f**" % (mean[m] * 1e6) if mean[m] == min(mean.values()) else "%.0f" % (mean[m] * 1e6) for m in mappers]
    lines.append("| %s | %s | %.3f | %s | %.1f |" % (case, " | ".join(cells), ratio,
                 ", ".join("%s (%d)" % kv for kv in sorted(chosen.items())), seconds))
lines.append("")
lines.append("Mean makespan (us) over %s seeds; worst best / fastest other: %.3f; cases above 1.02: %d of %d." % (replicates, worst, misses, len(cases)))
table = "\n".join(lines)
print(table)
path = "docs/results.md"
text = open(path).read()
begin, end = "<!-- mapping-advice:begin -->", "<!-- mapping-advice:end -->"
if begin in text:
    text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: begin + "\n" + table + "\n" + end, text, flags=re.S)
    open(path, "w").write(text)
PY
