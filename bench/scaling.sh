#!/usr/bin/env bash
# The simulator's scaling table: bench_sim's stencil (1e5-byte messages, irregular network of T nodes,
# up*/down*) per model for T = 256 ... 65536. Per iteration = (wall at I iterations - wall at 1) / (I - 1),
# so that set-up (routes, transport) is not counted as iterations; medians of RUNS runs (default 3) where
# bench_sim's process (network build included) takes under a minute. Prints a Markdown table and each model's fitted growth exponent (least squares of
# log time per iteration on log T); with --write FILE, replaces the table between FILE's
# <!-- scaling:begin --> and <!-- scaling:end --> lines.
# Usage: bench/scaling.sh [--write FILE] [BUILD_DIR] [RUNS] [MODEL[@EPS]:T:I ...]   (flow@EPS: --flow-tolerance EPS)
set -euo pipefail
write=""
if [ "${1:-}" = --write ]; then write=$2; shift 2; fi
build=${1:-build}
runs=${2:-3}
shift $(( $# >= 2 ? 2 : $# ))
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  cases=(store-and-forward:256:100 store-and-forward:1024:100 store-and-forward:4096:100 store-and-forward:16384:20
         store-and-forward:65536:10
         packet:256:100 packet:1024:20 packet:4096:10 packet:16384:4 packet:65536:2
         flow:256:100 flow:1024:10
         flow@1e-2:256:100 flow@1e-2:1024:100 flow@1e-2:4096:100 flow@1e-2:16384:30 flow@1e-2:65536:3)
fi
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# One bench_sim row: "makespan wall events_per_s peak_MB"
run_once() {
  local model=${1%@*} eps=0
  [ "$model" = "$1" ] || eps=${1#*@}
  "$build/bench/bench_sim" --no-smpi --models "$model" --flow-tolerance "$eps" --iterations "$3" "$2" | awk 'NR == 2 { print $3, $4, $5, $6 }'
}
measure() {  # MODEL T I -> median wall, events/s, peak MB, makespan of RUNS runs (one when the process takes a minute)
  local out first began
  began=$SECONDS
  first=$(run_once "$@")
  out=$first
  if [ $((SECONDS - began)) -lt 60 ]; then
    for _ in $(seq 2 "$runs"); do out+=$'\n'$(run_once "$@"); done
  fi
  printf '%s %s %s %s\n' "$(awk '{ print $2 }' <<<"$out" | median)" "$(awk '{ print $3 }' <<<"$out" | median)" \
    "$(awk '{ print $4 }' <<<"$out" | median)" "$(awk '{ print $1 }' <<<"$first")"
}

table=$(mktemp)
fits=$(mktemp)
trap 'rm -f "$table" "$fits"' EXIT
{
  echo "| model | T | iterations | wall (s) | per iteration (s) | events/s | peak memory (MB) | makespan (s) |"
  echo "|---|---|---|---|---|---|---|---|"
} >"$table"
for c in "${cases[@]}"; do
  IFS=: read -r model t iters <<<"$c"
  read -r wall rate mem makespan <<<"$(measure "$model" "$t" "$iters")"
  read -r wall1 _ _ _ <<<"$(measure "$model" "$t" 1)"
  per=$(awk -v a="$wall" -v b="$wall1" -v i="$iters" 'BEGIN { printf "%.4g", (a - b) / (i - 1) }')
  printf '| %s | %s | %s | %.3g | %s | %.3g | %.0f | %s |\n' "$model" "$t" "$iters" "$wall" "$per" "$rate" "$mem" "$makespan" >>"$table"
  echo "$model $t $per" >>"$fits"
  tail -n 1 "$table" >&2
done
# Least-squares slope of log(per iteration) on log(T), per model, over T >= 1024 (the exact flow model
# only where it has two such rows).
exponents=$(awk '$2 >= 1024 && $3 > 0 { x = log($2); y = log($3); n[$1]++; sx[$1] += x; sy[$1] += y; sxx[$1] += x * x; sxy[$1] += x * y }
  END { for (m in n) if (n[m] >= 2) printf "%s T^%.2f\n", m, (n[m] * sxy[m] - sx[m] * sy[m]) / (n[m] * sxx[m] - sx[m] * sx[m]) }' "$fits" | sort)
{
  echo
  echo "Growth of the time per iteration from T = 1024 up (least-squares fit): $(paste -sd';' <<<"$exponents" | sed 's/;/; /g')."
} >>"$table"
cat "$table"
if [ -n "$write" ]; then
  grep -q '^<!-- scaling:begin -->$' "$write" && grep -q '^<!-- scaling:end -->$' "$write" ||
    { echo "scaling.sh: $write has no <!-- scaling:begin --> / <!-- scaling:end --> lines" >&2; exit 1; }
  awk -v tbl="$table" '/^<!-- scaling:begin -->$/ { print; while ((getline l < tbl) > 0) print l; skip = 1; next }
    /^<!-- scaling:end -->$/ { skip = 0 } !skip' "$write" >"$write.tmp" && mv "$write.tmp" "$write"
fi
