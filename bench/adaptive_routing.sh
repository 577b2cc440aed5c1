#!/usr/bin/env bash
# Events per second of the packet and store-and-forward models with adaptive routing against the
# same traffic with deterministic routing, at 4096 nodes and more: a 3-level folded Clos (updn
# tables vs adaptive up-port choice) and a 4224-node dragonfly (minimal vs UGAL-G). Uniform random
# open-loop traffic at half load; medians of RUNS runs (default 3). Usage:
#   bench/adaptive_routing.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-3}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
rate() {  # rate TOPOLOGY ROUTING MODEL SELECTION -> events/s
  for i in $(seq "$runs"); do
    "$build/mapsim" traffic --topology "$1" --routing "$2" --model "$3" --path-selection "$4" --load 0.5 \
      --warmup 30us --measure 60us --format json 2>/dev/null |
      python3 -c 'import json, sys; r = json.load(sys.stdin)["results"][0]; print(r["events"] / r["wall_seconds"])'
  done | median
}
printf '%-32s %-18s %-24s %12s %12s %6s\n' network model "deterministic vs adaptive" "det ev/s" "adapt ev/s" ratio
for model in packet store-and-forward; do
  for case in "fattree:nodes=4096,radix=32 updn:deterministic updn:adaptive" \
              "dragonfly:a=16,p=8,h=4,g=33 minimal:deterministic ugal-g:deterministic"; do
    set -- $case
    det=$(rate "$1" "${2%%:*}" "$model" "${2##*:}")
    ada=$(rate "$1" "${3%%:*}" "$model" "${3##*:}")
    printf '%-32s %-18s %-24s %12.0f %12.0f %6.2f\n' "$1" "$model" "$2 vs $3" "$det" "$ada" "$(echo "$det / $ada" | bc -l)"
  done
done
