#!/usr/bin/env bash
# Runs the studies of machines as they are used (docs/results.md): the bully study on a dragonfly and
# the failed-links study on a leaf-spine; draws their figures into docs/figures/ and prints the
# Markdown tables that docs/results.md shows. Usage (from the repository root, after building):
#   bash configs/studies/run.sh [JOBS] > tables.md
# Takes about 6 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=${1:-$(nproc)}
mapsim=build/mapsim
figures=docs/figures
r=results
mkdir -p "$figures"
for s in bully-sweep bully-hybrid-sweep failed-links-sweep; do
  "$mapsim" sweep "configs/studies/$s.yaml" -j "$jobs" --resume >&2  # reruns only missing points
done
table() {  # table TITLE CSV ARGS...
  local title=$1 csv=$2; shift 2
  printf '\n#### %s\n\n`mapsim plot %s %s --table`\n\n' "$title" "$csv" "$*"
  "$mapsim" plot "$csv" "$@" --table
}
for y in sim_slowdown sim_makespan; do
  scale=(); [ $y = sim_makespan ] && scale=(--scale 1e3)
  table "Bully study: $y${scale:+ (ms)}, both jobs with one allocation policy" $r/bully-sweep/results.csv \
    --x allocation --y $y --by job --where routing=minimal "${scale[@]}"
  table "Bully study: $y${scale:+ (ms)}, UGAL-L routing" $r/bully-sweep/results.csv \
    --x allocation --y $y --by job --where routing=ugal-l "${scale[@]}"
  table "Bully study: $y${scale:+ (ms)}, hybrid (halo contiguous, all-to-all random)" $r/bully-hybrid-sweep/results.csv \
    --x routing --y $y --by job "${scale[@]}"
done
for routing in minimal ugal-l; do
  "$mapsim" plot $r/bully-sweep/results.csv --x allocation --y sim_slowdown --by job --where routing=$routing \
    --title "bully study: slowdown next to the other job ($routing routing)" -o "$figures/bully-$routing.svg" 2>/dev/null
done
for process in mesh:8x4x4 ring:128; do
  table "Failed links: makespan (ms) of $process" $r/failed-links-sweep/results.csv \
    --x failures.links --y sim_makespan --by model.path_selection --where workload.process=$process --scale 1e3
  "$mapsim" plot $r/failed-links-sweep/results.csv --x failures.links --y sim_makespan --by model.path_selection \
    --where workload.process=$process --scale 1e3 --title "leaf-spine with failed spine links: $process" \
    -o "$figures/failed-links-${process%%:*}.svg" 2>/dev/null
done
