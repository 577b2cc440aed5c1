#!/usr/bin/env bash
# Several jobs against one: 4 stencil jobs of 256 ranks (16x16, 100 iterations of 1e5-byte
# exchanges) on a 1056-node dragonfly under store-and-forward, each job's alone run included, with
# and without the interference pairs, against one 1024-rank stencil (32x32) on the same network.
# Medians of RUNS whole-process runs (default 3) of `mapsim run`, wall seconds and peak memory. Usage:
#   bench/multi_job.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${2:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
machine='network: dragonfly:a=8,p=4,h=4
routing: minimal
model: store-and-forward'
stencil='pattern: "exchange:size=100000,iterations=100"'
printf '%s\nallocation: contiguous\nworkload: {process: mesh:32x32, %s}\n' "$machine" "$stencil" >"$dir/one.yaml"
for interference in none pairs; do
  {
    printf '%s\ninterference: %s\njobs:\n' "$machine" "$interference"
    for j in 0 1 2 3; do printf '  - {name: s%d, workload: {process: mesh:16x16, %s}}\n' "$j" "$stencil"; done
  } >"$dir/jobs-$interference.yaml"
done
measure() {  # measure NAME -> "wall_s peak_MB"
  local wall=() peak=()
  for i in $(seq "$runs"); do
    /usr/bin/time -f '%e %M' -o "$dir/time" "$build/mapsim" run "$dir/$1.yaml" -o "$dir/out-$1" >/dev/null 2>&1
    read -r w m <"$dir/time"
    wall+=("$w") peak+=("$m")
  done
  echo "$(printf '%s\n' "${wall[@]}" | median) $(($(printf '%s\n' "${peak[@]}" | median) / 1024))"
}
read -r one_wall one_peak <<<"$(measure one)"
printf '%-44s %8s %8s %8s\n' run wall_s peak_MB ratio
printf '%-44s %8s %8s %8s\n' "one job, 1024 ranks" "$one_wall" "$one_peak" 1
for interference in none pairs; do
  read -r wall peak <<<"$(measure "jobs-$interference")"
  printf '%-44s %8s %8s %8.2f\n' "4 jobs x 256 ranks, alone runs, interference $interference" "$wall" "$peak" \
    "$(echo "$wall / $one_wall" | bc -l)"
done
