#!/usr/bin/env bash
# A sweep as a Slurm job array, run here without Slurm: `mapsim sweep --emit slurm` writes the array
# script, then its tasks run as `sbatch` would start them (SLURM_ARRAY_TASK_ID set, stdout to the
# script's --output file), SLOTS at a time; `--merge` writes the tables, which must be byte-identical
# to the same sweep run by `mapsim sweep -j SLOTS`. Prints wall times and points per hour.
# Usage: bench/sweep_array.sh [BUILD_DIR] [SWEEP.yaml] [SLOTS]
set -euo pipefail
build=$(realpath "${1:-build}")
sweep=$(realpath "${2:-configs/papers/moh2001-fig7-9.yaml}")
slots=${3:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$build/mapsim" sweep "$sweep" --emit slurm -o "$work/array" >/dev/null
script="$work/array/sweep.slurm"
range=$(sed -n 's/^#SBATCH --array=//p' "$script")  # 0-N
log=$(sed -n 's/^#SBATCH --output=//p' "$script")   # .../point-%a.log
points=$(( ${range#*-} + 1 ))
mkdir -p "$(dirname "$log")"

start=$(date +%s.%N)
seq "${range%-*}" "${range#*-}" | xargs -P "$slots" -I{} \
  sh -c 'SLURM_ARRAY_TASK_ID=$1 bash "$2" >"$(echo "$3" | sed "s/%a/$1/")" 2>&1' _ {} "$script" "$log"
array_wall=$(echo "$(date +%s.%N) - $start" | bc)
"$build/mapsim" sweep "$sweep" -o "$work/array" --merge >/dev/null

start=$(date +%s.%N)
"$build/mapsim" sweep "$sweep" -o "$work/local" -j "$slots" >/dev/null
local_wall=$(echo "$(date +%s.%N) - $start" | bc)

same=identical
for table in results.csv aggregate.csv; do
  cmp -s "$work/array/$table" "$work/local/$table" || same="DIFFERENT ($table)"
done
printf 'sweep %s: %d points, %d task slots\n' "$(basename "$sweep")" "$points" "$slots"
printf 'array tasks: %.1f s (%.0f points/hour, %.0f per slot-hour)\n' "$array_wall" \
  "$(echo "$points * 3600 / $array_wall" | bc -l)" "$(echo "$points * 3600 / $array_wall / $slots" | bc -l)"
printf 'mapsim sweep -j %d:  %.1f s\n' "$slots" "$local_wall"
printf 'tables: %s\n' "$same"
[ "$same" = identical ]
