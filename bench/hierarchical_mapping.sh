#!/usr/bin/env bash
# Mapping quality and time on the 3-level machine of the process-mapping literature (256 PEs, 4 per
# node, 8 nodes per rack, 8 racks, distances 1 : 10 : 100; configs/networks/hierarchy/): communication
# cost (Gamma_C in the machine's units: sum over edges of the distance between the two tasks' PEs),
# median cost and map time over RUNS runs with seeds 1..RUNS, and peak memory, per mapper, for
# random geometric and Delaunay graphs of 2^15 and
# 2^17 tasks and 3-D meshes of 2^15 and 2^17 (128 and 512 tasks per PE), plus every METIS-format *.graph of
# GRAPH_DIR (e.g. KaHIP's examples/). With KAHIP=DIR (a KaHIP build's deploy/ or build/ folder holding
# kaffpa and global_multisection), KaHIP's mappings of the same graphs (mapsim's generated ones written
# with map --write-graph) are evaluated by mapsim too.
# Then best at 2^17 tasks on a 1024-switch irregular network (16 slots per node). Usage:
#   bash bench/hierarchical_mapping.sh [BUILD_DIR] [RUNS] [GRAPH_DIR]
set -euo pipefail
build=${1:-build}
runs=${2:-3}
graphs=${3:-}
machine=file:configs/networks/hierarchy/machine-4-8-8.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# measure NETWORK PROCESS SLOTS MAPPER -> "cost seconds peak_MB" (cost in us, the machine's unit)
measure() {
  local costs=() seconds=()
  for i in $(seq "$runs"); do
    /usr/bin/time -f '%M' -o "$tmp/rss.$i" "$build/mapsim" map --topology "$1" --process "$2" --slots "$3" --mapper "$4" \
      --seed "$i" --json 2>/dev/null >"$tmp/map.json"
    read -r c s < <(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(round(d["gamma_c"] / 1e-6), d["map_seconds"])' "$tmp/map.json")
    costs+=("$c") seconds+=("$s")
  done
  echo "$(printf '%s\n' "${costs[@]}" | median) $(printf '%s\n' "${seconds[@]}" | median) $(cat "$tmp"/rss.* | median | awk '{ printf "%.0f", $1 / 1024 }')"
}
# kahip GRAPH TOOL ARGS... -> "cost seconds", medians over seeds 1..RUNS: KaHIP's PE of each vertex
# (its default 3 % imbalance), evaluated as a mapsim placement
kahip() {
  local graph=$1 tool=$2 costs=() seconds=() start end i
  shift 2
  for i in $(seq "$runs"); do
    start=$(date +%s.%N)
    "$KAHIP/$tool" "$graph" --preconfiguration=eco --hierarchy_parameter_string=4:8:8 --distance_parameter_string=1:10:100 \
      --seed="$i" --output_filename="$tmp/kahip.map" "$@" >/dev/null
    end=$(date +%s.%N)
    awk '{ print NR - 1, "pe" $1 }' "$tmp/kahip.map" >"$tmp/kahip.placement"
    costs+=("$("$build/mapsim" map --topology "$machine" --process "graph:$graph" --slots 4096 \
      --mapper "placement:$tmp/kahip.placement" --json 2>/dev/null | python3 -c 'import json, sys; print(round(json.load(sys.stdin)["gamma_c"] / 1e-6))')")
    seconds+=("$(echo "$end - $start" | bc -l)")
  done
  echo "$(printf '%s\n' "${costs[@]}" | median) $(printf '%s\n' "${seconds[@]}" | median)"
}
row() { printf '| %s | %s | %s | %s | %.2f | %s |\n' "$1" "$2" "$3" "$4" "$5" "$6"; }

echo "| task graph | mapper | cost | cost / multisection | map time (s) | peak memory (MB) |"
echo "|---|---|---|---|---|---|"
instances=("rgg:tasks=32768,seed=1 128" "rgg:tasks=131072,seed=1 512" "delaunay:tasks=32768,seed=1 128"
           "delaunay:tasks=131072,seed=1 512" "mesh:32x32x32 128" "mesh:64x64x32 512")
if [ -n "$graphs" ]; then
  for g in "$graphs"/*.graph; do
    n=$(awk '!/^%/ { print $1; exit }' "$g")
    [ "$n" -ge 2560 ] || continue  # at least 10 tasks per PE
    instances+=("graph:$(realpath "$g") $(((n + 255) / 256))")
  done
fi
for instance in "${instances[@]}"; do
  set -- $instance
  process=$1 slots=$2
  read -r base base_s base_mb < <(measure "$machine" "$process" "$slots" multisection)
  row "${process##*/}" multisection "$base" 1.00 "$base_s" "$base_mb"
  for mapper in multisection:trials=4 best binary metis scotch; do
    read -r cost s mb < <(measure "$machine" "$process" "$slots" "$mapper")
    row "${process##*/}" "$mapper" "$cost" "$(echo "$cost / $base" | bc -l | xargs printf '%.3f')" "$s" "$mb"
  done
  if [ -n "${KAHIP:-}" ]; then
    graph=${process#graph:}
    if [ "${process%%:*}" != graph ]; then  # mapsim's generated graph, written for KaHIP
      graph=$tmp/instance.graph
      "$build/mapsim" map --topology "$machine" --process "$process" --slots "$slots" --write-graph "$graph" >/dev/null
    fi
    read -r cost s < <(kahip "$graph" kaffpa --k=256 --enable_mapping)
    row "${process##*/}" "KaHIP kaffpa --enable_mapping (eco)" "$cost" "$(echo "$cost / $base" | bc -l | xargs printf '%.3f')" "$s" -
    read -r cost s < <(kahip "$graph" global_multisection)
    row "${process##*/}" "KaHIP global_multisection (eco)" "$cost" "$(echo "$cost / $base" | bc -l | xargs printf '%.3f')" "$s" -
  fi
done

echo
echo "best, rgg:tasks=131072 on irregular:nodes=8192,switches=1024,ports=16 (16 slots per node):"
read -r cost s mb < <(measure irregular:nodes=8192,switches=1024,ports=16 rgg:tasks=131072,seed=1 16 best)
echo "  median map time ${s} s, peak memory ${mb} MB"
