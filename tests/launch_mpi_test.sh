#!/usr/bin/env bash
# A rankfile of `mapsim map --launch rankfile=F` under a real mpirun: Open MPI accepts it without
# --map-by and binds each rank to the core its slot names (the node's k-th rank on core k).
# One host only (this machine, as the network's one node), as many ranks as it has cores (at most 8).
# Usage: launch_mpi_test.sh MAPSIM. Exit 77 (skipped) when no Open MPI mpirun is installed.
mapsim=$1
source "$(dirname "$0")/mpi_lib.sh" "launch file" open-mpi
ranks=$(nproc)
[ "$ranks" -gt 8 ] && ranks=8
[ "$ranks" -lt 2 ] && { echo "one core: launch file test skipped"; exit 77; }
host=$(hostname)
printf 'switches: [s0]\nnodes:\n  - {name: %s, switch: s0}\nlinks: []\n' "$host" >"$tmp/net.yaml"
"$mapsim" map --topology "file:$tmp/net.yaml" --process "ring:$ranks" --slots "$ranks" --launch rankfile="$tmp/rf" >/dev/null
check "rankfile written" test "$(wc -l <"$tmp/rf")" -eq "$ranks"
mpirun "${root[@]}" -n "$ranks" --rankfile "$tmp/rf" --report-bindings true >"$tmp/out" 2>&1
status=$?
check "mpirun --rankfile F exits 0" test $status -eq 0
[ $status -eq 0 ] || sed 's/^/  mpirun: /' "$tmp/out" >&2
# Open MPI 4: "MCW rank 1 bound to socket 0[core 1[hwt 0]]"; 5: "Rank 1 bound to package[0][core:1]".
for ((r = 0; r < ranks; ++r)); do
  check "rank $r bound to core $r" grep -Eiq "rank $r bound to .*core[ :]$r[^0-9]" "$tmp/out"
done
exit $failed
