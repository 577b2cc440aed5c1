#!/usr/bin/env bash
# The tracer's overhead on a message-rate benchmark: 2 ranks, 100000 8-byte ping-pongs, 5 runs each
# without and with libmapsim-trace.so; prints the medians. Usage: bench/tracer_overhead.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
run() { mpirun "${root[@]}" --oversubscribe -np 2 "$@" "$build/bench/message_rate" 100000 | awk '{ print $1 }'; }
plain=$(for i in 1 2 3 4 5; do run; done | median)
traced=$(for i in 1 2 3 4 5; do MAPSIM_TRACE_DIR="$tmp/t" run -x LD_PRELOAD="$build/libmapsim-trace.so" -x MAPSIM_TRACE_DIR 2>/dev/null; done | median)
echo "plain ${plain} us, traced ${traced} us per round trip (medians of 5)"
