#!/usr/bin/env bash
# moh2001 figures 7-9 / moh2010 figures 6-8: average latency between communicating nodes for
# meshes 4x4..16x16 on 256-node, 75-switch irregular networks (8 ports, 75% connectivity,
# up*/down* routing), t_s=2us t_p=20ns t_r=300ns, RM vs SM vs BM vs AM, cases (i) neighbours only,
# (ii) +10% and (iii) +20% random distant partners; each pair exchanges one message each way.
# Usage: configs/papers/moh-latency.sh [MAPSIM] [SEEDS] [SIZE_BYTES] [MODEL]  > latency.csv
# Prints one CSV row per run; configs/papers/summarise_latency.py makes the table.
set -euo pipefail
mapsim=${1:-build/mapsim}
seeds=${2:-5}
size=${3:-64}
model=${4:-store-and-forward}
echo "case,mesh,mapper,seed,avg_latency,zero_load_latency,makespan"
for distant in 0 0.1 0.2; do
  for side in 4 8 12 16; do
    for mapper in random switch binary adjacency; do
      for seed in $(seq 1 "$seeds"); do
        # Member processors: as many random nodes as the mesh has processes (the papers' setting).
        json=$("$mapsim" simulate --topology "irregular:nodes=256,switches=75,ports=8,connectivity=0.75,seed=$seed" \
          --process "pattern:mesh:${side}x${side},distant=$distant,seed=$seed" --workload "exchange:size=$size" \
          --mapper "$mapper" --allocation "random:seed=$seed" --seed "$seed" --model "$model" --json)
        python3 -c "import json,sys; d=json.loads(sys.argv[1]); print(','.join(map(str,['$distant','${side}x${side}','$mapper',$seed,d['avg_latency'],d['avg_zero_load_latency'],d['makespan']])))" "$json"
      done
    done
  done
done
