#!/usr/bin/env bash
# Runs every reproduction sweep of configs/papers/, draws the figures into docs/figures/ and prints
# the Markdown tables that docs/results.md shows. Usage (from the repository root, after building):
#   bash configs/papers/reproduce.sh [JOBS] > tables.md
# Takes about 4 minutes on 2 cores (antonio Table IV: 1200 hypersphere runs on 256 tasks).
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=${1:-$(nproc)}
mapsim=build/mapsim
figures=docs/figures
mkdir -p "$figures"
sweep() { "$mapsim" sweep "configs/papers/$1.yaml" -j "$jobs" --resume >&2; }  # reruns only missing points
table() {  # table TITLE CSV ARGS...
  local title=$1 csv=$2 shown="" a; shift 2
  for a in "$@"; do [ -z "$a" ] && a='""'; shown+=" $a"; done
  printf '\n#### %s\n\n`mapsim plot %s%s --table`\n\n' "$title" "$csv" "$shown"
  "$mapsim" plot "$csv" "$@" --table
}
figure() {  # figure NAME CSV ARGS...
  local name=$1 csv=$2; shift 2
  "$mapsim" plot "$csv" "$@" -o "$figures/$name.svg" 2>/dev/null
}

for s in moh2001-fig6 moh2001-fig7-9 moh2010-fig5 moh2010-fig6-8 kramer-table1 kramer-fig5 kramer-table2 kramer-fig6 \
         antonio-table2 antonio-table3 antonio-table4 takizawa-fig5-6; do
  sweep "$s"
done

r=results
# The Moh papers' metric figure, then their latency figures for cases (i)-(iii), the first drawn.
# moh_figures PAPER METRIC_SWEEP METRIC METRIC_FIG LATENCY_SWEEP LATENCY_FIGS FIRST_LATENCY_FIG
moh_figures() {
  local paper=$1 metric_sweep=$2 metric=$3 metric_fig=$4 latency_sweep=$5 latency_figs=$6 first=$7
  local process=(--x workload.process.base) latency=(--y sim_avg_latency --scale 1e6) label=${metric//_/ }
  table "$paper Figure $metric_fig: $label" $r/$metric_sweep/results.csv "${process[@]}" --y $metric
  figure $metric_sweep $r/$metric_sweep/results.csv "${process[@]}" --y $metric \
    --title "$paper Fig. $metric_fig: $label (256 nodes, 75 switches)" --xlabel "process mesh"
  for d in 0 0.1 0.2; do
    table "$paper Figures $latency_figs: average latency (us), distant = $d" $r/$latency_sweep/results.csv \
      "${process[@]}" "${latency[@]}" --where workload.process.distant=$d
  done
  figure $paper-fig$first $r/$latency_sweep/results.csv "${process[@]}" "${latency[@]}" --where workload.process.distant=0 \
    --ylabel "latency (us)" --xlabel "process mesh" --title "$paper Fig. $first: average latency, case (i)"
}
moh_figures moh2001 moh2001-fig6 weighted_cardinality 6 moh2001-fig7-9 7-9 7
moh_figures moh2010 moh2010-fig5 cardinality 5 moh2010-fig6-8 6-8 6
table "Kramer & Muhlenbein Table 1: Gamma_C on a (4x4, 16) SUPRENUM" $r/kramer-table1/aggregate.csv --x workload.process --y gamma_c
table "Kramer & Muhlenbein Figure 5: Gamma_C of an l x l torus on SUPRENUM" $r/kramer-fig5/aggregate.csv --x workload.process --y gamma_c
figure kramer-fig5 $r/kramer-fig5/results.csv --x workload.process --y gamma_c --logy \
  --title "Kramer & Muhlenbein Fig. 5: 2-D torus on a (4x4,16) SUPRENUM" --xlabel "process torus"
table "Kramer & Muhlenbein Table 2: routed hops on an 8-cube" $r/kramer-table2/aggregate.csv --x workload.process --y weighted_cardinality
table "Kramer & Muhlenbein Figure 6: routed hops of an l x l torus on an 8-cube" $r/kramer-fig6/aggregate.csv --x workload.process --y weighted_cardinality
figure kramer-fig6 $r/kramer-fig6/results.csv --x workload.process --y weighted_cardinality --logy \
  --title "Kramer & Muhlenbein Fig. 6: 2-D torus on an 8-cube" --xlabel "process torus"
table "antonio1994 Table II: average Hamming distance" $r/antonio-table2/aggregate.csv --x mapping --by "" --y cardinality
table "antonio1994 Table II: variance of tasks per PE" $r/antonio-table2/aggregate.csv --x mapping --by "" --y load_variance
table "antonio1994 Table III: average Hamming distance" $r/antonio-table3/aggregate.csv --x mapping.spreading --by "" --y cardinality
table "antonio1994 Table III: variance of tasks per PE" $r/antonio-table3/aggregate.csv --x mapping.spreading --by "" --y load_variance
table "antonio1994 Table IV: average Hamming distance" $r/antonio-table4/aggregate.csv --x workload.process.edges --by mapping.spreading --y cardinality
table "antonio1994 Table IV: variance of tasks per PE" $r/antonio-table4/aggregate.csv --x workload.process.edges --by mapping.spreading --y load_variance

# takizawa2008: run time relative to the EPS-only network with x1 (64 Gbps) upstream links.
tk=$r/takizawa-fig5-6/results.csv
base=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["network.up_bw"] == "64Gbps" && $col["ocs.pathways"] == "0" && $col["mapper"] == "default" { print $col["sim_makespan"] }' "$tk")
scale=$(awk -v b="$base" 'BEGIN { printf "%.17g", 1 / b }')
for bw in 16Gbps 64Gbps 320Gbps; do
  table "takizawa2008 Figure 5: run time relative to EPS-only x1 ($base s), upstream $bw (default = SP, metis and best = CP)" \
    $tk --x ocs.pathways --y sim_makespan --where network.up_bw=$bw --scale "$scale"
done
figure takizawa-fig5 $tk --x ocs.pathways --y sim_makespan --where network.up_bw=64Gbps --scale "$scale" \
  --ylabel "run time / EPS-only x1" --xlabel "OCS pathways" --title "takizawa2008 Fig. 5: Neighbor, upstream x1 (default = SP)"
table "takizawa2008 Figure 6: bytes into S0, upstream 64Gbps" $tk --x ocs.pathways --y sim_core_switch_load --where network.up_bw=64Gbps
table "takizawa2008 Figure 6: busiest node EPS link (bytes), upstream 64Gbps" $tk --x ocs.pathways --y sim_max_nic_load --where network.up_bw=64Gbps
table "takizawa2008: pathways assigned, upstream 64Gbps" $tk --x ocs.pathways --y sim_circuits --where network.up_bw=64Gbps
