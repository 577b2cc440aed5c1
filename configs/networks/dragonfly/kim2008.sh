#!/usr/bin/env bash
# Kim, Dally, Scott & Abts (ISCA 2008), qualitatively: load-latency curves of minimal, Valiant,
# UGAL-L and UGAL-G routing on dragonfly:a=8,p=4,h=4 (33 groups, 1056 nodes) under uniform random
# traffic and the worst case (every node of group i sends to group i+1), open loop.
# Usage (from the repository root, after building): bash configs/networks/dragonfly/kim2008.sh [JOBS] [MODEL] [NAME]
# MODEL defaults to packet; writes results/NAME/{uniform,group-shift}.csv and docs/figures/NAME-*.svg, NAME being
# kim2008 for the packet model, else kim2008-MODEL'S NAME (flit:vcs=3: kim2008-flit); prints the tables.
set -euo pipefail
cd "$(dirname "$0")/../../.."
jobs=${1:-$(nproc)}
model=${2:-packet}
name=kim2008
suffix=
[ "$model" = packet ] || { name=kim2008-${model%%:*}; suffix=", $model model"; }
name=${3:-$name}
out=results/$name
mkdir -p "$out" docs/figures
loads=0.05,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0
network=dragonfly:a=8,p=4,h=4
for pattern in uniform group-shift; do
  for routing in minimal valiant ugal-l ugal-g; do echo "$pattern $routing"; done
done | xargs -P "$jobs" -L 1 bash -c 'build/mapsim traffic --topology '"$network"' --routing "$1" --pattern "$0" \
    --model '"$model"' --load '"$loads"' --format csv -o '"$out"'/"$0-$1".csv 2>/dev/null'
for pattern in uniform group-shift; do
  head -1 "$out/$pattern-minimal.csv" >"$out/$pattern.csv"
  for routing in minimal valiant ugal-l ugal-g; do tail -n +2 "$out/$pattern-$routing.csv" >>"$out/$pattern.csv"; done
  printf '\n#### %s traffic: accepted throughput (fraction of node bandwidth)\n\n' "$pattern"
  build/mapsim plot "$out/$pattern.csv" --x offered --y accepted --by routing --table
  printf '\n#### %s traffic: mean latency (us)\n\n' "$pattern"
  build/mapsim plot "$out/$pattern.csv" --x offered --y latency_mean --by routing --scale 1e6 --table
  build/mapsim plot "$out/$pattern.csv" --x offered --y accepted --by routing -o "docs/figures/$name-$pattern-throughput.svg" \
    --title "dragonfly a=8 p=4 h=4, $pattern traffic$suffix" --xlabel "offered load" --ylabel "accepted throughput" 2>/dev/null
  build/mapsim plot "$out/$pattern.csv" --x offered --y latency_mean --by routing --scale 1e6 --logy \
    -o "docs/figures/$name-$pattern-latency.svg" --title "dragonfly a=8 p=4 h=4, $pattern traffic$suffix" \
    --xlabel "offered load" --ylabel "mean latency (us)" 2>/dev/null
done
