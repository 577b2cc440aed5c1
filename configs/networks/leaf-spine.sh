#!/usr/bin/env bash
# Spine balance on the hand-written 512-node leaf-spine (configs/networks/leaf-spine-512.yaml): an
# MPI_Alltoall of 64 KiB per pair over all 512 nodes, one rank per node, under each routing and path
# selection; prints a Markdown table of the bytes each of the 16 spines received.
# Usage (from the repository root, after building): bash configs/networks/leaf-spine.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
net=file:configs/networks/leaf-spine-512.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| routing | path selection | model | spine GB min | max | (max - min) / mean | makespan (ms) |"
echo "|---|---|---|---|---|---|---|"
while read -r routing selection model; do
  build/mapsim simulate --topology "$net" --routing "$routing" --path-selection "$selection" --model "$model" \
    --process ring:512 --workload alltoall:size=64KiB --json >"$tmp/r.json"
  python3 - "$tmp/r.json" "$routing" "$selection" "$model" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
spines = r["switch_bytes"][:16]  # the file lists spine0..spine15 first
mean = sum(spines) / len(spines)
print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | {min(spines) / 1e9:.3f} | {max(spines) / 1e9:.3f} | "
      f"{(max(spines) - min(spines)) / mean * 100:.1f} % | {r['makespan'] * 1e3:.3f} |")
PY
done <<'RUNS'
updown deterministic flow
updown ecmp flow
updn deterministic flow
minhop deterministic flow
updn ecmp flow
updn spray packet
updn adaptive packet
updn adaptive store-and-forward
RUNS
