#!/usr/bin/env bash
# Routing at 64k nodes: builds, routes and checks (legality, deadlock, balance; sampled with stated
# confidence) the seeds' irregular network of 65,536 nodes (75 switches per 256 nodes) and a 64k fat
# tree of radix 64 with updn, minhop and updown, each in its own process (bench_topologies), so the
# peak memory is that network's. Prints a Markdown table of medians over RUNS runs (default 3).
# Usage: bench/routing_scale.sh [BUILD_DIR] [RUNS] [SPEC:ROUTING ...]   (goal: under 600 s, 4 GB each)
set -euo pipefail
build=${1:-build}
runs=${2:-3}
shift $(( $# >= 2 ? 2 : $# ))
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for net in irregular:nodes=65536,switches=19200,seed=1 fattree:nodes=65536,radix=64; do
    for routing in updn minhop updown; do cases+=("$net:$routing"); done
  done
fi
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "| network | routing | generate (s) | route (s) | check (s) | peak memory (MB) | sampled | legal | deadlock free |"
echo "|---|---|---|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  net=${case%:*} routing=${case##*:}
  out=$(for i in $(seq "$runs"); do "$build/bench/bench_topologies" --routing "$routing" "$net" | tail -n 1; done)
  col() { awk -v c="$1" '{ print $c }' <<<"$out" | median; }
  last=$(tail -n 1 <<<"$out")
  read -r _ _ _ _ _ _ _ _ sampled legal deadlock _ <<<"$last"
  printf '| `%s` | %s | %s | %s | %s | %.0f | %s | %s | %s |\n' "$net" "$routing" "$(col 5)" "$(col 6)" "$(col 7)" \
    "$(col 12)" "$sampled" "$legal" "$deadlock"
done
