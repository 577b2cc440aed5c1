#!/usr/bin/env bash
# 65,536 ranks end to end: for the seeds' irregular network (75 switches per 256 nodes) and a 64k fat
# tree of radix 64, with up*/down* routes: `mapsim simulate` builds and routes the network, places a SIDE x SIDE (default 256x256)
# stencil (rank i on node i) and replays ITERATIONS iterations of 1e5-byte messages with the
# store-and-forward model; bench_topologies routes and checks the routes (legality, deadlock; sampled
# with a stated confidence). Each in its own process; prints wall time and peak memory (/usr/bin/time).
# Usage: [SIDE=256] bench/replay_scale.sh [BUILD_DIR] [ITERATIONS] [NETWORK ...]   (goal: under 600 s and 4 GB each)
set -euo pipefail
build=${1:-build}
iterations=${2:-100}
shift $(( $# >= 2 ? 2 : $# ))
nets=("$@")
[ ${#nets[@]} -gt 0 ] || nets=(irregular:nodes=65536,switches=19200,seed=1 fattree:nodes=65536,radix=64)
timed() {  # COMMAND... -> "wall_s peak_MB" on fd 3, the command's output on stdout
  local t
  t=$(mktemp)
  /usr/bin/time -f '%e %M' -o "$t" "$@"
  awk '{ printf "%s %.0f\n", $1, $2 / 1024 }' "$t" >&3
  rm -f "$t"
}
echo "| network | step | wall (s) | peak memory (MB) | result |"
echo "|---|---|---|---|---|"
for net in "${nets[@]}"; do
  exec 3>/tmp/replay_scale.$$
  check=$(timed "$build/bench/bench_topologies" --routing updn "$net" | tail -n 1)
  read -r cw cm </tmp/replay_scale.$$
  read -r _ _ _ _ _ _ _ _ sampled legal deadlock _ <<<"$check"
  exec 3>/tmp/replay_scale.$$
  sim=$(timed "$build/mapsim" simulate --topology "$net" --routing updn --process "mesh:${SIDE:-256}x${SIDE:-256}" \
    --workload "exchange:size=100000,iterations=$iterations" --model store-and-forward)
  read -r sw sm </tmp/replay_scale.$$
  rm -f /tmp/replay_scale.$$
  printf '| `%s` | route + check | %s | %s | sampled %s, legal %s, deadlock %s |\n' "$net" "$cw" "$cm" "$sampled" "$legal" "$deadlock"
  printf '| `%s` | route + replay %s it | %s | %s | makespan %s, %s |\n' "$net" "$iterations" "$sw" "$sm" \
    "$(awk '$1 == "makespan" { print $2 }' <<<"$sim")" "$(awk '$1 == "events" { print $2, "events in", $4, "s" }' <<<"$sim")"
done
