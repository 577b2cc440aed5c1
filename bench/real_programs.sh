#!/usr/bin/env bash
# Real MPI programs traced with libmapsim-trace.so and replayed by mapsim and by smpirun -replay on the
# same platform with the same collective algorithms: LAMMPS's peptide example and hpcc 1.5.0, 8 ranks
# (Debian's lammps, lammps-examples and hpcc packages; not installed by scripts/setup.sh). Prints the
# tracer's skipped.txt, trace check's verdict, both makespans, their relative difference and times.
#   bash bench/real_programs.sh [BUILD_DIR] [WORK_DIR]
set -euo pipefail
build=$(realpath "${1:-build}")
work=${2:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
for tool in mpirun smpirun lmp hpcc; do
  command -v "$tool" >/dev/null || { echo "$tool not found (apt-get install lammps lammps-examples hpcc simgrid)"; exit 77; }
done
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
# mapsim's default algorithms under SimGrid's names (alltoallv: mapsim's ring order is SimGrid's `ring` only
# below powers of two, so both use SimGrid's ring: rank XOR i at 8 ranks).
smpi_algorithms=(--cfg=smpi/barrier:ompi_bruck --cfg=smpi/bcast:binomial_tree --cfg=smpi/reduce:binomial
                 --cfg=smpi/allreduce:rdb --cfg=smpi/alltoall:ring --cfg=smpi/alltoallv:ring --cfg=smpi/allgather:NTSLR
                 --cfg=smpi/gather:ompi_binomial)
"$build/mapsim" topo tree2:switches=1,nodes_per_switch=8 --export simgrid -o platform.xml 2>/dev/null
for i in 0 1 2 3 4 5 6 7; do echo "node-$i"; done >hosts

# trace NAME COMMAND...: records COMMAND under 8 ranks into NAME/trace, then replays it both ways.
trace() {
  local name=$1
  shift
  (cd "$name" && MAPSIM_TRACE_DIR="$work/$name/trace" mpirun "${root[@]}" --oversubscribe -np 8 \
    -x LD_PRELOAD="$build/libmapsim-trace.so" -x MAPSIM_TRACE_DIR "$@" >run.out 2>run.err)
  echo "== $name: skipped.txt"
  cat "$name/trace/skipped.txt"
  "$build/mapsim" trace check "$name/trace/index.txt"
  local start end ours smpi
  start=$(date +%s.%N)
  ours=$("$build/mapsim" simulate --topology tree2:switches=1,nodes_per_switch=8 --trace "$name/trace/index.txt" \
    --sharing smpi --collectives alltoallv=ring --json | python3 -c 'import json, sys; print(repr(json.load(sys.stdin)["makespan"]))')
  end=$(date +%s.%N)
  echo "mapsim simulate: $ours s simulated, $(echo "$end - $start" | bc) s wall"
  start=$(date +%s.%N)
  smpirun -np 8 -platform platform.xml -hostfile hosts -replay "$name/trace/index.txt" \
    --cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:1e300 --cfg=surf/precision:1e-12 \
    --cfg=tracing:yes --cfg=tracing/smpi:yes --cfg=tracing/precision:15 --cfg=tracing/filename:"$name/smpi.paje" \
    "${smpi_algorithms[@]}" --log=root.thres:critical >/dev/null 2>&1
  end=$(date +%s.%N)
  smpi=$(awk '!/^%/ && $2 ~ /\./ { if ($2 > last) last = $2 } END { printf "%.15g", last }' "$name/smpi.paje")
  echo "smpirun -replay: $smpi s simulated, $(echo "$end - $start" | bc) s wall"
  python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f'relative difference {(a - b) / b:.2e}')" "$ours" "$smpi"
}

mkdir -p lammps hpcc
cp /usr/share/lammps/examples/peptide/in.peptide /usr/share/lammps/examples/peptide/data.peptide lammps/
trace lammps lmp -in in.peptide
sed -e 's/^2            Qs/4            Qs/' /usr/share/doc/hpcc/examples/_hpccinf.txt >hpcc/hpccinf.txt  # P x Q = 2 x 4
trace hpcc hpcc
